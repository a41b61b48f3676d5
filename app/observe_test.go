package app

import (
	"context"
	"fmt"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/x/budget"
)

// TestObserveCarryOver: with an end of block of 1 byte the settlement of a
// task's 3 submissions is carried one per block (as TestSettlementCarryOver
// shows); PendingWork names the carrying step between FinalizeBlock and
// Commit, Backlog counts the task still due after each Commit (the task is
// one entry of the tasks schedule), and a limit of 0 reports Capped. None of
// it changes the app hash: a twin chain that never observes ends equal.
func TestObserveCarryOver(t *testing.T) {
	run := func(observe bool) []byte {
		n := carriedSettlement(t)
		if observe {
			if _, ok := n.app.PendingWork(); ok {
				t.Fatal("PendingWork after Commit")
			}
			if _, qs := n.app.Backlog(10); len(qs) != len(DueQueues) || qs[0].Items != 0 {
				t.Fatalf("backlog before the deadline: %+v", qs)
			}
		}
		ctx := context.Background()
		for i, want := range []struct {
			carried bool
			items   int
		}{{true, 1}, {true, 1}, {false, 0}} { // h4, h5 carry; h6 settles the last
			h := n.height + 1
			if _, err := n.app.FinalizeBlock(ctx, &abcitypes.RequestFinalizeBlock{Height: h, Time: blockTime(h), Hash: []byte(fmt.Sprintf("block-%d", h))}); err != nil {
				t.Fatal(err)
			}
			if observe {
				w, ok := n.app.PendingWork()
				carried := len(w.Carried) == 1 && w.Carried[0] == "settle_tasks"
				if !ok || w.Height != h || carried != want.carried || w.EndWorkLimit != budget.DefaultLimits().EndWork || w.EndWork <= 0 {
					t.Fatalf("block %d: PendingWork %+v %v, want carried %v", i, w, ok, want.carried)
				}
			}
			if _, err := n.app.Commit(ctx, &abcitypes.RequestCommit{}); err != nil {
				t.Fatal(err)
			}
			n.height = h
			if observe {
				height, qs := n.app.Backlog(10)
				if height != h || qs[0].Name != "tasks" || qs[0].Items != want.items || (want.items > 0 && qs[0].Oldest != 4) || qs[0].Capped {
					t.Fatalf("block %d: backlog %+v at %d, want %d tasks", i, qs, height, want.items)
				}
				if want.items > 0 {
					if _, qs := n.app.Backlog(0); !qs[0].Capped {
						t.Fatalf("limit 0: %+v, want capped", qs[0])
					}
				}
			}
		}
		return n.app.AppHash()
	}
	if a, b := run(true), run(false); string(a) != string(b) {
		t.Fatalf("observing changed the app hash: %x vs %x", a, b)
	}
}

// TestCountsFollowTheState: Counts reads the uids held (handed out less
// freed) and the open tasks from the committed state: a registration adds a
// uid, a deregistration frees it, a registration takes it back, and a
// posted task is open until its settlement.
func TestCountsFollowTheState(t *testing.T) {
	g := testGenesis(4)
	g.Chain.MaxUIDs, g.Chain.MaxSubmissionBlocks, g.Chain.MaxReportBlocks = 2, 10, 10
	g.Membership = testMembership(2)
	n := newNode(t, "", g)
	want := func(uids, open uint64) {
		t.Helper()
		c, ok := n.app.Counts()
		if !ok || c.UIDs != uids || c.OpenTasks != open || c.Height != n.height {
			t.Fatalf("counts %+v (ok %v) at height %d, want %d uids, %d open tasks", c, ok, n.height, uids, open)
		}
	}
	want(0, 0)
	a, b, c := newMiner("miner-a", 1), newMiner("miner-b", 2), newMiner("miner-c", 1)
	mustOK(t, n.block(a.tx(t, msgRegister()), b.tx(t, msgRegister()), reporter(0).tx(t, msgWorkflowTask(4, 2, 10))))
	want(2, 1)
	mustOK(t, n.block(a.tx(t, client.DeregisterMiner())))
	want(1, 1)
	mustOK(t, n.block(c.tx(t, msgRegister())))
	want(2, 1)
	for range 30 { // past the task's report deadline: settled, no longer open
		mustOK(t, n.block())
	}
	want(2, 0)
}

// TestTrackCountsFollowTheState: the per-track counts follow each task and
// commit through its life. A posted task is open on its track until its
// settlement; a commit awaits its reveal until the reveal comes or the chain
// closes its window (unrevealed). On the gas track a prediction awaits its
// reveal until it is revealed or swept unrevealed at the close. Each count
// equals what a scan of the state finds (committedByTrack), and every count is
// back at 0 once every deadline has passed.
func TestTrackCountsFollowTheState(t *testing.T) {
	g := testGenesis(3)
	n := newNode(t, "", g)
	a, b := newMiner("miner-a", 1), newMiner("miner-b", 2)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	want := func(step string, tracks map[string][2]uint64) {
		t.Helper()
		c, ok := n.app.Counts()
		if !ok || len(c.Tracks) != len(g.Tracks) {
			t.Fatalf("%s: counts %+v (ok %v), want one entry per genesis track", step, c, ok)
		}
		if ans, code := n.query("counts"); code != 0 || fmt.Sprint(ans["tracks"]) != fmt.Sprint(countsJSON(c.Tracks)) {
			t.Fatalf("%s: the counts query answers %v (code %d), Counts %+v", step, ans, code, c.Tracks)
		}
		scan := committedByTrack(t, n)
		for i, tc := range c.Tracks {
			w := tracks[tc.Track]
			if tc.Track != g.Tracks[i].Name || tc.OpenTasks != w[0] || tc.AwaitingReveal != w[1] {
				t.Errorf("%s: track %s counts %d open tasks, %d awaiting reveal; want %d, %d", step, tc.Track, tc.OpenTasks, tc.AwaitingReveal, w[0], w[1])
			}
			if tc.AwaitingReveal != scan[tc.Track] {
				t.Errorf("%s: track %s counts %d awaiting reveal, the state holds %d committed submissions", step, tc.Track, tc.AwaitingReveal, scan[tc.Track])
			}
		}
	}
	want("genesis", nil)
	mustOK(t, n.block(append([][]byte{a.tx(t, msgRegister()), b.tx(t, msgRegister()),
		r[0].tx(t, msgWorkflowTask(4, 2, 10)), r[1].tx(t, msgWorkflowTask(4, 2, 10)), r[2].tx(t, msgArenaTask(3, 2, 10))},
		anchorTxs(t, r, 1, 99, 1_700_000_001)...)...)) // tasks 0, 1 workflow, 2 arena
	want("posted", map[string][2]uint64{"workflow": {2, 0}, "arena": {1, 0}})
	wa, wb, ar := wfPayloadOf(a, 0), wfPayloadOf(b, 0), arenaPayloadOf(a, 2)
	pa, pb := gasPayload(1, 100, "12"), gasPayload(1, 100, "9")
	mustOK(t, n.block(a.commit(t, wa), b.commit(t, wb), a.commit(t, ar), a.commit(t, pa), b.commit(t, pb)))
	want("committed", map[string][2]uint64{"workflow": {2, 2}, "arena": {1, 1}, "gas": {0, 2}})
	for n.height < 3 { // past the submit deadline: the reveal window opens
		mustOK(t, n.block())
	}
	mustOK(t, n.block(a.reveal(t, wa), a.reveal(t, ar))) // b never reveals its workflow commit
	want("revealed", map[string][2]uint64{"workflow": {2, 1}, "arena": {1, 0}, "gas": {0, 2}})
	txs := [][]byte{}
	for _, v := range r {
		txs = append(txs, v.tx(t, msgTruth(1, 100, "10", 1_700_000_015)))
	}
	mustOK(t, n.block(txs...)) // the truth is final: the gas reveal window is the next block
	mustOK(t, n.block(a.reveal(t, pa)))
	c, _ := n.app.Counts()
	if gas := c.Tracks[2]; gas.Track != "gas" || gas.AwaitingReveal != 0 {
		t.Fatalf("after the gas close: %+v, want b's prediction swept unrevealed (0 awaiting)", gas)
	}
	for range 30 { // past every report deadline: settled, none open, none awaiting
		mustOK(t, n.block())
	}
	want("settled", nil)
	if s, _ := n.query("submission/1"); s["status"] != kernel.StatusUnrevealed {
		t.Fatalf("b's workflow commit = %v, want unrevealed", s)
	}
}

// committedByTrack scans the committed state's submissions: the number in
// status committed, by track.
func committedByTrack(t *testing.T, n *node) map[string]uint64 {
	t.Helper()
	out := map[string]uint64{}
	for id := uint64(0); ; id++ {
		s, code := n.query(fmt.Sprintf("submission/%d", id))
		if code != 0 {
			return out
		}
		if s["status"] == kernel.StatusCommitted {
			out[s["track"].(string)]++
		}
	}
}

// countsJSON is tracks as the counts query's JSON decodes into a map.
func countsJSON(tracks []wire.TrackCountView) []any {
	out := []any{}
	for _, tc := range tracks {
		out = append(out, map[string]any{"track": tc.Track, "open_tasks": float64(tc.OpenTasks), "awaiting_reveal": float64(tc.AwaitingReveal)})
	}
	return out
}
