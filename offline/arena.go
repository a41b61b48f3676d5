package offline

import (
	"fmt"
	"io"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

// ArenaLine is the output for one scored submission.
type ArenaLine struct {
	Overall     string `json:"overall_score"`
	Efficiency  string `json:"efficiency_score"`
	Speed       string `json:"speed_score"`
	Cost        string `json:"cost_score"`
	Correctness string `json:"correctness_score"`
}

var (
	arenaLineFields       = []string{"submission", "baseline", "category", "difficulty"}
	arenaSubmissionFields = []string{"total_tokens", "tool_calls", "iterations", "execution_time",
		"estimated_cost", "criteria_passed", "criteria_total"}
	arenaBaselineFields = []string{"min_tokens", "median_tokens", "max_tokens", "min_tool_calls",
		"median_tool_calls", "max_tool_calls", "median_iterations", "min_execution_time",
		"median_execution_time", "max_execution_time", "min_cost", "median_cost", "max_cost"}
)

// Arena scores each line of r, {"submission": …, "baseline": …, "category",
// "difficulty"}, with ScoreArena and p.
func Arena(r io.Reader, w io.Writer, p scoring.ArenaParams) error {
	return Lines(r, w, func(line []byte) (any, error) { return ScoreArenaLine(p, line) })
}

// ScoreArenaLine scores one line of Arena.
func ScoreArenaLine(p scoring.ArenaParams, line []byte) (ArenaLine, error) {
	obj, err := decodeObject(line)
	if err != nil {
		return ArenaLine{}, err
	}
	if err := obj.only(arenaLineFields...); err != nil {
		return ArenaLine{}, err
	}
	s, err := decodeArenaSubmission(obj)
	if err != nil {
		return ArenaLine{}, err
	}
	b, err := decodeArenaBaseline(obj)
	if err != nil {
		return ArenaLine{}, err
	}
	category, err := optionalString(obj, "category")
	if err != nil {
		return ArenaLine{}, err
	}
	difficulty, err := optionalString(obj, "difficulty")
	if err != nil {
		return ArenaLine{}, err
	}
	r, err := scoring.ScoreArena(p, s, b, category, difficulty)
	if err != nil {
		return ArenaLine{}, err
	}
	return ArenaLine{
		Overall: scoring.Format(r.Overall), Efficiency: scoring.Format(r.Efficiency), Speed: scoring.Format(r.Speed),
		Cost: scoring.Format(r.Cost), Correctness: scoring.Format(r.Correctness),
	}, nil
}

func decodeArenaSubmission(line jsonObject) (scoring.ArenaSubmission, error) {
	var s scoring.ArenaSubmission
	obj, err := line.object("submission")
	if err != nil {
		return s, err
	}
	if err := obj.only(arenaSubmissionFields...); err != nil {
		return s, fmt.Errorf("submission: %v", err)
	}
	ints := []struct {
		name string
		dst  *int64
	}{
		{"total_tokens", &s.TotalTokens}, {"tool_calls", &s.ToolCalls}, {"iterations", &s.Iterations},
		{"criteria_passed", &s.CriteriaPassed}, {"criteria_total", &s.CriteriaTotal},
	}
	for _, f := range ints {
		if *f.dst, err = obj.int64(f.name); err != nil {
			return s, fmt.Errorf("submission.%v", err)
		}
	}
	if s.ExecutionTime, err = obj.decimal("execution_time"); err != nil {
		return s, fmt.Errorf("submission.%v", err)
	}
	if s.EstimatedCost, err = obj.decimal("estimated_cost"); err != nil {
		return s, fmt.Errorf("submission.%v", err)
	}
	return s, nil
}

func decodeArenaBaseline(line jsonObject) (scoring.ArenaBaseline, error) {
	var b scoring.ArenaBaseline
	obj, err := line.object("baseline")
	if err != nil {
		return b, err
	}
	if err := obj.only(arenaBaselineFields...); err != nil {
		return b, fmt.Errorf("baseline: %v", err)
	}
	dsts := []*decimal.Decimal{&b.MinTokens, &b.MedianTokens, &b.MaxTokens, &b.MinToolCalls,
		&b.MedianToolCalls, &b.MaxToolCalls, &b.MedianIterations, &b.MinExecutionTime,
		&b.MedianExecutionTime, &b.MaxExecutionTime, &b.MinCost, &b.MedianCost, &b.MaxCost}
	for i, name := range arenaBaselineFields {
		if *dsts[i], err = obj.decimal(name); err != nil {
			return b, fmt.Errorf("baseline.%v", err)
		}
	}
	// The quartiles are not scored; the median stands in so the baseline reads consistently.
	b.Q25Tokens, b.Q75Tokens = b.MedianTokens, b.MedianTokens
	return b, nil
}
