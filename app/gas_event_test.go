package app

import (
	"testing"

	"github.com/scoringsubnet/validatord/app/track"
	"github.com/scoringsubnet/validatord/app/wire"
)

// TestCountedPredictionIsNotScored: a prediction that enters an agent's
// memory before the memory is full has no score ("absent, not 0",
// docs/scoring.md §4 and §6.3): its status is counted and no
// submission_scored event claims a score of 0 for it. The next one, which
// fills the memory of 2, is scored and announced.
func TestCountedPredictionIsNotScored(t *testing.T) {
	n := newNode(t, "", testGenesis(3)) // gas memory 2
	m := newSigner("miner-a")
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(append([][]byte{m.tx(t, msgRegister())}, anchorTxs(t, r, 1, 99, blockTime(1).Unix())...)...))
	mustOK(t, n.block(m.tx(t, msgGas(1, 100, "12"))))
	var txs [][]byte
	for _, v := range r {
		txs = append(txs, v.tx(t, msgTruth(1, 100, "10", blockTime(3).Unix())))
	}
	resp := n.block(txs...)
	mustOK(t, resp)
	if s, _ := n.query("submission/0"); s["status"] != track.StatusCounted {
		t.Fatalf("first prediction = %v, want counted", s["status"])
	}
	if v, ok := eventAttr(resp.TxResults[2].Events, wire.EventSubmissionScored, "score"); ok {
		t.Fatalf("a counted prediction was announced as scored with score %s", v)
	}
	mustOK(t, n.block(m.tx(t, msgGas(1, 101, "10"))))
	txs = nil
	for _, v := range r {
		txs = append(txs, v.tx(t, msgTruth(1, 101, "10", blockTime(5).Unix())))
	}
	resp = n.block(txs...)
	mustOK(t, resp)
	if _, ok := eventAttr(resp.TxResults[2].Events, wire.EventSubmissionScored, "score"); !ok {
		t.Fatalf("the prediction that filled the memory has no submission_scored event: %v", resp.TxResults[2].Events)
	}
}
