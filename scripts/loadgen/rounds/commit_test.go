package rounds

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
	"github.com/scoringsubnet/validatord/x/commit"
)

func TestStepAt(t *testing.T) {
	for _, c := range []struct {
		h    int64
		w    window
		want revealStep
	}{
		// a window of one block (reveal_blocks 1): the reveal goes out as soon as it lands in it
		{9, window{10, 10}, stepReveal},
		{8, window{10, 10}, stepWait},
		{10, window{10, 10}, stepMissed},
		// two blocks: no block to spare
		{9, window{10, 11}, stepReveal},
		{10, window{10, 11}, stepReveal},
		{11, window{10, 11}, stepMissed},
		// ten blocks: one block later than the earliest, for a node a block behind
		{9, window{10, 19}, stepWait},
		{10, window{10, 19}, stepReveal},
		{18, window{10, 19}, stepReveal},
		{19, window{10, 19}, stepMissed},
	} {
		if got := stepAt(c.h, c.w); got != c.want {
			t.Errorf("stepAt(%d, %+v) = %d, want %d", c.h, c.w, got, c.want)
		}
	}
}

// TestEvmTime: the round's predictions, committed in blocks whose time is at most the moment
// the round's commits were all seen, count under the truth's timestamp evmTime; the late
// commit, sent lateAfter past it, is late for blocks up to 2 s apart (x/commit's rule).
func TestEvmTime(t *testing.T) {
	const margin = 2
	for _, frac := range []time.Duration{0, 300 * time.Millisecond, 999 * time.Millisecond} {
		done := time.Unix(1_700_000_000, 0).Add(frac)
		ts := evmTime(done, margin)
		for _, bt := range []time.Time{done, done.Add(-time.Second), done.Add(-10 * time.Second)} {
			if !commit.GasCounts(bt.Unix(), ts, margin) {
				t.Errorf("done %v: a commit at block time %d does not count under timestamp %d", done, bt.Unix(), ts)
			}
		}
		sent := time.Unix(ts, 0).Add(lateAfter)
		for _, interval := range []time.Duration{0, 500 * time.Millisecond, 2 * time.Second} {
			bt := sent.Add(-interval)
			if commit.GasCounts(bt.Unix(), ts, margin) {
				t.Errorf("done %v: the late commit at block time %d (blocks %v apart) counts under timestamp %d", done, bt.Unix(), interval, ts)
			}
		}
	}
}

// fakeNode is a client.Node: CheckTx answers the scripted codes (0 past the script), a block
// holds every accepted transaction but the lost ones, with the scripted events.
type fakeNode struct {
	mu      sync.Mutex
	answers []uint32
	events  map[int][]client.Event
	lost    map[int]bool
	sent    []string
}

func (n *fakeNode) NextNonce(context.Context, ed25519.PublicKey) (uint64, error) { return 0, nil }

func (n *fakeNode) Broadcast(_ context.Context, tx []byte) (client.TxResult, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	var code uint32
	if i := len(n.sent); i < len(n.answers) {
		code = n.answers[i]
	}
	res := client.TxResult{Code: code, Hash: client.TxHash(tx)}
	n.sent = append(n.sent, res.Hash)
	if code != wire.CodeOK {
		return res, &client.TxError{Code: code, Result: res}
	}
	return res, nil
}

func (n *fakeNode) WaitTx(_ context.Context, hash string, _ time.Duration) (client.TxResult, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for i, h := range n.sent {
		if h == hash && !n.lost[i] {
			return client.TxResult{Hash: hash, Height: int64(10 + i), Events: n.events[i]}, nil
		}
	}
	return client.TxResult{}, errors.New("not found")
}

func ev(typ string, kv ...string) client.Event {
	e := client.Event{Type: typ}
	for i := 0; i+1 < len(kv); i += 2 {
		e.Attributes = append(e.Attributes, client.Attribute{Key: kv[i], Value: kv[i+1]})
	}
	return e
}

// testGen is a generator at height h, whose task 7 takes reveals in [21, 30] and reports
// until 70, with one miner (uid 3) on node n.
func testGen(t *testing.T, n *fakeNode, h int64) (*generator, *miner) {
	t.Helper()
	rec, err := newRecorder("")
	if err != nil {
		t.Fatal(err)
	}
	g := &generator{o: options{timeout: time.Second}, net: &setup.Testnet{ChainID: "test"}, rec: rec, win: newWindows(nil)}
	g.heights = &heights{h: h, at: time.Now().Add(time.Hour)}
	g.win.tasks[7] = taskHeights{reveal: window{21, 30}, reportDeadline: 70}
	seed := sha256.Sum256([]byte("miner"))
	m := &miner{actor: newActor("miner0", n, "test", ed25519.NewKeyFromSeed(seed[:]), newLimiter(1e6), rec, time.Second), uid: 3, registered: true}
	return g, m
}

// TestCommitThenReveal: a commit is kept with its salt; at a height inside the window the
// revealer first sends the wrong-salt reveal (50, counted) and then the real one, which hands
// the submission to the task's reports (submission ids start at 0) and counts the duplicate
// its block named.
func TestCommitThenReveal(t *testing.T) {
	n := &fakeNode{answers: []uint32{0, wire.CodeRevealMismatch, 0}, events: map[int][]client.Event{
		0: {ev(wire.EventSubmissionAdded, "submission_id", "0")},
		2: {ev(wire.EventSubmissionRevealed, "submission_id", "0"), ev(wire.EventSubmissionDuplicate, "submission_id", "9")},
	}}
	g, m := testGen(t, n, 20)
	task := &taskRun{id: 7, track: genesis.TrackWorkflow}
	c := &commitment{payload: setup.WorkflowPayload(0, 7), track: genesis.TrackWorkflow, task: task, kind: "reveal/workflow", side: sideHonest, wrongSalt: true}
	task.committing()
	sub, err := g.commitTo(context.Background(), m, "commit/workflow", c)
	if err != nil || sub != 0 || len(m.pending()) != 1 {
		t.Fatalf("commit: sub %d, %v, %d pending", sub, err, len(m.pending()))
	}
	g.revealDue(context.Background(), m) // h 20: the window opens at 21, a block later to spare
	if len(n.sent) != 1 {
		t.Fatalf("revealed before the window: %d sends", len(n.sent))
	}
	g.heights.h = 21
	g.revealDue(context.Background(), m)
	if len(n.sent) != 3 || len(m.pending()) != 0 {
		t.Fatalf("%d sends, %d pending", len(n.sent), len(m.pending()))
	}
	subs, open := task.take()
	if open != 0 || len(subs) != 1 || subs[0].id != 0 {
		t.Fatalf("task: open %d, ready %+v", open, subs)
	}
	s := g.rec.stats
	if hc := s.CommitReveal[sideHonest]; hc.Commits != 1 || hc.Reveals != 1 || hc.Unrevealed != 0 {
		t.Fatalf("honest counts %+v", hc)
	}
	if s.Copies == nil || s.Copies.WrongSalt != 1 || s.Copies.WrongSaltRefused != 1 || !g.rec.isDuplicate(9) {
		t.Fatalf("copies %+v, duplicate 9: %v", s.Copies, g.rec.isDuplicate(9))
	}
	if s.Rejected[kindWrongSalt+" code 50"] != 1 || s.Committed["reveal/workflow"] != 1 {
		t.Fatalf("stats %+v", s)
	}
}

// TestRevealOutcomes: a commit whose outcome was unknown is kept and revealed; 48 says it was
// never included (dropped, not unrevealed); a window that passed makes a seen commit
// unrevealed (withheld ones counted apart), and the task stops waiting for either.
func TestRevealOutcomes(t *testing.T) {
	n := &fakeNode{answers: []uint32{0, 0, wire.CodeNoCommit}, lost: map[int]bool{0: true},
		events: map[int][]client.Event{1: {ev(wire.EventSubmissionAdded, "submission_id", "6")}}}
	g, m := testGen(t, n, 20)
	task := &taskRun{id: 7, track: genesis.TrackWorkflow}
	lost := &commitment{payload: setup.WorkflowPayload(0, 7), track: genesis.TrackWorkflow, task: task, kind: "reveal/workflow", side: sideHonest}
	task.committing()
	if _, err := g.commitTo(context.Background(), m, "commit/workflow", lost); !errors.Is(err, errUncertain) {
		t.Fatalf("lost commit: %v", err)
	}
	withheld := &commitment{payload: setup.ArenaPayload(0, 7), track: genesis.TrackArena, kind: "adversary/reveal", side: sideAdversary, withhold: true}
	if sub, err := g.commitTo(context.Background(), m, "adversary/commit", withheld); err != nil || sub != 6 {
		t.Fatalf("withheld commit: %d %v", sub, err)
	}
	if len(m.pending()) != 2 {
		t.Fatalf("%d pending, want both (one of unknown outcome)", len(m.pending()))
	}
	g.heights.h = 25
	g.revealDue(context.Background(), m)
	if len(n.sent) != 3 || len(m.pending()) != 1 {
		t.Fatalf("%d sends, %d pending: want the lost one's reveal refused (48) and the withheld one kept", len(n.sent), len(m.pending()))
	}
	g.heights.h = 30
	g.revealDue(context.Background(), m)
	if len(m.pending()) != 0 || len(n.sent) != 3 {
		t.Fatalf("after the window: %d pending, %d sends", len(m.pending()), len(n.sent))
	}
	if _, open := task.take(); open != 0 {
		t.Fatalf("task still waits for %d commits", open)
	}
	hc, ac := g.rec.stats.CommitReveal[sideHonest], g.rec.stats.CommitReveal[sideAdversary]
	if hc.Commits != 0 || hc.Unrevealed != 0 || ac.Commits != 1 || ac.Unrevealed != 1 || ac.Withheld != 1 {
		t.Fatalf("honest %+v adversary %+v", hc, ac)
	}
}

// TestReadyReports: a task's revealed submissions go to the reports once its reveal window
// has closed (a block to spare), and the task leaves the flight when no commit of it is open,
// or when its report deadline has passed.
func TestReadyReports(t *testing.T) {
	g, _ := testGen(t, &fakeNode{}, 30)
	a := &taskRun{id: 7, track: genesis.TrackWorkflow}
	a.committing()
	a.committing()
	a.add(submission{id: 1})
	g.inflight = []*taskRun{a}
	if got := g.readyReports(context.Background()); len(got) != 0 {
		t.Fatalf("height 30 (the reveal deadline): %+v", got)
	}
	g.heights.h = 31
	a.done()
	if got := g.readyReports(context.Background()); len(got) != 1 || got[0].id != 1 || len(g.inflight) != 1 {
		t.Fatalf("height 31: %+v, %d in flight", got, len(g.inflight))
	}
	a.add(submission{id: 2})
	a.done()
	if got := g.readyReports(context.Background()); len(got) != 1 || got[0].id != 2 || len(g.inflight) != 0 {
		t.Fatalf("the last reveal: %+v, %d in flight", got, len(g.inflight))
	}
	b := &taskRun{id: 7, track: genesis.TrackWorkflow}
	b.committing()
	b.add(submission{id: 3})
	g.inflight = []*taskRun{b}
	g.heights.h = 70
	if got := g.readyReports(context.Background()); len(got) != 0 || len(g.inflight) != 0 {
		t.Fatalf("past the report deadline: %+v, %d in flight", got, len(g.inflight))
	}
}

func TestPrintCommitReveal(t *testing.T) {
	rec, _ := newRecorder("")
	rec.committedTo(sideHonest, 1)
	rec.committedTo(sideAdversary, 2)
	rec.revealed(sideHonest)
	rec.duplicate(2)
	rec.duplicate(2)
	rec.unrevealed(sideAdversary, true)
	rec.copies(func(c *copyCounts) {
		c.Early, c.EarlyDuplicate = 3, 3
		c.AfterReveal, c.AfterRevealRefused["27 submission_deadline"], c.AfterRevealRefused["33 evm_block_closed"] = 4, 3, 1
		c.Late, c.LateFound = 2, 2
	})
	var b bytes.Buffer
	rec.stats.print(&b, time.Minute)
	out := b.String()
	for _, want := range []string{
		"commit-reveal honest:    commits 1, reveals 1, duplicates 0, unrevealed 0\n",
		"commit-reveal adversary: commits 1, reveals 0, duplicates 1, unrevealed 1 (1 withheld)\n",
		"3 of an artifact committed after its owner's commit: 3 duplicate with score 0, 0 kept it",
		"4 commits of an artifact or price after its reveal: 4 refused (27 submission_deadline 3, 33 evm_block_closed 1), 0 accepted",
		"2 gas commits after the EVM block's time: 2 late",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if !strings.HasPrefix(out, "loadgen: 1m0s: sent 0, committed 0") {
		t.Errorf("first line: %s", out)
	}
}
