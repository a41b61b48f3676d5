package app

import (
	"strings"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// A minority used to decide at a deadline. With more than 1/3 of
// the power enough to settle a report at its deadline and ties going to the
// lower value, one validator of 25% and one honest reporter of 25% settled
// a submission on the dishonest values. The deadline quorum (default 1/2,
// docs/scoring.md §6.5) refuses that settlement; settlements where the
// honest reporters hold more than half of the reported power keep the
// honest values.

// dishonestM is what the dishonest validator reports on a workflow
// submission: nothing done. Each field's median of it and workflowM() at a
// tie of power is its (lower) value, which gates the score down to the
// reliability term: 0.10 × 1 = 0.1 instead of 0.8575.
func dishonestM() *subnetv1.WorkflowMeasurement {
	m := workflowM()
	m.OutputQuality, m.StepsCompleted = "0", 0
	return m
}

// powersGenesis is testGenesis(len(powers)) with the validators' powers.
func powersGenesis(powers ...int64) genesis.AppState {
	g := testGenesis(len(powers))
	for i, p := range powers {
		g.Validators[i].Power = p
	}
	return g
}

// deadlineCase posts a workflow task (commits to height 2, the reveal at
// 3, reports close at height 5), a miner whose workflow declares a retry
// budget of 1 commits and reveals it (submission 0, honest score 0.8575),
// the dishonest validator 0 and the honest validators `honest` report at
// height 4, and height 5 is the deadline. It returns the submission after
// height 4 and after height 5.
func deadlineCase(t *testing.T, g genesis.AppState, honest ...int) (afterReports, atDeadline map[string]any) {
	t.Helper()
	n, afterReports, resp := deadlineRun(t, g, honest...)
	atDeadline, _ = n.query("submission/0")
	if atDeadline["status"] == kernel.StatusExpired {
		if _, ok := eventAttr(resp.Events, wire.EventSubmissionExpired, "submission_id"); !ok {
			t.Fatalf("submission 0 expired without a %s event: %v", wire.EventSubmissionExpired, resp.Events)
		}
	}
	return afterReports, atDeadline
}

// deadlineRun is deadlineCase's chain: the node after the deadline, the
// submission after height 4, and the deadline block's response.
func deadlineRun(t *testing.T, g genesis.AppState, honest ...int) (n *node, afterReports map[string]any, resp *abcitypes.ResponseFinalizeBlock) {
	t.Helper()
	n = newNode(t, "", g)
	a := newMiner("miner-a", 1)
	r0 := reporter(0)
	mustOK(t, n.block(a.tx(t, msgRegister()), r0.tx(t, msgWorkflowTask(4, 1, 2))))
	p := wfPayload(0)
	mustOK(t, n.block(a.commit(t, p)))
	mustOK(t, n.block(a.reveal(t, p)))
	txs := [][]byte{r0.tx(t, msgWorkflowReport(0, dishonestM()))}
	for _, i := range honest {
		txs = append(txs, reporter(i).tx(t, msgWorkflowReport(0, workflowM())))
	}
	mustOK(t, n.block(txs...))
	afterReports, _ = n.query("submission/0")
	resp = n.block()
	mustOK(t, resp)
	return n, afterReports, resp
}

func score(sub map[string]any) string {
	rec, _ := sub["receipt"].(map[string]any)
	s, _ := rec["score"].(string)
	return s
}

// TestDeadlineMinorityCannotSettle is the finding: four validators of 25,
// one dishonest and one honest report. 50 of 100 is exactly 1/2, not more:
// the submission expires at its deadline (before, it scored 0.1).
func TestDeadlineMinorityCannotSettle(t *testing.T) {
	_, sub := deadlineCase(t, powersGenesis(25, 25, 25, 25), 1)
	if sub["status"] != kernel.StatusExpired {
		t.Fatalf("25%% dishonest + 25%% honest at the deadline = %v (score %q), want expired", sub["status"], score(sub))
	}
	rec := sub["receipt"].(map[string]any)
	if note, _ := rec["note"].(string); !strings.Contains(note, "at most 0.5 of the voting power") {
		t.Fatalf("receipt note = %q, want the deadline quorum named", note)
	}
	if rec["reported_power"] != "50" && rec["reported_power"] != float64(50) {
		t.Fatalf("reported_power = %v, want 50", rec["reported_power"])
	}
}

// TestDeadlineHonestMajorityKeepsHonestScore: whenever the honest
// reporters hold more than half of the reported power, the score is the
// honest one, whether the quorum or the deadline settles it. At a deadline
// the honest side must also hold at least 1/3 of the total power (the
// bracket rule; 25 dishonest + 26 honest is contested,
// TestDeadlineOldCasesContested), hence 17 + 34 for the 51 of 100.
func TestDeadlineHonestMajorityKeepsHonestScore(t *testing.T) {
	const honest = "0.857500000000000000"
	t.Run("quorum: 25 dishonest, 50 honest", func(t *testing.T) {
		sub, _ := deadlineCase(t, powersGenesis(25, 25, 25, 25), 1, 2)
		if sub["status"] != kernel.StatusScored || score(sub) != honest {
			t.Fatalf("75 of 100 reported, 50 honest = %v %q, want scored %s in the reports' block", sub["status"], score(sub), honest)
		}
	})
	t.Run("deadline: 17 dishonest, 34 honest", func(t *testing.T) {
		before, sub := deadlineCase(t, powersGenesis(17, 34, 25, 24), 1)
		if before["status"] != kernel.StatusPending {
			t.Fatalf("51 of 100 before the deadline = %v, want pending", before["status"])
		}
		if sub["status"] != kernel.StatusScored || score(sub) != honest {
			t.Fatalf("51 of 100 at the deadline, 34 honest = %v %q, want scored %s", sub["status"], score(sub), honest)
		}
	})
	t.Run("deadline quorum 0.34: 10 dishonest, 35 honest of 100", func(t *testing.T) {
		g := powersGenesis(10, 35, 30, 25) // 45 of 100: expired under the default 1/2
		g.Chain.DeadlineQuorum = kernel.Dec("0.34")
		_, sub := deadlineCase(t, g, 1)
		if sub["status"] != kernel.StatusScored || score(sub) != honest {
			t.Fatalf("the genesis deadline quorum is not the one applied: %v %q", sub["status"], score(sub))
		}
	})
}

// TestDeadlineQuorumTruthRound: a truth round follows the same rule. Half
// of the power at its deadline drops the round (the EVM block stays open);
// just over half closes the block on the honest price and opens its reveal
// window.
func TestDeadlineQuorumTruthRound(t *testing.T) {
	run := func(t *testing.T, g genesis.AppState) (*node, store.State) {
		t.Helper()
		g.Chain.TruthReportBlocks = 1
		n := newNode(t, "", g)
		r := []*signer{reporter(0), reporter(1), reporter(2), reporter(3)}
		mustOK(t, n.block(anchorTxs(t, r[:3], 1, 99, 1_700_000_001)...)) // 3 of 4: over 2/3 in either genesis
		// Validator 0 (dishonest) reports a price of 1, validator 1 the honest 10.
		mustOK(t, n.block(r[0].tx(t, msgTruth(1, 100, "1", 1_700_000_100)), r[1].tx(t, msgTruth(1, 100, "10", 1_700_000_100))))
		mustOK(t, n.block()) // height 3: the round's deadline
		base, _ := n.app.base()
		return n, store.State{O: store.NewOverlay(base)}
	}
	t.Run("50 of 100: dropped", func(t *testing.T) {
		_, st := run(t, powersGenesis(25, 25, 25, 25))
		if r, ok := st.Truth(1, 100); ok {
			t.Fatalf("round of block 100 with half the power = %s, want dropped", r.Status)
		}
		if gc := st.GasChain(1); gc.LastClosedBlock != 99 {
			t.Fatalf("last closed block = %d, want 99 (block 100 stays open)", gc.LastClosedBlock)
		}
	})
	t.Run("51 of 100: final on the honest price", func(t *testing.T) {
		// 17 dishonest + 34 honest: the honest price is bracketed (34 ≥ 1/3)
		_, st := run(t, powersGenesis(17, 34, 25, 24))
		r, ok := st.Truth(1, 100)
		if !ok || r.Status != kernel.StatusFinal || r.MinPrice != kernel.FmtDec(kernel.Dec("10")) {
			t.Fatalf("round of block 100 = %v, want final at 10", r)
		}
		// final at its deadline (height 3): the block's reveal window is height 4
		if r.ClosedHeight != 3 || r.RevealDeadline != 4 {
			t.Fatalf("round of block 100 closed at %d, reveals until %d; want 3 and 4", r.ClosedHeight, r.RevealDeadline)
		}
	})
}
