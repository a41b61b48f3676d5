package window

import (
	"fmt"
	"math"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

// GasAgent is the state of one gas agent on one EVM chain
// (gas-agent-evaluation.md): the fixed memory array of its last closed block
// windows and the history of performance points over the evaluation horizon.
type GasAgent struct {
	// Memory holds at most GasParams.MemorySize slots, oldest first.
	Memory []scoring.GasSlot
	// History holds (block time, inclusion rate, average overpayment) points,
	// oldest first, none older than the horizon at the last close, and at
	// most the cap given to CloseCapped (DefaultGasHistoryMax for Close).
	History []scoring.GasHistoryPoint
	// Last is the agent's latest prediction; HasLast says whether there is one.
	Last    decimal.Decimal
	HasLast bool
	// Closed counts the block windows closed for this agent (slots ever pushed).
	Closed uint64
	// LastTime is the block time of the latest close that changed the agent
	// (0 before the first); block times must not go backwards.
	LastTime int64
}

// Close closes one block window at blockTime (seconds of chain block time)
// for this agent and returns the new state and, once the memory array is
// full, the agent's score; before that the score is nil (absent, not 0).
//
// pred is the agent's fresh prediction for the window, or nil when it sent
// none: the window is then judged by gp.StalePrediction — missed (not
// included, overpayment 0) under scoring.StaleMiss, on its latest earlier
// prediction under scoring.StaleCarry — with Fresh = false (0 liveliness)
// either way. An agent that has never predicted has nothing
// to be judged on: Close returns it unchanged with a nil score, so agents
// enter the memory with their first prediction.
//
// When the memory is full, a history point (blockTime, inclusion rate,
// average overpayment) is appended, points with Time < blockTime −
// HorizonSeconds are dropped (a point exactly HorizonSeconds old is kept:
// the horizon is the closed interval [blockTime − t, blockTime]), and
// scoring.ScoreGas is computed over the kept points and the memory's
// liveliness. The receiver is never modified. The history keeps at most
// DefaultGasHistoryMax points (see CloseCapped).
func (a GasAgent) Close(gp scoring.GasParams, blockTime int64, pred *decimal.Decimal, minPrice decimal.Decimal) (GasAgent, *scoring.GasResult, error) {
	return a.CloseCapped(gp, DefaultGasHistoryMax, blockTime, pred, minPrice)
}

// CloseCapped is Close with the history capped at maxHistory points
// (Params.GasHistoryMax on chain): after the horizon is applied, the oldest
// points beyond the cap are dropped, so closes that share one block time
// (several EVM blocks per second) cannot grow the history without bound.
// maxHistory must be in [1, MaxGasHistoryLimit].
func (a GasAgent) CloseCapped(gp scoring.GasParams, maxHistory int, blockTime int64, pred *decimal.Decimal, minPrice decimal.Decimal) (GasAgent, *scoring.GasResult, error) {
	if err := gp.Validate(); err != nil {
		return GasAgent{}, nil, err
	}
	if maxHistory < 1 || maxHistory > MaxGasHistoryLimit {
		return GasAgent{}, nil, inputErr("maxHistory", maxHistory, "must be in [1, 4096]")
	}
	if a.Closed > 0 && blockTime < a.LastTime {
		return GasAgent{}, nil, fmt.Errorf("gas close at %d after %d: %w", blockTime, a.LastTime, ErrTimeBackwards)
	}
	if a.Closed == math.MaxUint64 {
		return GasAgent{}, nil, inputErr("Closed", a.Closed, ErrOverflow.Error())
	}
	estimate, fresh := a.Last, false
	if pred != nil {
		estimate, fresh = *pred, true
	}
	if !fitsPlaces(estimate) || !fitsPlaces(minPrice) {
		return GasAgent{}, nil, inputErr("prediction/minPrice", estimate.String()+"/"+minPrice.String(), "more than 18 decimal places")
	}
	if !fresh && !a.HasLast {
		return a, nil, nil
	}
	slot, err := judgeWindow(gp, estimate, minPrice, fresh)
	if err != nil {
		return GasAgent{}, nil, err
	}
	next := a.withSlot(gp, slot, blockTime)
	if fresh {
		next.Last, next.HasLast = estimate, true
	}
	next.History = pruneHistory(a.History, horizonStart(blockTime, gp.HorizonSeconds), maxHistory)
	if len(next.Memory) < gp.MemorySize {
		next.mustHold(gp, maxHistory)
		return next, nil, nil
	}
	perf := scoring.MemoryPerformance(next.Memory)
	if len(next.History) == maxHistory {
		next.History = next.History[1:]
	}
	next.History = append(next.History, scoring.GasHistoryPoint{
		Time: blockTime, InclusionRate: perf.InclusionRate, AvgOverpayment: perf.AvgOverpayment,
	})
	next.mustHold(gp, maxHistory)
	res, err := scoring.ScoreGas(gp, next.History, perf.Liveliness)
	if err != nil {
		return GasAgent{}, nil, err
	}
	return next, &res, nil
}

// judgeWindow is the slot of one closed window: the fresh prediction's
// outcome, or without one the gas params' stale-prediction policy over the
// latest earlier prediction (scoring.GasStale).
func judgeWindow(gp scoring.GasParams, estimate, minPrice decimal.Decimal, fresh bool) (scoring.GasSlot, error) {
	if fresh {
		return scoring.GasOutcome(estimate, minPrice, true)
	}
	return scoring.GasStale(gp.StalePrediction, estimate, minPrice)
}

// withSlot returns a copy of a with slot pushed into a fresh memory array
// (oldest out beyond gp.MemorySize); the history is set by the caller.
func (a GasAgent) withSlot(gp scoring.GasParams, slot scoring.GasSlot, blockTime int64) GasAgent {
	keep := min(len(a.Memory), gp.MemorySize-1)
	mem := make([]scoring.GasSlot, 0, keep+1)
	mem = append(mem, a.Memory[len(a.Memory)-keep:]...)
	mem = append(mem, slot)
	return GasAgent{Memory: mem, Last: a.Last, HasLast: a.HasLast, Closed: a.Closed + 1, LastTime: blockTime}
}

// horizonStart is the earliest block time a history point may carry to stay,
// saturating instead of overflowing for extreme times.
func horizonStart(blockTime, horizon int64) int64 {
	if blockTime < math.MinInt64+horizon {
		return math.MinInt64
	}
	return blockTime - horizon
}

// pruneHistory returns a new slice holding the points of old with Time ≥ from,
// at most the newest maxHistory of them, with room for one more point.
func pruneHistory(old []scoring.GasHistoryPoint, from int64, maxHistory int) []scoring.GasHistoryPoint {
	first := max(0, len(old)-maxHistory)
	for first < len(old) && old[first].Time < from {
		first++
	}
	out := make([]scoring.GasHistoryPoint, 0, len(old)-first+1)
	return append(out, old[first:]...)
}

// mustHold checks the agent's invariants after an update; a failure is a bug in Close.
func (a GasAgent) mustHold(gp scoring.GasParams, maxHistory int) {
	if len(a.Memory) > gp.MemorySize || uint64(len(a.Memory)) > a.Closed || len(a.History) > maxHistory {
		panic("window: GasAgent memory invariant broken")
	}
	for i, h := range a.History {
		if h.Time > a.LastTime || h.Time < horizonStart(a.LastTime, gp.HorizonSeconds) || (i > 0 && h.Time < a.History[i-1].Time) {
			panic("window: GasAgent history invariant broken")
		}
	}
}
