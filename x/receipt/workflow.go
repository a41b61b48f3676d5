package receipt

import (
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// The workflow schema: ScoreWorkflow's inputs, params and intermediates.

func workflowInputSchema(in *scoring.WorkflowInput) []binding {
	return []binding{
		bDec("output_quality", &in.OutputQuality), bInt("steps_completed", &in.StepsCompleted),
		bInt("total_steps", &in.TotalSteps), bDec("cost", &in.Cost), bDec("max_budget", &in.MaxBudget),
		bDec("latency_seconds", &in.LatencySeconds), bDec("max_latency_seconds", &in.MaxLatencySeconds),
		bInt("retries", &in.Retries), bInt("declared_retry_budget", &in.DeclaredRetryBudget),
		bInt("timeouts", &in.Timeouts), bInt("hard_failures", &in.HardFailures),
	}
}

func workflowParamSchema(p *scoring.WorkflowParams) []binding {
	return []binding{bDec("w_success", &p.WSuccess), bDec("w_cost", &p.WCost), bDec("w_latency", &p.WLatency),
		bDec("w_reliability", &p.WReliability), bDec("gate", &p.Gate), bDec("retry_penalty", &p.RetryPenalty),
		bDec("timeout_penalty", &p.TimeoutPenalty), bDec("failure_penalty", &p.FailurePenalty)}
}

// workflowValueSchema: the score itself is the receipt's score, not a value.
func workflowValueSchema(r *scoring.WorkflowResult) []binding {
	return []binding{bDec("completion_ratio", &r.CompletionRatio), bDec("s_success", &r.Success),
		bBool("gated", &r.Gated), bDec("s_cost", &r.Cost), bDec("s_latency", &r.Latency),
		bInt("unplanned_retries", &r.UnplannedRetries), bDec("s_reliability", &r.Reliability)}
}

// WorkflowInputs is a workflow receipt's inputs: the measured medians and the
// task's limits.
func WorkflowInputs(in scoring.WorkflowInput) []*subnetv1.Field {
	return build(workflowInputSchema(&in))
}

// WorkflowParams is a workflow receipt's params before the vote powers.
func WorkflowParams(p scoring.WorkflowParams) []*subnetv1.Field {
	return build(workflowParamSchema(&p))
}

// WorkflowValues is a workflow receipt's values: ScoreWorkflow's intermediates.
func WorkflowValues(r scoring.WorkflowResult) []*subnetv1.Field {
	return build(workflowValueSchema(&r))
}
