package app

import (
	"testing"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/x/budget"
)

// TestBlockFullReportLeavesNoTrace: a report that completes an arena
// submission's quorum but is rejected with block_full must leave nothing
// behind, not even the submission's place in the block's arena batch. Two
// of three validators reported before (exactly 2/3, pending); the third
// report is rejected for the block's write budget, so at the end of the
// block the submission is still pending, unscored, with two votes.
func TestBlockFullReportLeavesNoTrace(t *testing.T) {
	n := newNode(t, "", testGenesis(3))
	m := newMiner("miner-a", 1)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	// commits to 4, the reveal at 5, reports 6..8
	mustOK(t, n.block(m.tx(t, msgRegister()), r[0].tx(t, msgArenaTask(5, 3, 3))))
	p := arenaPayloadOf(m, 0)
	mustOK(t, n.block(m.commit(t, p)))
	n.block()
	n.block()
	mustOK(t, n.block(m.reveal(t, p)))
	mustOK(t, n.block(r[0].tx(t, msgArenaReport(0, arenaM())), r[1].tx(t, msgArenaReport(0, arenaM()))))

	// Execute height 7 as executeBlock does, with a write budget of 1 byte.
	base, _ := n.app.base()
	bo := store.NewOverlay(base)
	blk := &kernel.Block{Height: n.height + 1, Time: blockTime(n.height + 1).Unix(), Chain: n.app.chain}
	lim := n.app.limits
	lim.BlockWrites = 1
	meter := budget.NewMeter(lim, bo)
	res := n.app.deliverTx(bo, r[2].tx(t, msgArenaReport(0, arenaM())), blk, meter)
	if res.Code != wire.CodeBlockFull {
		t.Fatalf("third report: code %d (%s), want block_full", res.Code, res.Log)
	}
	if (store.Due{St: store.State{O: bo}, Kind: store.DueArena}).Pending() {
		t.Fatal("a rejected report left its submission in the arena queue")
	}
	evs, _ := endBlock(n.app.env(bo, blk), meter)
	if len(evs) != 0 {
		t.Fatalf("end of block after a rejected report emitted %v", evs)
	}
	st := store.State{O: bo}
	sub, _ := st.Submission(0)
	if sub.Status != kernel.StatusPending || len(sub.Votes) != 2 {
		t.Fatalf("submission 0 = %s with %d votes, want pending with 2", sub.Status, len(sub.Votes))
	}
	if st.Has(store.KeyWindow(store.WindowArena, 1)) || st.Has(store.KeyBaseline(0)) {
		t.Fatal("a rejected report reached the miner's arena window or the task's baseline")
	}
}
