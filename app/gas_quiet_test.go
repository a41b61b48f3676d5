package app

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// TestQuietChainCloses: with max_prediction_ahead 8, blocks 1..3 priced,
// then 300 EVM blocks reported empty by every validator, then a priced
// block 304. The chain's last closed block follows every block (before
// empty truths, a truth for block 12 was refused as truth_too_far for
// good); the prediction committed to empty block 4 ends unscored with its
// note; the agent's gas record (memory and history) is unchanged by the
// quiet run; the prediction for block 304 closes into the agent.
func TestQuietChainCloses(t *testing.T) {
	g := testGenesis(3)
	g.Chain.MaxPredictionAhead = 8
	n := newNode(t, "", g)
	m := newMiner("miner-q", 1)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	truths := func(block uint64, price string) [][]byte {
		var txs [][]byte
		for _, v := range r {
			msg := client.EmptyTruth(1, block, blockTime(n.height+1).Unix())
			if price != "" {
				msg = msgTruth(1, block, price, blockTime(n.height+1).Unix())
			}
			txs = append(txs, v.tx(t, msg))
		}
		return txs
	}
	mustOK(t, n.block(append([][]byte{m.tx(t, msgRegister())}, truths(1, "10")...)...))
	p2 := gasPayload(1, 2, "10")
	mustOK(t, n.block(m.commit(t, p2)))
	mustOK(t, n.block(truths(2, "10")...))
	mustOK(t, n.block(m.reveal(t, p2))) // block 2 closes into the agent
	p4 := gasPayload(1, 4, "10")
	mustOK(t, n.block(append(truths(3, "10"), m.commit(t, p4))...))
	mustOK(t, n.block()) // block 3 closes into the agent at the end of its reveal window
	before, _ := n.query("gas/1/1")
	for first := uint64(4); first <= 303; first += 30 {
		var txs [][]byte
		for b := first; b < first+30 && b <= 303; b++ {
			txs = append(txs, truths(b, "")...)
		}
		mustOK(t, n.block(txs...))
		gc, _ := n.query("gaschain/1")
		if want := fmt.Sprint(min(first+29, 303)); fmt.Sprint(gc["last_closed_block"]) != want {
			t.Fatalf("after the empty truths from %d: last_closed_block %v, want %s", first, gc["last_closed_block"], want)
		}
	}
	if s, _ := n.query("submission/1"); s["status"] != kernel.StatusUnscored {
		t.Fatalf("the prediction for empty block 4: %v, want unscored", s)
	}
	if s, _ := n.query("submission/1"); !containsNote(s, "the EVM block had no priced transaction: nothing to predict") {
		t.Fatalf("the prediction for empty block 4 lacks its note: %v", s)
	}
	if after, _ := n.query("gas/1/1"); !reflect.DeepEqual(before, after) {
		t.Fatalf("the quiet run changed the agent:\nbefore %v\nafter  %v", before, after)
	}
	p304 := gasPayload(1, 304, "10")
	mustOK(t, n.block(m.commit(t, p304)))
	resp := n.block(truths(304, "10")...)
	mustOK(t, resp)
	if _, ok := eventAttr(resp.TxResults[2].Events, wire.EventGasTruthFinal, "min_price"); !ok {
		t.Fatalf("the priced block after the quiet run is not final: %v", resp.TxResults)
	}
	resp = n.block(m.reveal(t, p304))
	mustOK(t, resp)
	if b, _ := eventAttr(resp.Events, wire.EventGasWindowClosed, "evm_block"); b != "304" {
		t.Fatalf("the reveal block closed %q, want block 304", b)
	}
	if s, _ := n.query("submission/2"); s["status"] != kernel.StatusScored {
		t.Fatalf("the prediction for block 304: %v, want scored (memory of 2 full)", s["status"])
	}
}

// containsNote reports whether a submission answer carries note in some
// receipt.
func containsNote(s map[string]any, note string) bool {
	return strings.Contains(fmt.Sprint(s), note)
}

// TestEmptyTruthMinority: with 4 validators of equal power, one (25%)
// cannot make a priced block empty, nor price an empty block.
func TestEmptyTruthMinority(t *testing.T) {
	n := newNode(t, "", testGenesis(4))
	r := []*signer{reporter(0), reporter(1), reporter(2), reporter(3)}
	ts := func() int64 { return blockTime(n.height + 1).Unix() }
	mustOK(t, n.block(anchorTxs(t, r[:3], 1, 1, ts())...))
	mustOK(t, n.block(r[0].tx(t, client.EmptyTruth(1, 2, ts())), r[1].tx(t, msgTruth(1, 2, "10", ts())), r[2].tx(t, msgTruth(1, 2, "10", ts()))))
	if tr, _ := n.query("truth/1/2"); tr["status"] != kernel.StatusFinal || tr["min_price"] != "10.000000000000000000" || tr["empty"] != nil {
		t.Fatalf("a minority's empty vote on a priced block: %v, want final at 10", tr)
	}
	mustOK(t, n.block(r[0].tx(t, msgTruth(1, 3, "10", ts())), r[1].tx(t, client.EmptyTruth(1, 3, ts())), r[2].tx(t, client.EmptyTruth(1, 3, ts()))))
	if tr, _ := n.query("truth/1/3"); tr["status"] != kernel.StatusFinal || tr["empty"] != true || tr["min_price"] != nil {
		t.Fatalf("a minority's price on an empty block: %v, want final and empty", tr)
	}
	if gc, _ := n.query("gaschain/1"); fmt.Sprint(gc["last_closed_block"]) != "3" || gc["last_min_price"] != "10.000000000000000000" {
		t.Fatalf("gaschain after the empty block 3: %v", gc)
	}
}

// TestEmptyTruthWithPriceRefused: an empty truth carries no price.
func TestEmptyTruthWithPriceRefused(t *testing.T) {
	n := newNode(t, "", testGenesis(3))
	resp := n.block(reporter(0).tx(t, emptyTruthPriced(1, 5, blockTime(1).Unix())))
	if c := resp.TxResults[0].Code; c != wire.CodeEmptyTruthPriced {
		t.Fatalf("code %d (%s), want %d", c, resp.TxResults[0].Log, wire.CodeEmptyTruthPriced)
	}
}

// TestQuietChainNoDeadlock: after block 1 closes, EVM blocks 2..10 hold no
// priced transaction. Without a truth for them a truth for block 11 is
// refused as truth_too_far (the deadlock); with their empty truths it
// closes.
func TestQuietChainNoDeadlock(t *testing.T) {
	g := testGenesis(3)
	g.Chain.MaxPredictionAhead = 8
	n := newNode(t, "", g)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	ts := func() int64 { return blockTime(n.height + 1).Unix() }
	mustOK(t, n.block(anchorTxs(t, r, 1, 1, ts())...))
	var txs [][]byte
	for b := uint64(2); b <= 10; b++ {
		for _, v := range r {
			txs = append(txs, v.tx(t, client.EmptyTruth(1, b, ts())))
		}
	}
	n.block(txs...)
	mustOK(t, n.block(anchorTxs(t, r, 1, 11, ts())...))
	if gc, _ := n.query("gaschain/1"); fmt.Sprint(gc["last_closed_block"]) != "11" {
		t.Fatalf("gaschain after the quiet run and block 11: %v", gc)
	}
}

// TestEmptyTruthMinorityAtDeadline: with 5 validators of equal power,
// three report (60%: enough at the deadline, not early); one of them (20%)
// cannot make a priced block empty, nor price an empty block.
func TestEmptyTruthMinorityAtDeadline(t *testing.T) {
	g := testGenesis(5)
	n := newNode(t, "", g)
	r := []*signer{reporter(0), reporter(1), reporter(2), reporter(3), reporter(4)}
	ts := func() int64 { return blockTime(n.height + 1).Unix() }
	mustOK(t, n.block(anchorTxs(t, r[:4], 1, 1, ts())...))
	mustOK(t, n.block(r[0].tx(t, client.EmptyTruth(1, 2, ts())), r[1].tx(t, msgTruth(1, 2, "10", ts())), r[2].tx(t, msgTruth(1, 2, "10", ts())),
		r[0].tx(t, msgTruth(1, 3, "10", ts())), r[1].tx(t, client.EmptyTruth(1, 3, ts())), r[2].tx(t, client.EmptyTruth(1, 3, ts()))))
	if tr, _ := n.query("truth/1/2"); tr["status"] != kernel.StatusPending {
		t.Fatalf("60%% reported: %v, want pending until the deadline", tr["status"])
	}
	for i := int64(0); i <= g.Chain.TruthReportBlocks; i++ {
		mustOK(t, n.block())
	}
	if tr, _ := n.query("truth/1/2"); tr["status"] != kernel.StatusFinal || tr["min_price"] != "10.000000000000000000" || tr["empty"] != nil {
		t.Fatalf("a minority's empty vote on a priced block at the deadline: %v, want final at 10", tr)
	}
	if tr, _ := n.query("truth/1/3"); tr["status"] != kernel.StatusFinal || tr["empty"] != true {
		t.Fatalf("a minority's price on an empty block at the deadline: %v, want final and empty", tr)
	}
	if gc, _ := n.query("gaschain/1"); fmt.Sprint(gc["last_closed_block"]) != "3" {
		t.Fatalf("gaschain after the deadline: %v", gc)
	}
}

// emptyTruthPriced is an empty truth that also carries a price (refused).
func emptyTruthPriced(chain, block uint64, ts int64) *subnetv1.Msg {
	msg := client.EmptyTruth(chain, block, ts)
	msg.GetTruth().MinPrice = "10"
	return msg
}
