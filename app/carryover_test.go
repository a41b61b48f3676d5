package app

import (
	"fmt"
	"testing"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/x/budget"
)

// carriedSettlement is a chain whose end of block may write 1 byte, with 3
// miners' revealed submissions to task 0 (commit ≤ h2, reveal h3, report
// ≤ h4): its settlement at h4 carries one submission per block.
func carriedSettlement(t *testing.T) *node {
	t.Helper()
	n := newNodeLimits(t, "", testGenesis(4), budget.Limits{EndWrites: 1})
	r := reporter(0)
	miners := make([]*signer, 3)
	var txs [][]byte
	for i := range miners {
		miners[i] = newMiner(fmt.Sprintf("carry-%d", i), uint32(i+1))
		txs = append(txs, miners[i].tx(t, msgRegister()))
	}
	txs = append(txs, r.tx(t, msgWorkflowTask(4, 1, 1))) // commit ≤ h2, reveal h3, report ≤ h4
	mustOK(t, n.block(txs...))
	for _, step := range []func(*signer) []byte{
		func(m *signer) []byte { return m.commit(t, wfPayloadOf(m, 0)) }, // h2
		func(m *signer) []byte { return m.reveal(t, wfPayloadOf(m, 0)) }, // h3
	} {
		txs = nil
		for _, m := range miners {
			txs = append(txs, step(m))
		}
		mustOK(t, n.block(txs...))
	}
	return n
}

// TestSettlementCarryOver: when the end of block runs out of write budget,
// settlement continues at the next height (one submission per block with a
// budget of 1 byte), reports for carried submissions are refused with
// report_deadline, and every submission ends settled.
func TestSettlementCarryOver(t *testing.T) {
	n := carriedSettlement(t)
	n.block() // h4: settles submission 0 only
	want := []string{kernel.StatusExpired, kernel.StatusPending, kernel.StatusPending}
	for id, w := range want {
		if s, _ := n.query(fmt.Sprintf("submission/%d", id)); s["status"] != w {
			t.Fatalf("after h4 submission %d = %v, want %s", id, s["status"], w)
		}
	}
	late := finalizeOnly(t, n, n.height+1, [][]byte{reporter(1).next(msgWorkflowReport(2, workflowM()))})
	if late.TxResults[0].Code != wire.CodeReportDeadline {
		t.Fatalf("report on a carried submission: code %d, want report_deadline", late.TxResults[0].Code)
	}
	n.block() // h5: submission 1
	n.block() // h6: submission 2
	for id := range want {
		if s, _ := n.query(fmt.Sprintf("submission/%d", id)); s["status"] != kernel.StatusExpired {
			t.Fatalf("submission %d = %v, want expired", id, s["status"])
		}
	}
}
