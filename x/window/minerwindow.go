package window

import (
	"fmt"
	"math"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

// MinerWindow is one miner's rolling task window (subnet-scoring-v1.md "Score
// Aggregation"): the last N scored tasks, oldest first, equal weight.
type MinerWindow struct {
	// Scores holds at most Params.WindowSize task scores, oldest first.
	Scores []decimal.Decimal
	// TasksSeen counts every task ever scored for the miner, including those
	// that have left the window; it drives the warm-up.
	TasksSeen uint64
	// LastHeight is the chain height of the latest push (PushAt), 0 before
	// any: the miner's latest scored work on the track, which decides
	// whether it is still active (Active).
	LastHeight int64
}

// Push is PushAt at the window's LastHeight: for callers without a chain
// height (the offline scorer, tests of the window alone).
func (w MinerWindow) Push(p Params, score decimal.Decimal) (MinerWindow, error) {
	return w.PushAt(p, w.LastHeight, score)
}

// PushAt returns the window with score appended at chain height height and,
// when the window would exceed p.WindowSize, the oldest scores dropped. The
// receiver is not modified. A score outside [0,1] or with more than 18
// places is an error, as are a WindowSize below 1 and a height below
// LastHeight (heights never go backwards).
func (w MinerWindow) PushAt(p Params, height int64, score decimal.Decimal) (MinerWindow, error) {
	if err := p.validateWindowSize(); err != nil {
		return MinerWindow{}, err
	}
	if height < w.LastHeight {
		return MinerWindow{}, inputErr("height", height, fmt.Sprintf("before the window's last push at %d", w.LastHeight))
	}
	if score.Sign() < 0 || score.Cmp(scoring.One) > 0 || !fitsPlaces(score) {
		return MinerWindow{}, inputErr("score", score.String(), "must be in [0, 1] with at most 18 places")
	}
	if w.TasksSeen == math.MaxUint64 {
		return MinerWindow{}, inputErr("TasksSeen", w.TasksSeen, ErrOverflow.Error())
	}
	keep := min(len(w.Scores), p.WindowSize-1)
	next := MinerWindow{
		Scores:     make([]decimal.Decimal, 0, keep+1),
		TasksSeen:  w.TasksSeen + 1,
		LastHeight: height,
	}
	next.Scores = append(next.Scores, w.Scores[len(w.Scores)-keep:]...)
	next.Scores = append(next.Scores, score)
	next.mustHold(p)
	return next, nil
}

// mustHold checks the window's invariants after an update; a failure is a
// bug in Push, never bad input.
func (w MinerWindow) mustHold(p Params) {
	if len(w.Scores) > p.WindowSize || uint64(len(w.Scores)) > w.TasksSeen {
		panic("window: MinerWindow invariant broken")
	}
}

// Mean is the equal-weight mean of the window, Σ scores / n rounded once to 18
// places; an empty window has mean 0.
func (w MinerWindow) Mean() decimal.Decimal {
	if len(w.Scores) == 0 {
		return scoring.Zero
	}
	sum := scoring.Zero
	for _, s := range w.Scores {
		sum = sum.Add(s)
	}
	return scoring.Quo(sum, decimal.NewFromInt(int64(len(w.Scores))))
}

// Aggregate is the workflow track's aggregate: Warmed(p.WarmupTasks).
func (w MinerWindow) Aggregate(p Params) decimal.Decimal {
	return w.Warmed(p.WarmupTasks)
}

// Warmed is Mean × min(1, TasksSeen / warmup). While warming up it is
// Quo(Mean × TasksSeen, warmup): one more rounding to 18 places. With
// warmup ≤ 0 there is no warm-up. The workflow track warms up over
// Params.WarmupTasks, the arena track over Params.ArenaWarmupTasks.
func (w MinerWindow) Warmed(warmup int) decimal.Decimal {
	mean := w.Mean()
	if warmup <= 0 || w.TasksSeen >= uint64(warmup) {
		return mean
	}
	seen := decimal.NewFromUint64(w.TasksSeen)
	return scoring.Quo(mean.Mul(seen), decimal.NewFromInt(int64(warmup)))
}

// Active reports whether a miner whose latest scored work on a track was at
// chain height last still takes part in that track at height: it has done
// scored work (last ≥ 1; heights start at 1) and at most cutoffBlocks blocks
// ago. A miner that is not active gets no weight from the track.
func Active(last, height, cutoffBlocks int64) bool {
	return last >= 1 && last <= height && height-last <= cutoffBlocks
}
