package app

import (
	"context"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"

	abcitypes "github.com/cometbft/cometbft/abci/types"
)

// TestPredictionFloodIsRefused: before an EVM chain's first close no
// prediction is taken (code 41), in CheckTx as in a block, so a miner cannot
// open predictions for any number of EVM blocks; once validators' truth
// anchors the chain, predictions are taken only within max_prediction_ahead
// (8) of the last closed block, and that window moves with every close.
func TestPredictionFloodIsRefused(t *testing.T) {
	g := testGenesis(3)
	if g.Chain.MaxPredictionAhead != 8 {
		t.Fatalf("default max_prediction_ahead = %d, want 8", g.Chain.MaxPredictionAhead)
	}
	n := newNode(t, "", g)
	m := newSigner("miner-a")
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(m.tx(t, msgRegister())))
	for _, b := range []uint64{1, 100, 1 << 40} {
		tx := m.next(msgGas(1, b, "5"))
		chk, _ := n.app.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: tx})
		res := finalizeOnly(t, n, n.height+1, [][]byte{tx})
		if chk.Code != wire.CodeEVMChainUnanchored || res.TxResults[0].Code != wire.CodeEVMChainUnanchored {
			t.Fatalf("prediction for block %d before the anchor: CheckTx %d, block %d; want 41", b, chk.Code, res.TxResults[0].Code)
		}
	}
	mustOK(t, n.block(anchorTxs(t, r, 1, 99, 1_700_000_001)...))
	expect := func(block uint64, code uint32) {
		t.Helper()
		res := finalizeOnly(t, n, n.height+1, [][]byte{m.next(msgGas(1, block, "5"))})
		if got := res.TxResults[0].Code; got != code {
			t.Fatalf("prediction for block %d: code %d (%s), want %d", block, got, res.TxResults[0].Log, code)
		}
	}
	expect(99, wire.CodeEVMBlockClosed)
	expect(100, wire.CodeOK)
	expect(107, wire.CodeOK)
	expect(108, wire.CodePredictionTooFar)
	// The truth of 103 moves the window to 104 … 111.
	var txs [][]byte
	for _, v := range r {
		txs = append(txs, v.tx(t, msgTruth(1, 103, "1", 1_700_000_100)))
	}
	mustOK(t, n.block(txs...))
	expect(103, wire.CodeEVMBlockClosed)
	expect(111, wire.CodeOK)
	expect(112, wire.CodePredictionTooFar)
	// 8453 was never anchored.
	res := finalizeOnly(t, n, n.height+1, [][]byte{m.next(msgGas(8453, 1, "5"))})
	if res.TxResults[0].Code != wire.CodeEVMChainUnanchored {
		t.Fatalf("chain 8453: code %d, want 41", res.TxResults[0].Code)
	}
}
