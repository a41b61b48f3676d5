package tasks

import (
	"fmt"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

func checkWorkflowMeasurement(w *subnetv1.WorkflowMeasurement, totalSteps int64) *wire.TxError {
	_, e1 := wire.Fraction("output_quality", w.OutputQuality)
	_, e2 := wire.Amount("cost", w.Cost)
	_, e3 := wire.Amount("latency_seconds", w.LatencySeconds)
	if terr := wire.FirstErr(e1, wire.Count("steps_completed", w.StepsCompleted, false), e2, e3,
		wire.Count("retries", w.Retries, false), wire.Count("declared_retry_budget", w.DeclaredRetryBudget, false),
		wire.Count("timeouts", w.Timeouts, false),
		wire.Count("hard_failures", w.HardFailures, false)); terr != nil {
		return terr
	}
	if w.StepsCompleted > totalSteps {
		return wire.Reject(wire.CodeStepsExceedTotal, fmt.Sprintf("steps_completed = %d: the task has total_steps = %d", w.StepsCompleted, totalSteps))
	}
	return nil
}

func checkArenaMeasurement(m *subnetv1.ArenaMeasurement, criteriaTotal int64) *wire.TxError {
	_, e1 := wire.Amount("execution_time", m.ExecutionTime)
	_, e2 := wire.Amount("estimated_cost", m.EstimatedCost)
	if terr := wire.FirstErr(wire.Count("total_tokens", m.TotalTokens, false), wire.Count("tool_calls", m.ToolCalls, false),
		wire.Count("iterations", m.Iterations, true), e1, e2,
		wire.Count("criteria_passed", m.CriteriaPassed, false)); terr != nil {
		return terr
	}
	if m.CriteriaPassed > criteriaTotal {
		return wire.Reject(wire.CodeCriteriaExceedTotal, fmt.Sprintf("criteria_passed = %d: the task has criteria_total = %d", m.CriteriaPassed, criteriaTotal))
	}
	return nil
}

func canonicalWorkflowMeasurement(w *subnetv1.WorkflowMeasurement) *subnetv1.WorkflowMeasurement {
	c := *w
	c.OutputQuality = kernel.FmtDec(kernel.Dec(w.OutputQuality))
	c.Cost = kernel.FmtDec(kernel.Dec(w.Cost))
	c.LatencySeconds = kernel.FmtDec(kernel.Dec(w.LatencySeconds))
	return &c
}

func canonicalArenaMeasurement(m *subnetv1.ArenaMeasurement) *subnetv1.ArenaMeasurement {
	c := *m
	c.ExecutionTime = kernel.FmtDec(kernel.Dec(m.ExecutionTime))
	c.EstimatedCost = kernel.FmtDec(kernel.Dec(m.EstimatedCost))
	return &c
}
