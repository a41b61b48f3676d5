package validator

import (
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// NoArtifact is the measurement the daemon reports, without running the
// measurement command, for a submission whose artifact it could not use:
// not fetched by the cut-off (no address announced, unreachable, an error
// status, too slow), larger than [measure] max_artifact_bytes, or not the
// bytes whose hash the miner revealed. It is the worst measurement the
// chain's ranges allow that every honest validator derives alike from the
// task alone, so that their per-field medians land on it:
//
//   - workflow: output_quality 0 and steps_completed 0 (success 0, below
//     every gate, so cost and latency count for nothing), hard_failures at
//     the chain's most (wire.MaxCount: reliability 0 under any non-zero
//     failure penalty), every other field 0. Score 0.
//   - arena: criteria_passed 0, and tokens, tool calls, execution time and
//     cost one above the task's default baseline maxima, iterations five
//     above its median iterations: every component 0 against the default
//     baseline. It is kept near the task's own scale, not at the chain's
//     maxima, because a scored arena submission joins the task's baseline
//     and a sample of 10^12 tokens would lift every later submission's
//     token score.
//
// sub is the submission's id, task its task's view.
func NoArtifact(sub uint64, task *wire.TaskView) (*subnetv1.MsgReport, error) {
	switch {
	case task.Workflow != nil:
		return &subnetv1.MsgReport{SubmissionId: sub, Measurement: &subnetv1.MsgReport_Workflow{Workflow: &subnetv1.WorkflowMeasurement{
			OutputQuality: "0", Cost: "0", LatencySeconds: "0", HardFailures: wire.MaxCount}}}, nil
	case task.Arena != nil && task.Arena.DefaultBaseline != nil:
		b := task.Arena.DefaultBaseline
		var err error
		dec := func(field, s string) decimal.Decimal {
			d, e := decimal.NewFromString(s)
			if e != nil && err == nil {
				err = fmt.Errorf("task %d: default_baseline.%s = %q: %v", task.ID, field, s, e)
			}
			return d
		}
		one := decimal.NewFromInt(1)
		tokens := dec("max_tokens", b.MaxTokens).Floor().Add(one)
		tools := dec("max_tool_calls", b.MaxToolCalls).Floor().Add(one)
		iters := dec("median_iterations", b.MedianIterations).Ceil().Add(decimal.NewFromInt(5))
		time := dec("max_execution_time", b.MaxExecutionTime).Add(one)
		cost := dec("max_cost", b.MaxCost).Add(one)
		if err != nil {
			return nil, err
		}
		time, cost = decimal.Min(time, wire.MaxAmount), decimal.Min(cost, wire.MaxAmount)
		return &subnetv1.MsgReport{SubmissionId: sub, Measurement: &subnetv1.MsgReport_Arena{Arena: &subnetv1.ArenaMeasurement{
			TotalTokens: min(tokens.IntPart(), wire.MaxCount), ToolCalls: min(tools.IntPart(), wire.MaxCount),
			Iterations: min(iters.IntPart(), wire.MaxCount), ExecutionTime: time.String(), EstimatedCost: cost.String()}}}, nil
	}
	return nil, fmt.Errorf("task %d: neither a workflow nor an arena task", task.ID)
}
