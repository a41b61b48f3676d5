package app

import (
	"fmt"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/x/budget"
)

// TestTruthClosesAtDeadlineCarry: several truth rounds falling due in one
// block each become final (and a final truth's close falls due at the end
// of its reveal window), and closes write every prediction they judge. With
// an end-of-block limit of 1 byte, the end of block always makes progress —
// it settles its first item, the close of the gas step runs first, and
// genesis bounds one close to what a full block leaves — and carries the
// rest: at the shared deadline the first round becomes final and the second
// is carried; the next block closes the first (its reveal window's end) and
// carries the second again; the second is final after it, with the same
// truth, and closes at the end of its own window. Nothing expires; every
// revealed prediction counts; the app hash covers it all.
func TestTruthClosesAtDeadlineCarry(t *testing.T) {
	g := testGenesis(3)
	g.Chain.TruthReportBlocks = 1
	n := newNodeLimits(t, "", g, budget.Limits{EndWrites: 1})
	m := newMiner("miner-a", 1)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(append([][]byte{m.tx(t, msgRegister())}, anchorTxs(t, r, 1, 99, 1_700_000_001)...)...))
	p100, p101 := gasPayload(1, 100, "12"), gasPayload(1, 101, "12")
	mustOK(t, n.block(m.commit(t, p100), m.commit(t, p101)))
	// Two of three validators (exactly 2/3) on blocks 100 and 101: pending until the deadline, height 4.
	mustOK(t, n.block(r[0].tx(t, msgTruth(1, 100, "10", 1_700_000_100)), r[1].tx(t, msgTruth(1, 100, "10", 1_700_000_100)),
		r[0].tx(t, msgTruth(1, 101, "10", 1_700_000_110)), r[1].tx(t, msgTruth(1, 101, "10", 1_700_000_110))))
	resp := n.block()
	crbOnly(t, resp, wire.EventGasTruthFinal, "100")
	crbOnly(t, resp, wire.EventGasWindowClosed)
	// Height 5: 100's reveal window. 101 is not final: its reveal is refused.
	resp = n.block(m.reveal(t, p100), m.reveal(t, p101))
	mustCodes(t, resp, wire.CodeOK, wire.CodeRevealWindow)
	m.nonce--
	crbOnly(t, resp, wire.EventGasWindowClosed, "100")
	crbOnly(t, resp, wire.EventGasTruthFinal)
	resp = n.block() // height 6: the carried round of 101 becomes final
	crbOnly(t, resp, wire.EventGasTruthFinal, "101")
	if ts, _ := eventAttr(resp.Events, wire.EventGasTruthFinal, "timestamp"); ts != "1700000110" {
		t.Fatalf("the carried round's timestamp = %s, want the votes' 1700000110", ts)
	}
	resp = n.block(m.reveal(t, p101)) // height 7: 101's reveal window, closed at its end
	mustOK(t, resp)
	crbOnly(t, resp, wire.EventGasWindowClosed, "101")
	base, _ := n.app.base()
	st := store.State{O: store.NewOverlay(base)}
	for _, b := range []uint64{100, 101} {
		if round, _ := st.Truth(1, b); round.Status != kernel.StatusFinal {
			t.Fatalf("round of block %d = %s, want final", b, round.Status)
		}
	}
	for id, want := range []string{kernel.StatusCounted, kernel.StatusScored} { // memory 2: the second fills it
		if s, _ := n.query(fmt.Sprint("submission/", id)); s["status"] != want {
			t.Fatalf("prediction %d = %v, want %s", id, s["status"], want)
		}
	}
	if (store.Due{St: st, Kind: store.DueTruths}).Pending() || (store.Due{St: st, Kind: store.DueGasClose}).Pending() {
		t.Fatal("the truth or close schedule still holds work after both closes")
	}
	checkFullHash(t, n.app)
}

// TestGasClosesDueTogetherCarry: two EVM blocks whose truths become final
// in one block (by Truth transactions, which the end-of-block limit does
// not meter) have their reveal windows end together, so both closes fall
// due at one height. With an end-of-block limit of 1 byte the first close
// still runs there (the first item always fits) and the second is carried
// to the next height, where it closes with the revealed predictions it
// took in the window: a close carried past the window's end judges the
// same reveals, and a reveal after the window is still refused.
func TestGasClosesDueTogetherCarry(t *testing.T) {
	g := testGenesis(3)
	n := newNodeLimits(t, "", g, budget.Limits{EndWrites: 1})
	m := newMiner("miner-a", 1)
	late := newMiner("miner-b", 2)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(append([][]byte{m.tx(t, msgRegister()), late.tx(t, msgRegister())}, anchorTxs(t, r, 1, 99, 1_700_000_001)...)...))
	p100, p101, q101 := gasPayload(1, 100, "12"), gasPayload(1, 101, "11"), gasPayload(1, 101, "9")
	mustOK(t, n.block(m.commit(t, p100), m.commit(t, p101), late.commit(t, q101))) // height 2
	var txs [][]byte
	for _, v := range r {
		txs = append(txs, v.tx(t, msgTruth(1, 100, "10", 1_700_000_100)), v.tx(t, msgTruth(1, 101, "10", 1_700_000_110)))
	}
	resp := n.block(txs...) // height 3: both final, both windows are height 4
	mustOK(t, resp)
	if got := countEvents(crbEvents(resp), wire.EventGasTruthFinal); got != 2 {
		t.Fatalf("height 3 made %d truths final, want 2", got)
	}
	resp = n.block(m.reveal(t, p100), m.reveal(t, p101)) // height 4: the windows' last block
	mustOK(t, resp)
	crbOnly(t, resp, wire.EventGasWindowClosed, "100")
	// Height 5: the window of 101 has ended; its close, carried, runs now.
	resp = n.block(late.reveal(t, q101))
	mustCodes(t, resp, wire.CodeRevealWindow)
	late.nonce--
	crbOnly(t, resp, wire.EventGasWindowClosed, "101")
	if got, _ := eventAttr(resp.Events, wire.EventGasWindowClosed, "counting_predictions"); got != "1" {
		t.Fatalf("the carried close counted %s predictions, want 1 (the one revealed in the window)", got)
	}
	for id, want := range map[int]string{0: kernel.StatusCounted, 1: kernel.StatusScored, 2: kernel.StatusUnrevealed} {
		if s, _ := n.query(fmt.Sprint("submission/", id)); s["status"] != want {
			t.Fatalf("submission %d = %v, want %s", id, s["status"], want)
		}
	}
	base, _ := n.app.base()
	if (store.Due{St: store.State{O: store.NewOverlay(base)}, Kind: store.DueGasClose}).Pending() {
		t.Fatal("the close schedule still holds work after both closes")
	}
	checkFullHash(t, n.app)
}

// crbOnly fails unless the block's end emitted events of type typ for
// exactly the EVM blocks given (in order).
func crbOnly(t *testing.T, resp *abcitypes.ResponseFinalizeBlock, typ string, blocks ...string) {
	t.Helper()
	var got []string
	for _, e := range resp.Events {
		if e.Type == typ {
			b, _ := eventAttr([]abcitypes.Event{e}, typ, "evm_block")
			got = append(got, b)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(blocks) {
		t.Fatalf("end of block: %s for EVM blocks %v, want %v", typ, got, blocks)
	}
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
