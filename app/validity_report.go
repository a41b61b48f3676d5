package app

import (
	"fmt"

	"github.com/scoringsubnet/validatord/app/wire"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

func (a *App) checkReport(st state, ct *checkedTx, m *subnetv1.MsgReport, bc blockCtx) *wire.TxError {
	if terr := a.requireValidator(ct, "report"); terr != nil {
		return terr
	}
	sub, ok := st.submission(m.SubmissionId)
	if !ok {
		return wire.Reject(wire.CodeUnknownSubmission, fmt.Sprintf("submission_id = %d: no such submission", m.SubmissionId))
	}
	if sub.Status != statusPending {
		return wire.Reject(wire.CodeSubmissionFinal, fmt.Sprintf("submission_id = %d is %s", m.SubmissionId, sub.Status))
	}
	if sub.Track == genesis.TrackGas {
		return wire.Reject(wire.CodeWrongKind, fmt.Sprintf("submission_id = %d is a gas prediction: it is scored by Truth, not Report", m.SubmissionId))
	}
	if bc.height > sub.ReportDeadline {
		return wire.Reject(wire.CodeReportDeadline, fmt.Sprintf("submission_id = %d: reports closed at height %d (now %d)", m.SubmissionId, sub.ReportDeadline, bc.height))
	}
	for _, v := range sub.Votes {
		if int(v.Validator) == ct.validator {
			return wire.Reject(wire.CodeDuplicateReport, fmt.Sprintf("validator %q already reported on submission %d", a.chain.gen.Validators[ct.validator].Name, m.SubmissionId))
		}
	}
	task, ok := st.task(sub.TaskId)
	if !ok {
		panic(fmt.Sprintf("app: submission %d refers to missing task %d", sub.Id, sub.TaskId))
	}
	switch k := m.Measurement.(type) {
	case *subnetv1.MsgReport_Workflow:
		if sub.Track != genesis.TrackWorkflow {
			return wire.Reject(wire.CodeWrongKind, fmt.Sprintf("submission_id = %d is %s, the report is workflow", m.SubmissionId, sub.Track))
		}
		if k.Workflow == nil {
			return wire.Reject(wire.CodeEmptyMsg, "report.workflow is empty")
		}
		return checkWorkflowMeasurement(k.Workflow, task.GetWorkflow().TotalSteps)
	case *subnetv1.MsgReport_Arena:
		if sub.Track != genesis.TrackArena {
			return wire.Reject(wire.CodeWrongKind, fmt.Sprintf("submission_id = %d is %s, the report is arena", m.SubmissionId, sub.Track))
		}
		if k.Arena == nil {
			return wire.Reject(wire.CodeEmptyMsg, "report.arena is empty")
		}
		return checkArenaMeasurement(k.Arena, task.GetArena().CriteriaTotal)
	}
	return wire.Reject(wire.CodeEmptyMsg, "report has no measurement")
}

func checkWorkflowMeasurement(w *subnetv1.WorkflowMeasurement, totalSteps int64) *wire.TxError {
	_, e1 := wire.Fraction("output_quality", w.OutputQuality)
	_, e2 := wire.Amount("cost", w.Cost)
	_, e3 := wire.Amount("latency_seconds", w.LatencySeconds)
	if terr := wire.FirstErr(e1, wire.Count("steps_completed", w.StepsCompleted, false), e2, e3,
		wire.Count("retries", w.Retries, false), wire.Count("timeouts", w.Timeouts, false),
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
