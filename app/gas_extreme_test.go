package app

import (
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// TestExtremeOverpaymentReadsBack: the largest price a miner may predict (10^15) over the smallest
// minimum a truth may carry (10^-18) is a relative overpayment of about 10^33, beyond
// scoring.Parse's 10^30 input limit. The value is stored in the agent's memory; every later close
// reads it back, so the read must accept it or every node would halt on the next close.
func TestExtremeOverpaymentReadsBack(t *testing.T) {
	g := testGenesis(3)
	n := newNode(t, "", g)
	m := newMiner("miner-a", 1)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(m.tx(t, msgRegister())))
	mustOK(t, n.block(anchorTxs(t, r, 1, 99, blockTime(n.height+1).Unix())...))
	closes := g.Gas.MemorySize + 3
	for i := 0; i < closes; i++ {
		// commit, the truth final in the next block, the reveal after it
		// (the close at the end of the reveal's block)
		b := uint64(100 + i)
		p := gasPayload(1, b, "1000000000000000")
		mustOK(t, n.block(m.commit(t, p)))
		var txs [][]byte
		for _, v := range r {
			txs = append(txs, v.tx(t, msgTruth(1, b, "0.000000000000000001", blockTime(n.height+1).Unix()+100)))
		}
		mustOK(t, n.block(txs...))
		resp := n.block(m.reveal(t, p))
		mustOK(t, resp)
		if got, _ := eventAttr(resp.Events, wire.EventGasWindowClosed, "counting_predictions"); got != "1" {
			t.Fatalf("close of block %d counted %q predictions, want 1", b, got)
		}
	}
	agent, code := n.query("gas/1/1")
	if code != wire.QueryOK {
		t.Fatalf("gas agent query: code %d: %v", code, agent["log"])
	}
	mem, _ := agent["memory"].([]any)
	if len(mem) != g.Gas.MemorySize {
		t.Fatalf("memory has %d slots, want %d", len(mem), g.Gas.MemorySize)
	}
	slot, _ := mem[len(mem)-1].(map[string]any)
	want := "999999999999999999999999999999999.000000000000000000"
	if slot["overpayment"] != want {
		t.Fatalf("newest slot overpayment = %v, want %s", slot["overpayment"], want)
	}
	score, err := scoring.Parse(agent["score"].(string))
	if err != nil || score.Sign() < 0 || score.Cmp(scoring.One) > 0 {
		t.Fatalf("score %v (%v), want a value in [0, 1]", agent["score"], err)
	}
}
