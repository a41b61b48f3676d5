package app

import (
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/track"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/x/budget"
)

// TestTruthClosesAtDeadlineCarry: several truth rounds falling due in one
// block each close an EVM block, and closes write every prediction they
// sweep. With an end-of-block limit of 1 byte, the block closes the first
// (the end of block always makes progress; genesis bounds one close to what
// a full block leaves) and carries the second, which closes at the next
// height, with the same truth. Nothing expires; the app hash covers it all.
func TestTruthClosesAtDeadlineCarry(t *testing.T) {
	g := testGenesis(3)
	g.Chain.TruthReportBlocks = 1
	n := newNodeLimits(t, "", g, budget.Limits{EndWrites: 1})
	m := newSigner("miner-a")
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(append([][]byte{m.tx(t, msgRegister())}, anchorTxs(t, r, 1, 99, 1_700_000_001)...)...))
	mustOK(t, n.block(m.tx(t, msgGas(1, 100, "12")), m.tx(t, msgGas(1, 101, "12"))))
	// Two of three validators (exactly 2/3) on blocks 100 and 101: pending until the deadline, height 4.
	mustOK(t, n.block(r[0].tx(t, msgTruth(1, 100, "10", 1_700_000_100)), r[1].tx(t, msgTruth(1, 100, "10", 1_700_000_100)),
		r[0].tx(t, msgTruth(1, 101, "10", 1_700_000_110)), r[1].tx(t, msgTruth(1, 101, "10", 1_700_000_110))))
	resp := n.block()
	if b, _ := eventAttr(resp.Events, wire.EventGasWindowClosed, "evm_block"); b != "100" {
		t.Fatalf("height 4 closed %q, want block 100 (the first due round)", b)
	}
	if got := countEvents(resp.Events, wire.EventGasWindowClosed); got != 1 {
		t.Fatalf("height 4 closed %d EVM blocks, want 1 (the second carried)", got)
	}
	resp = n.block()
	if b, _ := eventAttr(resp.Events, wire.EventGasWindowClosed, "evm_block"); b != "101" {
		t.Fatalf("height 5 closed %q, want the carried block 101", b)
	}
	base, _ := n.app.base()
	st := store.State{O: store.NewOverlay(base)}
	for _, b := range []uint64{100, 101} {
		if round, _ := st.Truth(1, b); round.Status != track.StatusFinal {
			t.Fatalf("round of block %d = %s, want final", b, round.Status)
		}
	}
	if (store.Due{St: st, Kind: store.DueTruths}).Pending() {
		t.Fatal("the truth schedule still holds work after both closes")
	}
	checkFullHash(t, n.app)
}

func countEvents(evs []abcitypes.Event, typ string) int {
	n := 0
	for _, e := range evs {
		if e.Type == typ {
			n++
		}
	}
	return n
}
