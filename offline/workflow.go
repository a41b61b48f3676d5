package offline

import (
	"io"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

// WorkflowLine is the output for one scored workflow.
type WorkflowLine struct {
	Score       string `json:"score"`
	Success     string `json:"success"`
	Cost        string `json:"cost"`
	Latency     string `json:"latency"`
	Reliability string `json:"reliability"`
}

var workflowFields = []string{"output_quality", "steps_completed", "total_steps", "cost", "max_budget",
	"latency_seconds", "max_latency_seconds", "retries", "declared_retry_budget", "timeouts", "hard_failures"}

// Workflow scores each line of r, one scoring.WorkflowInput object (every
// field required), with ScoreWorkflow and p.
func Workflow(r io.Reader, w io.Writer, p scoring.WorkflowParams) error {
	return Lines(r, w, func(line []byte) (any, error) { return ScoreWorkflowLine(p, line) })
}

// ScoreWorkflowLine scores one line of Workflow.
func ScoreWorkflowLine(p scoring.WorkflowParams, line []byte) (WorkflowLine, error) {
	in, err := decodeWorkflowInput(line)
	if err != nil {
		return WorkflowLine{}, err
	}
	r, err := scoring.ScoreWorkflow(p, in)
	if err != nil {
		return WorkflowLine{}, err
	}
	return WorkflowLine{
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
