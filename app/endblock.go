package app

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/gas"
	"github.com/scoringsubnet/validatord/app/governance"
	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/membership"
	"github.com/scoringsubnet/validatord/app/mirror"
	"github.com/scoringsubnet/validatord/app/retain"
	"github.com/scoringsubnet/validatord/app/tasks"
	"github.com/scoringsubnet/validatord/x/budget"
)

// endStep is one named step of the end of block: a unit's step (or the
// shell's epoch) under the name the block's carried list reports.
type endStep struct {
	name string
	run  kernel.EndStep
}

// endBlockSteps is the end of block, in order. Every step asks the meter
// before it spends; a new step is a new row, metered the same way.
var endBlockSteps = []endStep{
	// Truth rounds whose deadline has come. First, so that one close always
	// fits: genesis bounds a close to what a full block leaves.
	{"settle_truths", gas.SettleDueTruths},
	// Submissions of the tasks whose report deadline has come.
	{"settle_tasks", tasks.SettleDue},
	// Arena submissions that became final, scored against their tasks'
	// baselines.
	{"score_arena", tasks.ScoreArena},
	// Every EpochBlocks-th height: the epoch's weights (epoch.go).
	{"epoch", endEpoch},
	// Mirror mode: the parent blocks attested in this block; a snapshot
	// that became final resets the uids that changed (bounded by genesis:
	// max_uids entries and the votes of the touched rounds).
	{"mirror", mirror.End},
	// Pow mode: the block's hash for the registrations of the next blocks,
	// and the difficulty at every adjustment_interval-th height.
	{"registration", membership.End},
	// Expired proposals, evidence, one step of the approved validator
	// changes (bounded by a third of the power and the changes one step
	// examines), and the sets and params no coming height needs.
	{"governance", governance.End},
	// The EVM chains that an upgrade in force from the next height pauses
	// (their sweep falls due then) or resumes (closed up to the window
	// before resume_block now, so the next block takes its truths).
	{"gas_params", gasParams},
	// Settled tasks, ended truth rounds and epochs scheduled
	// chain.retain_state_blocks (in force now) before this height are
	// deleted, one record per meter check, the rest carried (app/retain,
	// docs/retention.md). Last, so it only ever takes what the block's
	// work left.
	{"retention", retain.Due},
}

// endBlock runs endBlockSteps in order and names the steps that carried work.
func endBlock(env kernel.Env, m *budget.Meter) (evs []abcitypes.Event, carried []string) {
	for _, s := range endBlockSteps {
		e, c := s.run(env, m)
		evs = append(evs, e...)
		if c {
			carried = append(carried, s.name)
		}
	}
	return evs, carried
}

// gasParams hands the params an upgrade brings into force at the next
// height, if any, to gas.Transition.
func gasParams(env kernel.Env, m *budget.Meter) ([]abcitypes.Event, bool) {
	next, ok := governance.Activating(env.St, env.Block.Height)
	if !ok {
		return nil, false
	}
	return gas.Transition(env, m, next.Chain), false
}
