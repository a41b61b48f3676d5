package tasks

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/track"
	"github.com/scoringsubnet/validatord/x/budget"
)

// SettleDue settles, at their report deadline (this height), every
// still-pending submission of the tasks due now, task by task and in uid
// order. When the meter closes settlement it carries the rest, in order, to
// the front of the next height's due list and reports carried. Reports for
// carried tasks are refused meanwhile (their deadline has passed).
func SettleDue(env track.Env, m *budget.Meter) (evs []abcitypes.Event, carried bool) {
	h := env.Block.Height
	if !env.St.Has(store.KeyDue(h)) {
		return nil, false
	}
	due := env.St.Due(h)
	settled := 0
	for i, id := range due.Tasks {
		from := uint64(0)
		if i == 0 {
			from = due.FirstFrom
		}
		e, stopped, next := settleTask(env, m, id, from, &settled)
		evs = append(evs, e...)
		if stopped {
			carryOver(env.St, due.Tasks[i:], next, h+1)
			return evs, true
		}
	}
	return evs, false
}

// settleTask settles a task's pending submissions from miner index from
// on; stopped and next say where the meter closed settlement.
func settleTask(env track.Env, m *budget.Meter, id, from uint64, settled *int) (evs []abcitypes.Event, stopped bool, next uint64) {
	st := env.St
	miners := uint64(st.Counters().Miners)
	for n := from; n < miners; n++ {
		sid, ok := st.TaskMiner(id, env.Chain.UIDAt(uint32(n)))
		if !ok {
			continue
		}
		sub, _ := st.Submission(sid)
		if sub.Status != track.StatusPending {
			continue
		}
		if !m.SettlementOpen(*settled) {
			return evs, true, n
		}
		*settled++
		evs = append(evs, settle(env, sub, true)...)
		st.Save(store.KeySubmission(sid), sub)
	}
	return evs, false, miners
}

// carryOver puts tasks (the first from miner index from) in front of the
// due list of height.
func carryOver(st store.State, tasks []uint64, from uint64, height int64) {
	next := st.Due(height)
	if len(next.Tasks) > 0 && next.FirstFrom != 0 {
		panic("tasks: a due list with a resume index is never carried onto")
	}
	next.Tasks = append(append([]uint64(nil), tasks...), next.Tasks...)
	next.FirstFrom = from
	st.Save(store.KeyDue(height), next)
}
