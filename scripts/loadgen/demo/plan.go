package demo

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

// plan is what the demo takes from the node's genesis: which tracks run, an
// arena category and difficulty, the gas chain and how many of its blocks to
// predict, the epoch length.
type plan struct {
	workflow, arena, gas bool
	category, difficulty string
	gasChain             uint64
	gasBlocks            int // EVM blocks to predict: enough to fill the memory and score
	gasAhead             int // chain.max_prediction_ahead: blocks predicted per round
	epochBlocks          int64
	// revealBlocks: each track's reveal window, in blocks (tracks[i].reveal_blocks)
	revealBlocks map[string]int64
	// gasNeverIncluded is the gas score of an agent none of whose bids was
	// ever included: 1 − gas.w_inclusion (docs/scoring.md §4).
	gasNeverIncluded decimal.Decimal
}

func loadPlan(home string) (plan, error) {
	_, st, err := setup.LoadGenesis(home)
	if err != nil {
		return plan{}, err
	}
	p := plan{
		workflow:     st.HasTrack(genesis.TrackWorkflow),
		arena:        setup.ArenaRuns(st),
		gas:          st.HasTrack(genesis.TrackGas) && len(st.Chain.GasChains) > 0,
		epochBlocks:  st.Window.EpochBlocks,
		revealBlocks: map[string]int64{},
	}
	for _, t := range st.Tracks {
		p.revealBlocks[t.Name] = t.RevealBlocks
	}
	if p.arena {
		p.category, p.difficulty = st.Arena.Categories[0].Name, st.Arena.Difficulties[0].Name
	}
	if p.gas {
		p.gasChain = st.Chain.GasChains[0]
		p.gasBlocks = st.Gas.MemorySize + 2
		p.gasAhead = int(min(st.Chain.MaxPredictionAhead, uint64(p.gasBlocks)))
		p.gasNeverIncluded = decimal.NewFromInt(1).Sub(st.Gas.WInclusion)
	}
	return p, nil
}

// revealWindows is "workflow 10 blocks, arena 10 blocks, gas 10 blocks".
func (p plan) revealWindows() string {
	parts := make([]string, 0, 3)
	for _, t := range p.tracks() {
		parts = append(parts, fmt.Sprintf("%s %d blocks", t, p.revealBlocks[t]))
	}
	return strings.Join(parts, ", ")
}

// tracks lists the tracks the demo drives, in the order it prints them.
func (p plan) tracks() []string {
	var ts []string
	for _, t := range []struct {
		on   bool
		name string
	}{{p.workflow, genesis.TrackWorkflow}, {p.arena, genesis.TrackArena}, {p.gas, genesis.TrackGas}} {
		if t.on {
			ts = append(ts, t.name)
		}
	}
	return ts
}
