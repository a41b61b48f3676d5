package main

import (
	"context"

	"github.com/shopspring/decimal"

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

// workflowLine is the output for one scored workflow.
type workflowLine struct {
	Score       string `json:"score"`
	Success     string `json:"success"`
	Cost        string `json:"cost"`
	Latency     string `json:"latency"`
	Reliability string `json:"reliability"`
}

var workflowFields = []string{"output_quality", "steps_completed", "total_steps", "cost", "max_budget",
	"latency_seconds", "max_latency_seconds", "retries", "declared_retry_budget", "timeouts", "hard_failures"}

func runScoreWorkflow(_ context.Context, env Env, args []string) error {
	fs := scoreFlags("workflow")
	if done, err := parseScoreFlags(env, fs, workflowUsage, args); done || err != nil {
		return err
	}
	p := scoring.DefaultWorkflowParams()
	return scoreLines(env, func(line []byte) (any, error) { return scoreWorkflowLine(p, line) })
}

func scoreWorkflowLine(p scoring.WorkflowParams, line []byte) (any, error) {
	in, err := decodeWorkflowInput(line)
	if err != nil {
		return nil, err
	}
	r, err := scoring.ScoreWorkflow(p, in)
	if err != nil {
		return nil, err
	}
	return workflowLine{
		Score: scoring.Format(r.Score), Success: scoring.Format(r.Success), Cost: scoring.Format(r.Cost),
		Latency: scoring.Format(r.Latency), Reliability: scoring.Format(r.Reliability),
	}, nil
}

func decodeWorkflowInput(line []byte) (scoring.WorkflowInput, error) {
	var in scoring.WorkflowInput
	obj, err := decodeObject(line)
	if err != nil {
		return in, err
	}
	if err := obj.only(workflowFields...); err != nil {
		return in, err
	}
	decs := []struct {
		name string
		dst  *decimal.Decimal
	}{
		{"output_quality", &in.OutputQuality}, {"cost", &in.Cost}, {"max_budget", &in.MaxBudget},
		{"latency_seconds", &in.LatencySeconds}, {"max_latency_seconds", &in.MaxLatencySeconds},
	}
	for _, f := range decs {
		if *f.dst, err = obj.decimal(f.name); err != nil {
			return in, err
		}
	}
	ints := []struct {
		name string
		dst  *int64
	}{
		{"steps_completed", &in.StepsCompleted}, {"total_steps", &in.TotalSteps}, {"retries", &in.Retries},
		{"declared_retry_budget", &in.DeclaredRetryBudget}, {"timeouts", &in.Timeouts}, {"hard_failures", &in.HardFailures},
	}
	for _, f := range ints {
		if *f.dst, err = obj.int64(f.name); err != nil {
			return in, err
		}
	}
	return in, nil
}
