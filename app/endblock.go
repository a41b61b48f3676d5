package app

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// endBlock settles what falls due at this height (submissions of tasks whose
// report deadline it is, truth rounds whose deadline it is), scores the
// block's arena batch, and at every EpochBlocks-th height computes an epoch.
func (a *App) endBlock(st state, bs *blockState) []abcitypes.Event {
	var evs []abcitypes.Event
	k := keyDue(bs.height)
	if st.has(k) {
		due := st.due(bs.height)
		settled := 0
		for i, id := range due.Tasks {
			from := uint64(0)
			if i == 0 {
				from = due.FirstFrom
			}
			e, stopped, done := a.settleTask(st, id, from, &settled, bs)
			evs = append(evs, e...)
			if stopped {
				a.carryOver(st, due.Tasks[i:], done, bs.height+1)
				break
			}
		}
		for _, ref := range due.Truths {
			evs = append(evs, a.settleTruthAtDeadline(st, ref, bs)...)
		}
		st.o.del(k)
	}
	evs = append(evs, a.scoreArenaBatch(st, bs)...)
	if bs.height%a.chain.gen.Window.EpochBlocks == 0 {
		evs = append(evs, a.runEpoch(st, bs)...)
	}
	return evs
}

// settleTask settles, at the report deadline, every still-pending
// submission of a task, in uid order from miner index from on. When the
// block's writes pass endBlockSoftLimit (and at least one submission was
// settled in this block, so that settlement always progresses) it stops
// before miner index next and reports stopped.
func (a *App) settleTask(st state, id, from uint64, settled *int, bs *blockState) (evs []abcitypes.Event, stopped bool, next uint64) {
	miners := uint64(st.counters().Miners)
	for n := from; n < miners; n++ {
		sid, ok := st.taskMiner(id, uidAt(uint32(n), a.chain.gen.Window.BurnUID))
		if !ok {
			continue
		}
		sub, _ := st.submission(sid)
		if sub.Status != statusPending {
			continue
		}
		if *settled > 0 && st.o.size > endBlockSoftLimit {
			return evs, true, n
		}
		*settled++
		evs = append(evs, a.settle(st, sub, true, bs)...)
		st.save(keySubmission(sid), sub)
	}
	return evs, false, miners
}

// endBlockSoftLimit: settlements stop when the block has written this much,
// and the rest is carried to the next height, so one block's writes always
// fit in one badger transaction (docs/codes.md, "block bound"). A variable
// only so that a test can provoke the carry-over; nothing else changes it.
var endBlockSoftLimit = 12 << 20

// carryOver puts tasks (the first from miner index from) in front of
// the next height's due list. Their submissions are settled there; reports
// for them are refused meanwhile (their report deadline has passed).
func (a *App) carryOver(st state, tasks []uint64, from uint64, height int64) {
	next := st.due(height)
	if len(next.Tasks) > 0 && next.FirstFrom != 0 {
		panic("app: a due list with a resume index is never carried onto")
	}
	next.Tasks = append(append([]uint64(nil), tasks...), next.Tasks...)
	next.FirstFrom = from
	st.save(keyDue(height), next)
}

// endBlockTruthLimit bounds the block's writes after a truth round settled
// at its deadline. Closing an EVM block writes every open prediction it
// sweeps, which no transaction budget bounds (a close inside a transaction
// is bounded by blockWriteBudget instead). A variable only so that a test
// can provoke it; nothing else changes it.
var endBlockTruthLimit = 16 << 20

// settleTruthAtDeadline settles a still-pending truth round at its deadline
// in a child overlay. When its writes would take the block past
// endBlockTruthLimit the round expires instead and the EVM block stays open,
// so the block always fits one badger transaction.
func (a *App) settleTruthAtDeadline(st state, ref *subnetv1.TruthRef, bs *blockState) []abcitypes.Event {
	k := keyTruth(ref.EvmChainId, ref.EvmBlock)
	child := state{newOverlay(st.o)}
	r, _ := child.truth(ref.EvmChainId, ref.EvmBlock)
	if r.Status != statusPending {
		return nil
	}
	evs := a.settleTruth(child, r, true, bs)
	child.save(k, r)
	if st.o.size+child.o.size <= endBlockTruthLimit {
		child.o.mergeInto(st.o)
		return evs
	}
	r, _ = st.truth(ref.EvmChainId, ref.EvmBlock)
	r.Status, r.ClosedHeight = statusExpired, bs.height
	st.save(k, r)
	return nil
}
