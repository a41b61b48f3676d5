package retain

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/x/budget"
)

// Entry tags: the first id of a DueRetire entry says what it retires.
const (
	tagTask  uint64 = 1 // (tag, task id, first submission index not yet retired)
	tagRound uint64 = 2 // (tag, EVM chain id, EVM block, submission ids…)
	tagEpoch uint64 = 3 // (tag, epoch number)
)

func schedule(st store.State) store.Due { return store.Due{St: st, Kind: store.DueRetire} }

// Task schedules task id, whose settlement is done at height h.
func Task(st store.State, h int64, id uint64) { schedule(st).Add(h, tagTask, id, 0) }

// Round schedules the truth round of (chain, block), ended at height h,
// and the gas submissions subs (those its close judged; none for a round
// that ended expired).
func Round(st store.State, h int64, chain, block uint64, subs []uint64) {
	schedule(st).Add(h, append([]uint64{tagRound, chain, block}, subs...)...)
}

// Epoch schedules epoch n, written at height h.
func Epoch(st store.State, h int64, n uint64) { schedule(st).Add(h, tagEpoch, n) }

// counts is what one block retired (the state_retired event).
type counts struct{ tasks, submissions, rounds, epochs uint64 }

func (c counts) events() []abcitypes.Event {
	if c == (counts{}) {
		return nil
	}
	return []abcitypes.Event{wire.Event(wire.EventStateRetired, "tasks", kernel.U64s(c.tasks), "submissions", kernel.U64s(c.submissions),
		"truth_rounds", kernel.U64s(c.rounds), "epochs", kernel.U64s(c.epochs))}
}

// run is one block's retention: the meter, the schedule and the tally.
type run struct {
	env  kernel.Env
	m    *budget.Meter
	due  store.Due
	done int
	n    counts
}

// Due deletes the items scheduled at or before the height
// chain.retain_state_blocks (in force now) below this block, in schedule
// order, asking the meter before each record; it returns carried when the
// budget stopped it with items due. retain_state_blocks 0 retires nothing.
func Due(env kernel.Env, m *budget.Meter) (evs []abcitypes.Event, carried bool) {
	r := env.Chain.Gen.Chain.RetainStateBlocks
	if r <= 0 || env.Block.Height <= r {
		return nil, false
	}
	x := &run{env: env, m: m, due: schedule(env.St)}
	stopped := false
	look := m.Looker(&x.done, &stopped)
	for {
		it, ok := x.due.Next(env.Block.Height-r, look)
		if !ok {
			return x.n.events(), stopped
		}
		if !m.EndOpen(x.done) {
			return x.n.events(), true
		}
		x.done++
		m.ChargeEnd(budget.UnitsDueItem)
		var finished bool
		switch it.IDs[0] {
		case tagTask:
			finished = x.task(it)
		case tagRound:
			finished = x.round(it)
		case tagEpoch:
			finished = x.epoch(it)
		default:
			panic("retain: unknown entry tag")
		}
		if !finished {
			return x.n.events(), true
		}
	}
}

// more reports whether the item may take one more record after its first
// (every block that takes an item makes progress on it).
func (x *run) more(first bool) bool { return first || x.m.EndOpen(x.done) }

// charge counts one deleted record.
func (x *run) charge() {
	x.done++
	x.m.ChargeEnd(budget.UnitsRetire)
}

// del deletes k if it is stored (a deletion of an absent key would still
// count against the block's writes).
func (x *run) del(k []byte) {
	if x.env.St.Has(k) {
		x.env.St.Delete(k)
	}
}

// task retires a settled task: each submission (record, task_miner,
// task_sub, task_artifact), then the task and its arena baseline, which
// only its own submissions ever read. A submission that still waits for
// arena scoring (final, its DueArena entry carried) puts the rest of the
// task back in the schedule at this height; nothing is lost, it waits
// retain_state_blocks more. It returns false when the meter stopped it
// (the resume index is recorded).
func (x *run) task(it store.DueItem) bool {
	st, h := x.env.St, x.env.Block.Height
	t, ok := st.Task(it.IDs[1])
	if !ok {
		x.due.Done(it)
		return true
	}
	start := max(it.Resume, it.IDs[2])
	for j := start; j < t.Submissions; j++ {
		if !x.more(j == start) {
			x.due.Resume(it, j)
			return false
		}
		kts := store.KeyTaskSub(t.Id, j)
		sid := st.U64(kts)
		sub, _ := st.Submission(sid)
		if waiting(sub.Status) {
			x.due.Done(it)
			x.due.Add(h, tagTask, t.Id, j)
			return true
		}
		x.del(store.KeySubmission(sid))
		x.del(store.KeyMinerSub(sub.Uid, sid))
		x.del(store.KeyTaskMiner(t.Id, sub.Uid))
		x.del(kts)
		if len(sub.ArtifactHash) > 0 {
			x.del(store.KeyTaskArtifact(t.Id, sub.ArtifactHash))
		}
		x.n.submissions++
		x.charge()
	}
	x.del(store.KeyTask(t.Id))
	x.del(store.KeyBaseline(t.Id))
	x.n.tasks++
	x.due.Done(it)
	return true
}

// waiting: a status some step of the chain will still change.
func waiting(status string) bool {
	return status == kernel.StatusFinal || status == kernel.StatusPending || status == kernel.StatusCommitted
}

// round retires a truth round and the gas submissions its entry lists.
func (x *run) round(it store.DueItem) bool {
	subs := it.IDs[3:]
	for j := it.Resume; j < uint64(len(subs)); j++ {
		if !x.more(j == it.Resume) {
			x.due.Resume(it, j)
			return false
		}
		if sub, ok := x.env.St.Submission(subs[j]); ok {
			x.del(store.KeyMinerSub(sub.Uid, subs[j]))
		}
		x.del(store.KeySubmission(subs[j]))
		x.n.submissions++
		x.charge()
	}
	k := store.KeyTruth(it.IDs[1], it.IDs[2])
	if x.env.St.Has(k) {
		x.env.St.Delete(k)
		x.n.rounds++
	}
	x.due.Done(it)
	return true
}

// epoch retires an epoch, never the latest: epoch/latest always answers
// (an epoch skipped by its computation leaves the previous one latest; it
// is put back and retired once a later one exists).
func (x *run) epoch(it store.DueItem) bool {
	st, n := x.env.St, it.IDs[1]
	x.due.Done(it)
	if n >= st.Counters().Epochs {
		x.due.Add(x.env.Block.Height, tagEpoch, n)
		return true
	}
	x.del(store.KeyEpoch(n))
	x.n.epochs++
	x.charge()
	return true
}
