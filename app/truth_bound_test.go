package app

import (
	"testing"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/track"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/x/budget"
)

// TestTruthCloseAtDeadlineIsBounded: closing an EVM block at a truth round's
// deadline writes every open prediction it sweeps, which no transaction
// budget bounds (genesis bounds one close to 4 MiB, but several rounds may
// fall due in a block already full of settlements). When those writes would
// take the block past the truth limit (budget.Limits.TruthWrites) the round expires instead, so the
// block still fits one badger transaction; the predictions stay open and
// untouched.
func TestTruthCloseAtDeadlineIsBounded(t *testing.T) {
	g := testGenesis(3)
	g.Chain.TruthReportBlocks = 1
	n := newNodeLimits(t, "", g, budget.Limits{TruthWrites: 1})
	m := newSigner("miner-a")
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(append([][]byte{m.tx(t, msgRegister())}, anchorTxs(t, r, 1, 99, 1_700_000_001)...)...))
	mustOK(t, n.block(m.tx(t, msgGas(1, 100, "12"))))
	// Two of three validators (exactly 2/3): pending until the deadline, height 4.
	mustOK(t, n.block(r[0].tx(t, msgTruth(1, 100, "10", 1_700_000_100)), r[1].tx(t, msgTruth(1, 100, "10", 1_700_000_100))))
	resp := n.block()
	if _, ok := eventAttr(resp.Events, wire.EventGasWindowClosed, "evm_block"); ok {
		t.Fatalf("the close past the limit happened: %v", resp.Events)
	}
	base, _ := n.app.base()
	st := store.State{O: store.NewOverlay(base)}
	if round, _ := st.Truth(1, 100); round.Status != track.StatusExpired || round.ClosedHeight != 4 {
		t.Fatalf("round of block 100 = %s at %d, want expired at 4", round.Status, round.ClosedHeight)
	}
	if sub, _ := st.Submission(0); sub.Status != track.StatusPending {
		t.Fatalf("prediction 0 = %s, want still pending", sub.Status)
	}
	if gc := st.GasChain(1); gc.LastClosedBlock != 99 || len(gc.OpenBlocks) != 1 {
		t.Fatalf("chain 1 = %v, want block 100 still open and nothing closed after the anchor 99", gc)
	}
	checkFullHash(t, n.app)
}
