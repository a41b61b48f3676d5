package app

import (
	"context"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"

	abcitypes "github.com/cometbft/cometbft/abci/types"
)

// TestPredictionFloodIsRefused: before an EVM chain's first close no
// prediction commit is taken (code 41), in CheckTx as in a block, so a miner
// cannot open commits for any number of EVM blocks; once validators' truth
// anchors the chain, commits are taken only within max_prediction_ahead (8)
// of the last closed block, and that window moves as soon as a truth is
// final (not at the close that ends the block's reveal window).
func TestPredictionFloodIsRefused(t *testing.T) {
	g := testGenesis(3)
	if g.Chain.MaxPredictionAhead != 8 {
		t.Fatalf("default max_prediction_ahead = %d, want 8", g.Chain.MaxPredictionAhead)
	}
	n := newNode(t, "", g)
	m := newMiner("miner-a", 1)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(m.tx(t, msgRegister())))
	for _, b := range []uint64{1, 100, 1 << 40} {
		tx := crbCommitNext(t, m, gasPayload(1, b, "5"))
		chk, _ := n.app.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: tx})
		res := finalizeOnly(t, n, n.height+1, [][]byte{tx})
		if chk.Code != wire.CodeEVMChainUnanchored || res.TxResults[0].Code != wire.CodeEVMChainUnanchored {
			t.Fatalf("prediction for block %d before the anchor: CheckTx %d, block %d; want 41", b, chk.Code, res.TxResults[0].Code)
		}
	}
	mustOK(t, n.block(anchorTxs(t, r, 1, 99, 1_700_000_001)...))
	expect := func(block uint64, code uint32) {
		t.Helper()
		res := finalizeOnly(t, n, n.height+1, [][]byte{crbCommitNext(t, m, gasPayload(1, block, "5"))})
		if got := res.TxResults[0].Code; got != code {
			t.Fatalf("prediction for block %d: code %d (%s), want %d", block, got, res.TxResults[0].Log, code)
		}
	}
	expect(99, wire.CodeEVMBlockClosed)
	expect(100, wire.CodeOK)
	expect(107, wire.CodeOK)
	expect(108, wire.CodePredictionTooFar)
	// The truth of 103, final in this block, moves the window to 104 … 111
	// at once: block 103's reveal window (the next block) is still to come.
	var txs [][]byte
	for _, v := range r {
		txs = append(txs, v.tx(t, msgTruth(1, 103, "1", 1_700_000_100)))
	}
	resp := n.block(txs...)
	mustOK(t, resp)
	for _, e := range resp.Events {
		if e.Type == wire.EventGasWindowClosed {
			if b, _ := eventAttr([]abcitypes.Event{e}, e.Type, "evm_block"); b == "103" {
				t.Fatal("the truth's own block closed block 103: the close belongs at the end of its reveal window")
			}
		}
	}
	expect(103, wire.CodeEVMBlockClosed)
	expect(111, wire.CodeOK)
	expect(112, wire.CodePredictionTooFar)
	resp = n.block() // the reveal window of 103 (nothing committed), closed at its end
	if b, _ := eventAttr(resp.Events, wire.EventGasWindowClosed, "evm_block"); b != "103" {
		t.Fatalf("the end of 103's reveal window closed %q, want 103", b)
	}
	expect(103, wire.CodeEVMBlockClosed)
	expect(111, wire.CodeOK)
	expect(112, wire.CodePredictionTooFar)
	// 8453 was never anchored.
	res := finalizeOnly(t, n, n.height+1, [][]byte{crbCommitNext(t, m, gasPayload(8453, 1, "5"))})
	if res.TxResults[0].Code != wire.CodeEVMChainUnanchored {
		t.Fatalf("chain 8453: code %d, want 41", res.TxResults[0].Code)
	}
}
