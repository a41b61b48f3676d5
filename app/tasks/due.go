package tasks

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/retain"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
)

// SettleDue settles, at their report deadline, the still-pending
// submissions of the tasks due by this height, task by task (in posting
// order) and each task's own submissions in arrival order. Each task and
// each settlement asks the meter first; when it says stop, the task's resume index and the
// rest of the schedule carry to the next block (carried is true). Reports
// for a carried task are refused meanwhile (its deadline has passed).
func SettleDue(env kernel.Env, m *budget.Meter) (evs []abcitypes.Event, carried bool) {
	st, h := env.St, env.Block.Height
	due := store.Due{St: st, Kind: store.DueTasks}
	done, stopped := 0, false
	look := m.Looker(&done, &stopped)
	for {
		it, ok := due.Next(h, look)
		if !ok {
			return evs, stopped
		}
		if !m.EndOpen(done) {
			return evs, true
		}
		done++
		m.ChargeEnd(budget.UnitsDueItem)
		t, _ := st.Task(it.IDs[0])
		for j := it.Resume; j < t.Submissions; j++ {
			// the item's first submission always goes: every block that
			// takes an item makes progress on it
			if j > it.Resume && !m.EndOpen(done) {
				due.Resume(it, j)
				return evs, true
			}
			sid := st.U64(store.KeyTaskSub(t.Id, j))
			sub, _ := st.Submission(sid)
			if sub.RevealHeight > 0 && (!sub.Duplicate || sub.NearCopy) {
				// the task takes no more reveals: its artifact index goes.
				// An exact duplicate's hash is its keeper's entry; a
				// near-copy's hash was its own, and the entry is its own.
				st.Delete(store.KeyTaskArtifact(t.Id, sub.ArtifactHash))
			}
			switch sub.Status {
			case kernel.StatusPending:
				evs = append(evs, settle(env, sub, true)...)
			case kernel.StatusCommitted:
				evs = append(evs, expireUnrevealed(env, sub)...)
			default:
				m.ChargeEnd(budget.UnitsLookup)
				continue
			}
			done++
			m.ChargeEnd(budget.UnitsSettle)
			st.Save(store.KeySubmission(sid), sub)
		}
		due.Done(it)
		retain.Task(st, h, t.Id)
		closeTask(st, env.Chain, t)
	}
}

// expireUnrevealed ends a commit that was never revealed: it counts as no
// submission (nothing enters the miner's window).
func expireUnrevealed(env kernel.Env, sub *subnetv1.Submission) []abcitypes.Event {
	kernel.SetStatus(env.St, sub, kernel.StatusUnrevealed)
	kernel.Attach(sub, &subnetv1.Receipt{Height: env.Block.Height, Track: sub.Track, Status: kernel.StatusUnrevealed,
		Note: "the reveal window closed without a reveal: counts as no submission"})
	return []abcitypes.Event{wire.Event(wire.EventSubmissionExpired, "submission_id", kernel.U64s(sub.Id), "uid", kernel.U64s(uint64(sub.Uid)),
		"status", sub.Status)}
}

// closeTask ends a task's claim on its poster's open tasks and leaves its
// track's count of open tasks.
func closeTask(st store.State, c *kernel.Chain, t *subnetv1.Task) {
	if v := c.FormerValidatorIndex(t.Poster); v >= 0 { // its key may have rotated since
		k := store.KeyOpenTasks(v)
		st.DecU64(k)
	}
	st.DecU64(store.KeyTrackCount(store.TrackOpenTasks, Track(t)))
}
