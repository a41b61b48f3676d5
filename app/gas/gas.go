package gas

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
	"github.com/scoringsubnet/validatord/x/scoring"
	"github.com/scoringsubnet/validatord/x/window"
)

// Unit is the gas track's unit as the shell's route table holds it.
var Unit kernel.Unit = &kernel.UnitFuncs{CheckFunc: Check, ExecuteFunc: Execute}

// Check validates the gas track's messages: a Commit to an EVM block and a
// gas Reveal (the shell checked that the sender is a miner), and a Truth.
func Check(env kernel.Env, tx *kernel.Tx) *wire.TxError {
	switch m := tx.Body.Msg.Sum.(type) {
	case *subnetv1.Msg_Commit:
		g := m.Commit.GetGas()
		if g == nil {
			return wire.Reject(wire.CodeEmptyMsg, "commit.gas is empty")
		}
		return checkCommit(env, g, m.Commit.Commitment, tx.Account.Uid)
	case *subnetv1.Msg_Reveal:
		if m.Reveal.Submit.GetGas() == nil {
			return wire.Reject(wire.CodeEmptyMsg, "reveal.submit.gas is empty")
		}
		return checkReveal(env, tx, m.Reveal)
	case *subnetv1.Msg_Truth:
		return checkTruth(env, tx, m.Truth)
	}
	panic("gas: Check called on a message of another unit")
}

// Execute applies a message that Check accepted.
func Execute(env kernel.Env, tx *kernel.Tx) []abcitypes.Event {
	switch m := tx.Body.Msg.Sum.(type) {
	case *subnetv1.Msg_Commit:
		return execCommit(env, m.Commit.GetGas(), m.Commit.Commitment, tx.Account.Uid)
	case *subnetv1.Msg_Reveal:
		return execReveal(env, m.Reveal.Submit.GetGas(), tx.Account.Uid)
	case *subnetv1.Msg_Truth:
		return execTruth(env, tx, m.Truth)
	}
	panic("gas: Execute called on a message of another unit")
}

// SettleDueTruths runs the gas track's end of block: first the closes of
// the EVM blocks whose reveal window ends (DueGasClose: every agent of the
// chain judged with the revealed predictions), then the truth rounds whose
// deadline has come (DueTruths), then the pauses that came into force
// (DueGasPause: the paused chains' open predictions end), each item in a child overlay: an item
// after the first that would take the block past the end-of-block limit
// waits, with the rest, for the next block (carried). The first always
// fits: this step runs first in the end of block, and genesis bounds one
// close to what a full block leaves (genesis.MaxGasCloseBytes).
func SettleDueTruths(env kernel.Env, m *budget.Meter) (evs []abcitypes.Event, carried bool) {
	done := 0
	for _, kind := range []byte{store.DueGasClose, store.DueTruths} {
		e, c := eachDue(env, m, kind, &done, func(due store.Due, it store.DueItem) ([]abcitypes.Event, bool) {
			return settleItem(env, m, kind, due, it, &done)
		})
		evs = append(evs, e...)
		if c {
			return evs, true
		}
	}
	e, c := eachDue(env, m, store.DueGasPause, &done, func(due store.Due, it store.DueItem) ([]abcitypes.Event, bool) {
		return pauseItem(env, m, due, it, &done)
	})
	return append(evs, e...), c
}

// eachDue hands every entry of the schedule kind due by this height to
// item, charged one due item each, until item carries or the meter stops
// the scan.
func eachDue(env kernel.Env, m *budget.Meter, kind byte, done *int, item func(store.Due, store.DueItem) ([]abcitypes.Event, bool)) (evs []abcitypes.Event, carried bool) {
	due := store.Due{St: env.St, Kind: kind}
	look := m.Looker(done, &carried)
	for {
		it, ok := due.Next(env.Block.Height, look)
		if !ok {
			return evs, carried
		}
		m.ChargeEnd(budget.UnitsDueItem)
		e, c := item(due, it)
		evs = append(evs, e...)
		if c {
			return evs, true
		}
	}
}

// settleItem runs one close (DueGasClose) or one round at its deadline
// (DueTruths) in a child overlay; after the step's first item it must fit
// the block, else it waits (carried).
func settleItem(env kernel.Env, m *budget.Meter, kind byte, due store.Due, it store.DueItem, done *int) (evs []abcitypes.Event, carried bool) {
	child := env
	child.St = store.State{O: store.NewOverlay(env.St.O)}
	child.Charge = m.ChargeEnd
	r, ok := child.St.Truth(it.IDs[0], it.IDs[1])
	switch {
	case !ok:
	case kind == store.DueTruths && r.Status == kernel.StatusPending && env.Chain.Gen.Chain.IsGasPaused(r.EvmChainId):
		dropRound(child, r) // no vote could join it since the pause
	case kind == store.DueTruths && r.Status == kernel.StatusPending:
		evs = settleTruth(child, r, true)
	case kind == store.DueGasClose && r.Status == kernel.StatusFinal && endedByPause(child, r):
		evs = closePaused(child, r)
	case kind == store.DueGasClose && r.Status == kernel.StatusFinal:
		evs = closeGasBlock(child, r)
	}
	if *done > 0 && !m.EndFits(child.St.O.Size()) {
		return nil, true
	}
	child.St.O.MergeInto(env.St.O)
	due.Done(it)
	*done++
	return evs, false
}

// Track is the gas track: a miner's aggregate is the mean of its latest
// TotalScore over the EVM chains where it has one and is active.
var Track kernel.Track = gasTrack{}

type gasTrack struct{}

func (gasTrack) Name() string { return genesis.TrackGas }

// Aggregate is the mean of the agent's latest TotalScore over the EVM chains
// where it has one and where a close judged a fresh prediction of it at most
// the gas track's activity_cutoff_blocks before env.Block.Height; with no
// such chain the miner takes no part in the track.
func (gasTrack) Aggregate(env kernel.Env, uid uint32) (decimal.Decimal, bool) {
	tr, _ := env.Chain.Gen.Track(genesis.TrackGas)
	var scores []decimal.Decimal
	for _, chain := range env.Chain.Gen.Chain.GasChains {
		pa := &subnetv1.GasAgent{}
		if env.St.Load(store.KeyGasAgent(chain, uid), pa) && pa.HasScore &&
			window.Active(pa.LastFreshHeight, env.Block.Height, tr.ActivityCutoffBlocks) {
			scores = append(scores, kernel.Dec(pa.Score))
		}
	}
	if len(scores) == 0 {
		return decimal.Decimal{}, false
	}
	s, err := scoring.Mean(scores)
	return s, err == nil
}
