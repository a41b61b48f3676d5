package main

import (
	"context"

	"github.com/scoringsubnet/validatord/offline"
	"github.com/scoringsubnet/validatord/x/scoring"
)

const workflowUsage = `score workflow < runs.jsonl

Scores executed workflows with subnet-scoring-v1.md v1.0.0 (x/scoring.ScoreWorkflow,
default weights .50/.25/.15/.10, gate success > 0.7). Input: one JSON object per line,
every field required, numbers as JSON numbers or strings (at most 18 places):

  {"output_quality": "0.9", "steps_completed": 3, "total_steps": 4, "cost": "0.5",
   "max_budget": "1", "latency_seconds": "10", "max_latency_seconds": "20",
   "retries": 2, "declared_retry_budget": 1, "timeouts": 0, "hard_failures": 0}

Output: one line per input line,
  {"score": "...", "success": "...", "cost": "...", "latency": "...", "reliability": "..."}
with 18-place decimal strings; a bad line gets {"line": N, "error": "..."} and the
exit status is 1 after every line has been read.`

func init() {
	registerScoreMode("workflow", "workflow composite score (subnet-scoring-v1.md) of each JSON line", runScoreWorkflow)
}

func runScoreWorkflow(_ context.Context, env Env, args []string) error {
	fs := scoreFlags("workflow")
	if done, err := parseScoreFlags(env, fs, workflowUsage, args); done || err != nil {
		return err
	}
	return offline.Workflow(env.Stdin, env.Stdout, scoring.DefaultWorkflowParams())
}
