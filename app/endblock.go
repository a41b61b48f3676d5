package app

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/gas"
	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/retain"
	"github.com/scoringsubnet/validatord/app/tasks"
	"github.com/scoringsubnet/validatord/x/budget"
)

// endStep is one named step of the end of block. It returns its events and
// whether it carried work over to the next block (it then queued that work
// in state itself, so the next block picks it up).
type endStep struct {
	name string
	run  func(a *App, env kernel.Env, m *budget.Meter) (evs []abcitypes.Event, carried bool)
}

// endBlockSteps is the end of block, in order. Every step asks the meter
// before it spends; a new step is a new row, metered the same way.
var endBlockSteps = []endStep{
	// Truth rounds whose deadline has come. First, so that one close always
	// fits: genesis bounds a close to what a full block leaves.
	{"settle_truths", func(_ *App, env kernel.Env, m *budget.Meter) ([]abcitypes.Event, bool) {
		return gas.SettleDueTruths(env, m)
	}},
	// Submissions of the tasks whose report deadline has come.
	{"settle_tasks", func(_ *App, env kernel.Env, m *budget.Meter) ([]abcitypes.Event, bool) {
		return tasks.SettleDue(env, m)
	}},
	// Arena submissions that became final, scored against their tasks'
	// baselines.
	{"score_arena", func(_ *App, env kernel.Env, m *budget.Meter) ([]abcitypes.Event, bool) {
		return tasks.ScoreArena(env, m)
	}},
	// Every EpochBlocks-th height: the epoch's weights. Its work is bounded
	// by genesis (max_uids × tracks), not by the meter: an epoch is never
	// split or deferred.
	{"epoch", func(a *App, env kernel.Env, m *budget.Meter) ([]abcitypes.Event, bool) {
		if env.Block.Height%env.Chain.Gen.Window.EpochBlocks != 0 {
			return nil, false
		}
		miners := int64(env.St.Counters().Miners)
		m.ChargeEnd(budget.UnitsEpochMiner*miners*int64(len(env.Chain.Gen.Tracks)) + budget.UnitsLookup*miners) // + the prune queue
		return a.runEpoch(env), false
	}},
	// Mirror mode: the parent blocks attested in this block; a snapshot
	// that became final resets the uids that changed (bounded by genesis:
	// max_uids entries and the votes of the touched rounds).
	{"mirror", func(a *App, env kernel.Env, m *budget.Meter) ([]abcitypes.Event, bool) {
		return a.endMirror(env, m)
	}},
	// The block's hash for the registrations of the next blocks, and the
	// difficulty at every adjustment_interval-th height: one write, one
	// delete and at most one adjustment (pow mode only).
	{"registration", func(a *App, env kernel.Env, m *budget.Meter) ([]abcitypes.Event, bool) {
		if a.chain.Gen.IsMirror() {
			return nil, false
		}
		m.ChargeEnd(budget.UnitsDueItem)
		return a.endRegistration(env), false
	}},
	// Expired proposals, evidence, one step of the approved validator
	// changes (bounded by maxStepChanges and a third of the power), and the
	// sets and params no coming height needs (govstep.go).
	{"governance", func(a *App, env kernel.Env, m *budget.Meter) ([]abcitypes.Event, bool) {
		return a.endGovernance(env, m)
	}},
	// Settled tasks, ended truth rounds and epochs scheduled
	// chain.retain_state_blocks (in force now) before this height are
	// deleted, one record per meter check, the rest carried (app/retain,
	// docs/retention.md). Last, so it only ever takes what the block's
	// work left.
	{"retention", func(_ *App, env kernel.Env, m *budget.Meter) ([]abcitypes.Event, bool) {
		return retain.Due(env, m)
	}},
}

// endBlock runs endBlockSteps in order and names the steps that carried work.
func (a *App) endBlock(env kernel.Env, m *budget.Meter) (evs []abcitypes.Event, carried []string) {
	for _, s := range endBlockSteps {
		e, c := s.run(a, env, m)
		evs = append(evs, e...)
		if c {
			carried = append(carried, s.name)
		}
	}
	return evs, carried
}
