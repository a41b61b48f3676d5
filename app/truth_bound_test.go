package app

import (
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
)

// TestTruthCloseAtDeadlineIsBounded: closing an EVM block at a truth round's
// deadline writes every open prediction it sweeps, which no transaction
// budget bounds (genesis bounds one close to 4 MiB, but several rounds may
// fall due in a block already full of settlements). When those writes would
// take the block past endBlockTruthLimit the round expires instead, so the
// block still fits one badger transaction; the predictions stay open and
// untouched.
func TestTruthCloseAtDeadlineIsBounded(t *testing.T) {
	saved := endBlockTruthLimit
	endBlockTruthLimit = 1
	defer func() { endBlockTruthLimit = saved }()
	g := testGenesis(3)
	g.Chain.TruthReportBlocks = 1
	n := newNode(t, "", g)
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
	st := state{newOverlay(base)}
	if round, _ := st.truth(1, 100); round.Status != statusExpired || round.ClosedHeight != 4 {
		t.Fatalf("round of block 100 = %s at %d, want expired at 4", round.Status, round.ClosedHeight)
	}
	if sub, _ := st.submission(0); sub.Status != statusPending {
		t.Fatalf("prediction 0 = %s, want still pending", sub.Status)
	}
	if gc := st.gasChain(1); gc.LastClosedBlock != 99 || len(gc.OpenBlocks) != 1 {
		t.Fatalf("chain 1 = %v, want block 100 still open and nothing closed after the anchor 99", gc)
	}
	checkFullHash(t, n.app)
}
