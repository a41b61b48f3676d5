package window

import (
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
}

// Push returns the window with score appended and, when the window would
// exceed p.WindowSize, the oldest scores dropped. The receiver is not
// modified. A score outside [0,1] or with more than 18 places is an error, as
// is a WindowSize below 1.
func (w MinerWindow) Push(p Params, score decimal.Decimal) (MinerWindow, error) {
	if err := p.validateWindowSize(); err != nil {
		return MinerWindow{}, err
	}
	if score.Sign() < 0 || score.Cmp(scoring.One) > 0 || !fitsPlaces(score) {
		return MinerWindow{}, inputErr("score", score.String(), "must be in [0, 1] with at most 18 places")
	}
	if w.TasksSeen == math.MaxUint64 {
		return MinerWindow{}, inputErr("TasksSeen", w.TasksSeen, ErrOverflow.Error())
	}
	keep := min(len(w.Scores), p.WindowSize-1)
	next := MinerWindow{
		Scores:    make([]decimal.Decimal, 0, keep+1),
		TasksSeen: w.TasksSeen + 1,
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

// Aggregate is Mean × min(1, TasksSeen / WarmupTasks). While warming up it is
// Quo(Mean × TasksSeen, WarmupTasks): one more rounding to 18 places. With
// WarmupTasks = 0 there is no warm-up.
func (w MinerWindow) Aggregate(p Params) decimal.Decimal {
	mean := w.Mean()
	if p.WarmupTasks <= 0 || w.TasksSeen >= uint64(p.WarmupTasks) {
		return mean
	}
	seen := decimal.NewFromUint64(w.TasksSeen)
	return scoring.Quo(mean.Mul(seen), decimal.NewFromInt(int64(p.WarmupTasks)))
}
