package app

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/gas"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/tasks"
	"github.com/scoringsubnet/validatord/app/track"
	"github.com/scoringsubnet/validatord/x/budget"
)

// endStep is one named step of the end of block. It returns its events and
// whether it carried work over to the next block (it then queued that work
// in state itself, so the next block picks it up).
type endStep struct {
	name string
	run  func(a *App, env track.Env, m *budget.Meter) (evs []abcitypes.Event, carried bool)
}

// endBlockSteps is the end of block, in order. Every step asks the meter
// before it spends; a new step is a new row, metered the same way.
var endBlockSteps = []endStep{
	// Submissions of the tasks whose report deadline is this height, up
	// to the settlement limit; the rest is carried to the next height.
	{"settle_tasks", func(_ *App, env track.Env, m *budget.Meter) ([]abcitypes.Event, bool) {
		return tasks.SettleDue(env, m)
	}},
	// Truth rounds whose deadline is this height; a close that would pass
	// the truth limit expires its round (the EVM block stays open).
	{"settle_truths", func(_ *App, env track.Env, m *budget.Meter) ([]abcitypes.Event, bool) {
		k := store.KeyDue(env.Block.Height)
		if !env.St.Has(k) {
			return nil, false
		}
		evs := gas.SettleDueTruths(env, env.St.Due(env.Block.Height).Truths, m)
		env.St.Delete(k)
		return evs, false
	}},
	// The arena submissions that became final in this block, scored
	// together against their tasks' baselines.
	{"score_arena", func(_ *App, env track.Env, _ *budget.Meter) ([]abcitypes.Event, bool) {
		return tasks.ScoreArenaBatch(env), false
	}},
	// Every EpochBlocks-th height: the epoch's weights.
	{"epoch", func(a *App, env track.Env, _ *budget.Meter) ([]abcitypes.Event, bool) {
		if env.Block.Height%a.chain.Gen.Window.EpochBlocks != 0 {
			return nil, false
		}
		return a.runEpoch(env), false
	}},
}

// endBlock runs endBlockSteps in order and names the steps that carried work.
func (a *App) endBlock(env track.Env, m *budget.Meter) (evs []abcitypes.Event, carried []string) {
	for _, s := range endBlockSteps {
		e, c := s.run(a, env, m)
		evs = append(evs, e...)
		if c {
			carried = append(carried, s.name)
		}
	}
	return evs, carried
}
