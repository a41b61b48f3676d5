package app

import (
	"testing"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
)

// TestCountedPredictionIsNotScored: a prediction that enters an agent's
// memory before the memory is full has no score ("absent, not 0",
// docs/scoring.md §4 and §6.3): its status is counted and no
// submission_scored event claims a score of 0 for it. The next one, which
// fills the memory of 2, is scored and announced. Each is committed, its
// block's truth becomes final, and it is revealed in the one-block reveal
// window, at whose end the close judges it.
func TestCountedPredictionIsNotScored(t *testing.T) {
	n := newNode(t, "", testGenesis(3)) // gas memory 2
	m := newMiner("miner-a", 1)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(append([][]byte{m.tx(t, msgRegister())}, anchorTxs(t, r, 1, 99, blockTime(1).Unix())...)...))
	predict := func(block uint64, price string) []byte {
		t.Helper()
		p := gasPayload(1, block, price)
		mustOK(t, n.block(m.commit(t, p)))
		var txs [][]byte
		for _, v := range r {
			txs = append(txs, v.tx(t, msgTruth(1, block, "10", blockTime(n.height+1).Unix())))
		}
		resp := n.block(txs...)
		mustOK(t, resp)
		if _, ok := eventAttr(resp.TxResults[2].Events, wire.EventGasTruthFinal, "evm_block"); !ok {
			t.Fatalf("the truth of block %d is not final: %v", block, resp.TxResults[2].Events)
		}
		return m.reveal(t, p)
	}
	resp := n.block(predict(100, "12")) // the reveal; the close at the end of this block
	mustOK(t, resp)
	if b, _ := eventAttr(resp.Events, wire.EventGasWindowClosed, "evm_block"); b != "100" {
		t.Fatalf("the reveal block closed %q, want block 100", b)
	}
	if s, _ := n.query("submission/0"); s["status"] != kernel.StatusCounted {
		t.Fatalf("first prediction = %v, want counted", s["status"])
	}
	if v, ok := eventAttr(crbEvents(resp), wire.EventSubmissionScored, "score"); ok {
		t.Fatalf("a counted prediction was announced as scored with score %s", v)
	}
	resp = n.block(predict(101, "10"))
	mustOK(t, resp)
	if s, _ := n.query("submission/1"); s["status"] != kernel.StatusScored {
		t.Fatalf("second prediction = %v, want scored", s["status"])
	}
	if id, ok := eventAttr(resp.Events, wire.EventSubmissionScored, "submission_id"); !ok || id != "1" {
		t.Fatalf("the prediction that filled the memory has no submission_scored event at the close: %v", resp.Events)
	}
}
