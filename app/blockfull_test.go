package app

import (
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
)

// TestBlockFullReportLeavesNoTrace: a report that completes an arena
// submission's quorum but is rejected with block_full must leave nothing
// behind, not even the submission's place in the block's arena batch. Two
// of three validators reported before (exactly 2/3, pending); the third
// report is rejected for the block's write budget, so at the end of the
// block the submission is still pending, unscored, with two votes.
func TestBlockFullReportLeavesNoTrace(t *testing.T) {
	n := newNode(t, "", testGenesis(3))
	m := newSigner("miner-a")
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(m.tx(t, msgRegister()), r[0].tx(t, msgArenaTask(5, 3, 3)))) // report deadline 7
	mustOK(t, n.block(m.tx(t, msgArenaSubmit(0))))
	mustOK(t, n.block(r[0].tx(t, msgArenaReport(0, arenaM())), r[1].tx(t, msgArenaReport(0, arenaM()))))

	// Execute height 4 as executeBlock does, with a write budget of 1 byte.
	base, _ := n.app.base()
	bo := newOverlay(base)
	bs := &blockState{blockCtx: blockCtx{height: 4, time: blockTime(4).Unix()}}
	res := n.app.deliverTx(bo, r[2].tx(t, msgArenaReport(0, arenaM())), bs, 1)
	if res.Code != wire.CodeBlockFull {
		t.Fatalf("third report: code %d (%s), want block_full", res.Code, res.Log)
	}
	if len(bs.arenaBatch) != 0 {
		t.Fatalf("a rejected report left submissions %v in the block's arena batch", bs.arenaBatch)
	}
	evs := n.app.endBlock(state{bo}, bs)
	if len(evs) != 0 {
		t.Fatalf("end of block after a rejected report emitted %v", evs)
	}
	sub, _ := state{bo}.submission(0)
	if sub.Status != statusPending || len(sub.Votes) != 2 {
		t.Fatalf("submission 0 = %s with %d votes, want pending with 2", sub.Status, len(sub.Votes))
	}
	if (state{bo}).has(keyWindow(windowArena, 1)) || (state{bo}).has(keyBaseline(0)) {
		t.Fatal("a rejected report reached the miner's arena window or the task's baseline")
	}
}
