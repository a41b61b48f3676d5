package main

import (
	"context"

	"github.com/scoringsubnet/validatord/offline"
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

func runScoreArena(_ context.Context, env Env, args []string) error {
	fs := scoreFlags("arena")
	if done, err := parseScoreFlags(env, fs, arenaUsage, args); done || err != nil {
		return err
	}
	return offline.Arena(env.Stdin, env.Stdout, scoring.DefaultArenaParams())
}
