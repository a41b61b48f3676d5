package window

import (
	"github.com/scoringsubnet/validatord/x/scoring"
)

// Baseline is one arena task's baseline state (agentic-arena-metrics.md
// "Baseline Calculation"): its most recent valid submissions, at most
// Params.BaselineK of them, oldest first. The seed computes the baseline over
// all submissions, which grows without bound; this keeps the most recent K.
type Baseline struct {
	Recent []scoring.ArenaSubmission
}

// Stats is the task's baseline: scoring.ComputeBaseline over Recent, which is
// the fallback (default) baseline below the seed's 5 submissions.
func (b Baseline) Stats(fallback scoring.ArenaBaseline) scoring.ArenaBaseline {
	return scoring.ComputeBaseline(b.Recent, fallback)
}

// StatsFor is Stats with p.BaselineMin as the threshold for the fallback
// (p.BaselineMin ≥ 5, see Params.Validate).
func (b Baseline) StatsFor(p Params, fallback scoring.ArenaBaseline) scoring.ArenaBaseline {
	if len(b.Recent) < p.BaselineMin {
		return fallback
	}
	return b.Stats(fallback)
}

// Add takes in one block's valid submissions, in block order, and keeps the
// most recent p.BaselineK (oldest out first). The seed's batch rule is the
// caller's: score every submission of a block against Stats as it stood
// before the block, then Add the block's batch once. A submission with a
// negative count or amount, or more criteria passed than total, is an error
// and nothing is added. The receiver is not modified.
func (b Baseline) Add(p Params, subs []scoring.ArenaSubmission) (Baseline, error) {
	if err := p.validateBaselineK(); err != nil {
		return Baseline{}, err
	}
	for i, s := range subs {
		if err := checkSubmission(i, s); err != nil {
			return Baseline{}, err
		}
	}
	total := len(b.Recent) + len(subs)
	drop := max(0, total-p.BaselineK)
	next := Baseline{Recent: make([]scoring.ArenaSubmission, 0, total-drop)}
	if drop < len(b.Recent) {
		next.Recent = append(next.Recent, b.Recent[drop:]...)
		next.Recent = append(next.Recent, subs...)
	} else {
		next.Recent = append(next.Recent, subs[drop-len(b.Recent):]...)
	}
	if len(next.Recent) > p.BaselineK {
		panic("window: Baseline invariant broken")
	}
	return next, nil
}

// checkSubmission rejects the values no valid arena run can have.
func checkSubmission(i int, s scoring.ArenaSubmission) error {
	ints := []struct {
		name string
		v    int64
	}{
		{"total_tokens", s.TotalTokens}, {"tool_calls", s.ToolCalls}, {"iterations", s.Iterations},
		{"criteria_passed", s.CriteriaPassed}, {"criteria_total", s.CriteriaTotal},
	}
	for _, f := range ints {
		if f.v < 0 {
			return inputErr(indexed("subs", i)+"."+f.name, f.v, "must not be negative")
		}
	}
	if s.CriteriaPassed > s.CriteriaTotal {
		return inputErr(indexed("subs", i)+".criteria_passed", s.CriteriaPassed, "exceeds criteria_total")
	}
	if s.ExecutionTime.Sign() < 0 || !fitsPlaces(s.ExecutionTime) {
		return inputErr(indexed("subs", i)+".execution_time", s.ExecutionTime.String(), "must be ≥ 0 with at most 18 places")
	}
	if s.EstimatedCost.Sign() < 0 || !fitsPlaces(s.EstimatedCost) {
		return inputErr(indexed("subs", i)+".estimated_cost", s.EstimatedCost.String(), "must be ≥ 0 with at most 18 places")
	}
	return nil
}
