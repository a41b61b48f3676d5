package main

import (
	"context"
	"fmt"
	"os"

	"github.com/scoringsubnet/validatord/offline"
	"github.com/scoringsubnet/validatord/x/scoring"
)

const arenaUsage = `score arena < submissions.jsonl
       score arena --task FILE [--params FILE]

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
exit status is 1 after every line has been read.

With --task FILE ("-" for stdin), FILE holds one arena task's submissions as
` + "`validatord query submission/<id>`" + ` prints them (pretty-printed answers one
after another, or one per line). Each scored submission's receipt is verified
as ` + "`score receipt`" + ` does (with --params, against that app_state), and the
task's results are printed exactly as ` + "`query task/<id>/results`" + ` answers:
the rank (ties share it), percentile, category ranks, detect_outliers' flags
against the task's median tokens, the receipt's flags against its baseline,
validation warnings and the confidence interval of the overall scores.
Submissions that did not score (expired, duplicate, ...) are not ranked; the
category and difficulty are those the receipts record ("" when none scored).`

func init() {
	registerScoreMode("arena", "agentic arena score (agentic-arena-metrics.md) of each JSON line", runScoreArena)
}

func runScoreArena(_ context.Context, env Env, args []string) error {
	fs := scoreFlags("arena")
	taskFile := fs.String("task", "", "a file of one arena task's `query submission/<id>` answers (\"-\": stdin): print the task's results")
	paramsFile := fs.String("params", "", "with --task: app_state to verify the receipts against (`query params` output or genesis.json)")
	if done, err := parseScoreFlags(env, fs, arenaUsage, args); done || err != nil {
		return err
	}
	if *taskFile == "" {
		if *paramsFile != "" {
			return fmt.Errorf("--params applies to --task only")
		}
		return offline.Arena(env.Stdin, env.Stdout, scoring.DefaultArenaParams())
	}
	chain, err := paramsFlag(*paramsFile)
	if err != nil {
		return err
	}
	in := env.Stdin
	if *taskFile != "-" {
		f, err := os.Open(*taskFile)
		if err != nil {
			return fmt.Errorf("--task: %w", err)
		}
		defer f.Close()
		in = f
	}
	return offline.ArenaTask(in, env.Stdout, chain)
}
