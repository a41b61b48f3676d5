package rounds

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"iter"
	"slices"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// scriptedNode is a client.Node whose CheckTx answers come from a script, one per
// broadcast, and whose blocks hold the transactions listed in included.
type scriptedNode struct {
	answers  []uint32 // code of each broadcast, in order
	included map[int]bool
	sent     []string // hashes broadcast, in order
	nonceAsk int
}

func (n *scriptedNode) NextNonce(context.Context, ed25519.PublicKey) (uint64, error) {
	n.nonceAsk++
	return 0, nil
}

func (n *scriptedNode) Broadcast(_ context.Context, tx []byte) (client.TxResult, error) {
	code := n.answers[len(n.sent)]
	res := client.TxResult{Code: code, Hash: client.TxHash(tx)}
	n.sent = append(n.sent, res.Hash)
	if code != wire.CodeOK {
		return res, &client.TxError{Code: code, Result: res}
	}
	return res, nil
}

func (n *scriptedNode) WaitTx(_ context.Context, hash string, _ time.Duration) (client.TxResult, error) {
	for i, h := range n.sent {
		if h == hash && n.included[i] {
			return client.TxResult{Hash: hash, Height: int64(10 + i)}, nil
		}
	}
	return client.TxResult{}, errors.New("not found")
}

func newTestBurster(n *scriptedNode) *burster {
	seed := sha256.Sum256([]byte("adversary"))
	rec, _ := newRecorder("")
	return &burster{name: "adversary3", s: client.NewSigner(n, "test", ed25519.NewKeyFromSeed(seed[:])), node: n,
		limit: newLimiter(1e6), rec: rec, wait: time.Second}
}

func truths(n int) iter.Seq[*subnetv1.Msg] {
	msgs := make([]*subnetv1.Msg, n)
	for i := range msgs {
		msgs[i] = client.Truth(1, uint64(100+i), "1", 1)
	}
	return slices.Values(msgs)
}

// TestBurstStopsAtCode: refusals are counted by code and the burst goes on, except at the
// stop code; what was accepted is waited for and recorded.
func TestBurstStopsAtCode(t *testing.T) {
	n := &scriptedNode{answers: []uint32{0, wire.CodeTruthTooFar, 0, wire.CodeTooManyOpenTasks}, included: map[int]bool{0: true, 2: true}}
	b := newTestBurster(n)
	out := b.send(context.Background(), "adversary/x", truths(6), wire.CodeTooManyOpenTasks)
	want := burstOutcome{accepted: 2, committed: 2, refused: 2, stopped: true}
	if out != want {
		t.Fatalf("outcome %+v, want %+v", out, want)
	}
	s := b.rec.stats
	if len(n.sent) != 4 || s.Sent["adversary/x"] != 4 || s.Committed["adversary/x"] != 2 ||
		s.Rejected["adversary/x code 44"] != 1 || s.Rejected["adversary/x code 43"] != 1 || s.Uncertain != 0 {
		t.Fatalf("broadcasts %d, stats %+v", len(n.sent), s)
	}
}

// TestBurstWaitsInNonceOrder: the first accepted transaction not seen in a block ends the
// wait (none after it can be included first); they count as unconfirmed and the nonce is
// read again before the next send.
func TestBurstWaitsInNonceOrder(t *testing.T) {
	n := &scriptedNode{answers: []uint32{0, 0, 0, 0}, included: map[int]bool{0: true, 2: true}}
	b := newTestBurster(n)
	out := b.send(context.Background(), "adversary/x", truths(3), 0)
	if want := (burstOutcome{accepted: 3, committed: 1, unconfirmed: 2}); out != want {
		t.Fatalf("outcome %+v, want %+v", out, want)
	}
	if b.rec.stats.Uncertain != 2 || n.nonceAsk != 1 {
		t.Fatalf("uncertain %d, nonce reads %d", b.rec.stats.Uncertain, n.nonceAsk)
	}
	b.send(context.Background(), "adversary/x", truths(1), 0)
	if n.nonceAsk != 2 {
		t.Fatalf("the nonce was not read again after an unconfirmed burst (%d reads)", n.nonceAsk)
	}
}

// TestHold keeps the workflow and arena submissions handed to the reports (gas predictions
// take no report), with their rounds, and at most maxHeld of them, the newest.
func TestHold(t *testing.T) {
	a := &adversary{}
	a.hold([]submission{{id: 1, track: genesis.TrackWorkflow, round: 1}, {id: 2, track: genesis.TrackGas}, {id: 3, track: genesis.TrackArena, round: 1}})
	if len(a.held) != 2 || a.held[0].id != 1 || a.held[1].id != 3 || a.held[1].round != 1 {
		t.Fatalf("held %+v", a.held)
	}
	many := make([]submission, maxHeld)
	for i := range many {
		many[i] = submission{id: uint64(100 + i), track: genesis.TrackWorkflow, round: 2}
	}
	a.hold(many)
	if len(a.held) != maxHeld || a.held[0].id != 100 {
		t.Fatalf("held %d, first %d", len(a.held), a.held[0].id)
	}
}

func TestParseAdversary(t *testing.T) {
	o, err := parse([]string{"--duration", "90s"})
	if err != nil || o.adv.validator != -1 || o.adv.duration != 90*time.Second {
		t.Fatalf("defaults: %+v %v", o.adv, err)
	}
	o, err = parse([]string{"--adversary", "3", "--adversary-duration", "60s", "--tx-timeout", "5s", "--adversary-lead", "30"})
	if err != nil {
		t.Fatal(err)
	}
	if want := (adversaryOptions{validator: 3, duration: time.Minute, rate: 100, tasks: 200, lead: 30, wait: 5 * time.Second}); o.adv != want {
		t.Fatalf("options %+v, want %+v", o.adv, want)
	}
	for _, bad := range [][]string{{"--adversary", "-2"}, {"--adversary-rate", "0"}, {"--adversary-tasks", "0"}, {"--adversary-lead", "2"}, {"--adversary-duration", "-1s"}} {
		if _, err := parse(bad); err == nil {
			t.Errorf("%v: accepted", bad)
		}
	}
}

// TestStackedTasks: a flood reads the height every few tasks; as long as the stacked
// deadline is ahead, every task aims at it, and an unreadable height ends the flood.
func TestStackedTasks(t *testing.T) {
	h := int64(100)
	a := &adversary{o: adversaryOptions{tasks: 35, lead: 40}, st: genesis.DefaultGenesis(),
		b: &burster{name: "adversary3"}}
	a.height = func(context.Context) (int64, error) {
		h += 2 // the chain moves on while the flood is sent
		if h > 106 {
			return 0, errors.New("no answer")
		}
		return h, nil
	}
	n := 0
	for m := range a.stackedTasks(context.Background()) {
		next := int64(103 + 2*(n/10))
		w := m.GetPostTask().GetWorkflow()
		ar := m.GetPostTask().GetArena()
		const R = 10 // the default reveal window of both task tracks
		if w != nil && next+w.SubmissionBlocks+R+w.ReportBlocks != 143 || ar != nil && next+ar.SubmissionBlocks+R+ar.ReportBlocks != 143 {
			t.Fatalf("task %d does not land on deadline 143: %v", n, m)
		}
		n++
	}
	if n != 30 || a.deadline != 143 {
		t.Fatalf("%d tasks before the height failed, deadline %d; want 30, 143", n, a.deadline)
	}
}
