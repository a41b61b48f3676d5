package gas

import (
	"slices"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/retain"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
)

// pauseNote is the receipt note of a prediction a pause ended.
const pauseNote = "the EVM chain is paused by governance"

// Transition prepares the EVM chains whose pause or resume comes into force
// at the next height (params next, in force from env.Block.Height + 1; the
// params in force now are env.Chain.Gen). A chain paused next gets its
// pause height recorded and a DueGasPause entry at that height, whose
// sweep (SettleDueTruths) ends its open predictions and drops its open
// rounds, metered like any close. A chain resumed next is closed up to the
// window before its resume_block, at once, so that the first block of the
// next height already takes the truth and commits of resume_block; the
// jump only goes forward. Nothing of the EVM blocks in between is owed.
func Transition(env kernel.Env, m *budget.Meter, next genesis.ChainParams) []abcitypes.Event {
	st, cur, from := env.St, env.Chain.Gen.Chain, env.Block.Height+1
	var evs []abcitypes.Event
	for _, p := range next.GasPaused {
		m.ChargeEnd(budget.UnitsDueItem)
		was := cur.IsGasPaused(p.EvmChainID)
		switch {
		case p.ResumeBlock == 0 && !was:
			st.SetU64(store.KeyGasPausedAt(p.EvmChainID), uint64(from))
			store.Due{St: st, Kind: store.DueGasPause}.Add(from, p.EvmChainID)
		case p.ResumeBlock > 0 && was:
			evs = append(evs, resume(env, p, next.WindowBlocks(p.EvmChainID), from))
		}
	}
	return evs
}

// resume closes the chain up to the window before p.ResumeBlock (a
// multiple of k), unless it is closed further already. A chain never
// anchored is anchored there: its predictions open with the resume, as
// after any first close.
func resume(env kernel.Env, p genesis.GasPause, k uint64, from int64) abcitypes.Event {
	gc := env.St.GasChain(p.EvmChainID)
	if floor := p.ResumeBlock - k; !gc.HasClosed || floor > gc.LastClosedBlock {
		gc.LastClosedBlock, gc.HasClosed = floor, true
		env.St.Save(store.KeyGasChain(gc.EvmChainId), gc)
	}
	return wire.Event(wire.EventGasChainResumed, "evm_chain_id", kernel.U64s(p.EvmChainID), "resume_block", kernel.U64s(p.ResumeBlock),
		"last_closed_block", kernel.U64s(gc.LastClosedBlock), "from_height", kernel.I64s(from))
}

// pauseItem runs one DueGasPause entry: every open block of the chain, in
// order, each in a child overlay that must fit the block (after the step's
// first item), its predictions ended unscored; then the chain's pending
// truth rounds within reach dropped, and the gas_chain_paused event. It
// returns carried when the block's budget stopped it; the resume index
// keeps the count of predictions ended so far. A chain resumed before its
// sweep ran is left as it is: the next close after the resume sweeps what
// is left, as any close sweeps the open blocks below it.
func pauseItem(env kernel.Env, m *budget.Meter, due store.Due, it store.DueItem, done *int) (evs []abcitypes.Event, carried bool) {
	chain := it.IDs[0]
	if !env.Chain.Gen.Chain.IsGasPaused(chain) {
		due.Done(it)
		return nil, false
	}
	ended := it.Resume
	for {
		gc := env.St.GasChain(chain)
		if len(gc.OpenBlocks) == 0 {
			break
		}
		if !m.EndOpen(*done) {
			due.Resume(it, ended)
			return nil, true
		}
		child := env
		child.St = store.State{O: store.NewOverlay(env.St.O)}
		child.Charge = m.ChargeEnd
		n := endOpenBlock(child, gc, 0)
		if *done > 0 && !m.EndFits(child.St.O.Size()) {
			due.Resume(it, ended)
			return nil, true
		}
		child.St.O.MergeInto(env.St.O)
		ended += n
		*done++
	}
	dropped := dropPendingRounds(env, chain)
	due.Done(it)
	*done++
	return []abcitypes.Event{wire.Event(wire.EventGasChainPaused, "evm_chain_id", kernel.U64s(chain),
		"unscored_predictions", kernel.U64s(ended), "dropped_rounds", kernel.U64s(dropped))}, false
}

// endOpenBlock ends the predictions of gc's i-th open block unscored
// (the pause note), takes the block out of the open ones and schedules
// the block's round, if any, and the swept submissions for retention; it
// returns how many it ended. At most max_uids predictions: less than one
// close writes.
func endOpenBlock(env kernel.Env, gc *subnetv1.GasChain, i int) uint64 {
	st, b := env.St, gc.OpenBlocks[i]
	var swept []uint64
	for _, p := range st.Predictions(gc.EvmChainId, b).Items {
		env.ChargeWork(budget.UnitsLookup)
		swept = append(swept, p.SubmissionId)
		markPrediction(env, p.SubmissionId, kernel.StatusUnscored, pauseNote)
	}
	st.Delete(store.KeyPredictionSet(gc.EvmChainId, b))
	gc.OpenBlocks = append(gc.OpenBlocks[:i:i], gc.OpenBlocks[i+1:]...)
	st.Save(store.KeyGasChain(gc.EvmChainId), gc)
	retain.Round(st, env.Block.Height, gc.EvmChainId, b, swept)
	return uint64(len(swept))
}

// dropPendingRounds drops the chain's pending truth rounds within reach of
// its last closed block (the only blocks a truth could open a round for,
// once the chain is anchored): at most max_prediction_ahead / k lookups.
// A round of a chain not anchored, or any other still pending, is dropped
// at its deadline (settleDue): no vote can join it while the chain is
// paused.
func dropPendingRounds(env kernel.Env, chain uint64) uint64 {
	gc := env.St.GasChain(chain)
	if !gc.HasClosed {
		return 0
	}
	k, ahead := env.Chain.Gen.Chain.WindowBlocks(chain), env.Chain.Gen.Chain.MaxPredictionAhead
	var dropped uint64
	for b := gc.LastClosedBlock + k; b <= gc.LastClosedBlock+ahead; b += k {
		env.ChargeWork(budget.UnitsLookup)
		if r, ok := env.St.Truth(chain, b); ok && r.Status == kernel.StatusPending {
			dropRound(env, r)
			dropped++
		}
	}
	return dropped
}

// dropRound takes a pending round out: its voters' open-round counts go
// down and the round goes, as a round dropped at its deadline.
func dropRound(env kernel.Env, r *subnetv1.TruthRound) {
	endRound(env, r, "", nil)
	env.St.Delete(store.KeyTruth(r.EvmChainId, r.EvmBlock))
}

// endedByPause reports whether a pause ended the predictions of the block
// of final round r: the chain has been paused, and r became final before
// its latest pause came into force. Its close then judges nobody. One read,
// only for a chain listed in chain.gas_paused.
func endedByPause(env kernel.Env, r *subnetv1.TruthRound) bool {
	if _, ok := env.Chain.Gen.Chain.GasPauseOf(r.EvmChainId); !ok {
		return false
	}
	env.ChargeWork(budget.UnitsLookup)
	at := env.St.U64(store.KeyGasPausedAt(r.EvmChainId))
	return at > 0 && r.ClosedHeight < int64(at)
}

// closePaused is the close of a block whose predictions a pause ended: no
// agent is judged; the block's predictions, if the pause's sweep has not
// reached them yet, end now as it would end them, and the round is
// scheduled for retention.
func closePaused(env kernel.Env, r *subnetv1.TruthRound) []abcitypes.Event {
	gc := env.St.GasChain(r.EvmChainId)
	var ended uint64
	if i, ok := slices.BinarySearch(gc.OpenBlocks, r.EvmBlock); ok {
		ended = endOpenBlock(env, gc, i)
	} else {
		retain.Round(env.St, env.Block.Height, r.EvmChainId, r.EvmBlock, nil)
	}
	return []abcitypes.Event{wire.Event(wire.EventGasWindowClosed, "evm_chain_id", kernel.U64s(r.EvmChainId), "evm_block", kernel.U64s(r.EvmBlock),
		"paused", "true", "timestamp", kernel.I64s(r.Timestamp), "unscored_predictions", kernel.U64s(ended))}
}
