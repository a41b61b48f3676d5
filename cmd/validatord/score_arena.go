package main

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

const arenaUsage = `score arena < submissions.jsonl

Scores arena submissions against a task baseline with agentic-arena-metrics.md
(x/scoring.ScoreArena: efficiency .35, speed .25, cost .20, correctness .20 or the
category's weights; difficulty multiplier on the overall score, capped at 100; each
reported score rounded to 2 places half away from zero). Input: one JSON object per
line; every submission and baseline field is required; numbers as JSON numbers or
strings (at most 18 places). "category" and "difficulty" may be omitted: no category
means the default weights, an unknown category is an error, an unknown or missing
difficulty multiplies by 1. An execution_time or estimated_cost of 0 means "missing"
and scores 50.

  {"submission": {"total_tokens": 6000, "tool_calls": 7, "iterations": 2,
     "execution_time": "930", "estimated_cost": "0.105", "criteria_passed": 3,
     "criteria_total": 4},
   "baseline": {"min_tokens": 1000, "median_tokens": 5000, "max_tokens": 11000,
     "min_tool_calls": 2, "median_tool_calls": 6, "max_tool_calls": 12,
     "median_iterations": 3, "min_execution_time": 60, "median_execution_time": 300,
     "max_execution_time": 1800, "min_cost": "0.01", "median_cost": "0.05",
     "max_cost": "0.20"},
   "category": "debugging", "difficulty": "advanced"}

Output: one line per input line,
  {"overall_score": "...", "efficiency_score": "...", "speed_score": "...",
   "cost_score": "...", "correctness_score": "..."}
with 18-place decimal strings; a bad line gets {"line": N, "error": "..."} and the
exit status is 1 after every line has been read.`

func init() {
	registerScoreMode("arena", "agentic arena score (agentic-arena-metrics.md) of each JSON line", runScoreArena)
}

// arenaLine is the output for one scored submission.
type arenaLine struct {
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

func runScoreArena(_ context.Context, env Env, args []string) error {
	fs := scoreFlags("arena")
	if done, err := parseScoreFlags(env, fs, arenaUsage, args); done || err != nil {
		return err
	}
	p := scoring.DefaultArenaParams()
	return scoreLines(env, func(line []byte) (any, error) { return scoreArenaLine(p, line) })
}

func scoreArenaLine(p scoring.ArenaParams, line []byte) (any, error) {
	obj, err := decodeObject(line)
	if err != nil {
		return nil, err
	}
	if err := obj.only(arenaLineFields...); err != nil {
		return nil, err
	}
	s, err := decodeArenaSubmission(obj)
	if err != nil {
		return nil, err
	}
	b, err := decodeArenaBaseline(obj)
	if err != nil {
		return nil, err
	}
	category, err := optionalString(obj, "category")
	if err != nil {
		return nil, err
	}
	difficulty, err := optionalString(obj, "difficulty")
	if err != nil {
		return nil, err
	}
	r, err := scoring.ScoreArena(p, s, b, category, difficulty)
	if err != nil {
		return nil, err
	}
	return arenaLine{
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
