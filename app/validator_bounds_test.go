package app

import (
	"bytes"
	"context"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
)

// refusedAlone checks that tx alone in the next block is refused with code,
// changes nothing (the app hash is the empty block's), and that CheckTx
// agrees.
func refusedAlone(t *testing.T, n *node, tx []byte, code uint32) {
	t.Helper()
	h := n.height + 1
	empty := finalizeOnly(t, n, h, nil)
	resp := finalizeOnly(t, n, h, [][]byte{tx})
	if got := resp.TxResults[0].Code; got != code || resp.TxResults[0].Log == "" {
		t.Fatalf("code %d (%s), want %d (%s)", got, resp.TxResults[0].Log, code, wire.CodeName(code))
	}
	if !bytes.Equal(resp.AppHash, empty.AppHash) {
		t.Fatal("a refused tx changed the app hash")
	}
	if chk, _ := n.app.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: tx}); chk.Code != code {
		t.Fatalf("CheckTx code %d, FinalizeBlock %d", chk.Code, code)
	}
}

// TestOpenTasksPerValidator: a validator can hold only chain.max_open_tasks
// tasks whose settlement is not done (code 43); once one settles at its
// deadline, it may post again.
func TestOpenTasksPerValidator(t *testing.T) {
	g := testGenesis(3)
	g.Chain.MaxOpenTasks = 2
	n := newNode(t, "", g)
	r := reporter(0)
	// report deadlines (after the one-block reveal window) 1+1+1+1 = 4 and 1+5+1+5 = 12
	mustOK(t, n.block(r.tx(t, msgWorkflowTask(4, 1, 1)), r.tx(t, msgWorkflowTask(4, 5, 5))))
	refusedAlone(t, n, r.next(msgWorkflowTask(4, 1, 1)), wire.CodeTooManyOpenTasks)
	mustOK(t, n.block(reporter(1).tx(t, msgWorkflowTask(4, 1, 1)))) // another validator is not affected
	n.block()                                                       // height 3: task 0's reveal window, still open
	refusedAlone(t, n, r.next(msgWorkflowTask(4, 1, 1)), wire.CodeTooManyOpenTasks)
	n.block() // height 4: task 0 settles
	mustOK(t, n.block(r.tx(t, msgWorkflowTask(4, 1, 1))))
}

// TestMinorityCannotFreezeTheGasTrack is the freeze attack: one
// validator with a little power opens truth rounds for EVM blocks far
// ahead. Rounds beyond max_prediction_ahead are refused (44); within it a
// validator holds at most max_prediction_ahead pending rounds (46); a
// minority's round is dropped at its deadline, after which the honest
// majority's truth and a miner's prediction for that block are taken and
// the block closes. A timestamp far in the future is refused (45).
func TestMinorityCannotFreezeTheGasTrack(t *testing.T) {
	g := testGenesis(4)
	g.Chain.MaxPredictionAhead, g.Chain.TruthReportBlocks = 2, 2
	n := newNode(t, "", g)
	r := []*signer{reporter(0), reporter(1), reporter(2), reporter(3)}
	m := newMiner("miner-a", 1)
	ts := blockTime(1).Unix()
	mustOK(t, n.block(append([][]byte{m.tx(t, msgRegister())}, anchorTxs(t, r[:3], 1, 10, ts)...)...)) // chain 1 closed at 10
	refusedAlone(t, n, r[3].next(msgTruth(1, 13, "1", ts+1)), wire.CodeTruthTooFar)
	refusedAlone(t, n, r[3].next(msgTruth(1, 11, "1", 9_000_000_000_000_000_000)), wire.CodeTruthTimeFuture)
	mustOK(t, n.block(r[3].tx(t, msgTruth(1, 11, "1", ts+1)), r[3].tx(t, msgTruth(1, 12, "1", ts+1))))
	// r3 (1/4 of the power) now votes in two pending rounds of chain 1: no third.
	p11 := gasPayload(1, 11, "2")
	mustOK(t, n.block(m.commit(t, p11))) // height 3
	n.block()                            // height 4: both minority rounds reach their deadline and are dropped
	base, _ := n.app.base()
	st := store.State{O: store.NewOverlay(base)}
	for _, b := range []uint64{11, 12} {
		if r, ok := st.Truth(1, b); ok {
			t.Fatalf("the minority's round of block %d is still stored (%s): it must be dropped", b, r.Status)
		}
	}
	// The honest majority reports block 11 now; a late miner's commit for 12 is taken.
	honest := []*signer{r[0], r[1], r[2]}
	var txs [][]byte
	for _, v := range honest {
		txs = append(txs, v.tx(t, msgTruth(1, 11, "1", blockTime(5).Unix()+10)))
	}
	txs = append(txs, m.commit(t, gasPayload(1, 12, "2")))
	resp := n.block(txs...)
	mustOK(t, resp)
	if b, _ := eventAttr(resp.TxResults[2].Events, wire.EventGasTruthFinal, "evm_block"); b != "11" {
		t.Fatalf("the honest truth did not make block 11 final: %v", resp.TxResults[2].Events)
	}
	// height 6: the reveal window of 11; the close at its end counts the prediction
	resp = n.block(m.reveal(t, p11))
	mustOK(t, resp)
	if b, _ := eventAttr(resp.Events, wire.EventGasWindowClosed, "evm_block"); b != "11" {
		t.Fatalf("the end of 11's reveal window did not close it: %v", resp.Events)
	}
	if s, _ := n.query("submission/0"); s["status"] != kernel.StatusCounted {
		t.Fatalf("the prediction for 11 = %v, want counted", s["status"])
	}
}

// TestOpenRoundsPerValidator: a validator votes in at most
// max_prediction_ahead pending rounds of an EVM chain (46); before the
// chain has a closed block that is what bounds the rounds it can open.
func TestOpenRoundsPerValidator(t *testing.T) {
	g := testGenesis(4)
	g.Chain.MaxPredictionAhead = 2
	n := newNode(t, "", g)
	v := reporter(3)
	ts := blockTime(1).Unix()
	mustOK(t, n.block(v.tx(t, msgTruth(1, 1_000_000, "1", ts)), v.tx(t, msgTruth(1, 2_000_000, "1", ts))))
	refusedAlone(t, n, v.next(msgTruth(1, 3_000_000, "1", ts)), wire.CodeTooManyOpenRounds)
	mustOK(t, n.block(reporter(0).tx(t, msgTruth(1, 3_000_000, "1", ts)))) // others are not affected
}
