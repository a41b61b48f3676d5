package app

import (
	"context"
	"fmt"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

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
