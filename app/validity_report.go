package app

import (
	"fmt"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

func (a *App) checkReport(st state, ct *checkedTx, m *subnetv1.MsgReport, bc blockCtx) *TxError {
	if terr := a.requireValidator(ct, "report"); terr != nil {
		return terr
	}
	sub, ok := st.submission(m.SubmissionId)
	if !ok {
		return reject(CodeUnknownSubmission, fmt.Sprintf("submission_id = %d: no such submission", m.SubmissionId))
	}
	if sub.Status != statusPending {
		return reject(CodeSubmissionFinal, fmt.Sprintf("submission_id = %d is %s", m.SubmissionId, sub.Status))
	}
	if sub.Track == genesis.TrackGas {
		return reject(CodeWrongKind, fmt.Sprintf("submission_id = %d is a gas prediction: it is scored by Truth, not Report", m.SubmissionId))
	}
	if bc.height > sub.ReportDeadline {
		return reject(CodeReportDeadline, fmt.Sprintf("submission_id = %d: reports closed at height %d (now %d)", m.SubmissionId, sub.ReportDeadline, bc.height))
	}
	for _, v := range sub.Votes {
		if int(v.Validator) == ct.validator {
			return reject(CodeDuplicateReport, fmt.Sprintf("validator %q already reported on submission %d", a.chain.gen.Validators[ct.validator].Name, m.SubmissionId))
		}
	}
	task, ok := st.task(sub.TaskId)
	if !ok {
		panic(fmt.Sprintf("app: submission %d refers to missing task %d", sub.Id, sub.TaskId))
	}
	switch k := m.Measurement.(type) {
	case *subnetv1.MsgReport_Workflow:
		if sub.Track != genesis.TrackWorkflow {
			return reject(CodeWrongKind, fmt.Sprintf("submission_id = %d is %s, the report is workflow", m.SubmissionId, sub.Track))
		}
		if k.Workflow == nil {
			return reject(CodeEmptyMsg, "report.workflow is empty")
		}
		return checkWorkflowMeasurement(k.Workflow, task.GetWorkflow().TotalSteps)
	case *subnetv1.MsgReport_Arena:
		if sub.Track != genesis.TrackArena {
			return reject(CodeWrongKind, fmt.Sprintf("submission_id = %d is %s, the report is arena", m.SubmissionId, sub.Track))
		}
		if k.Arena == nil {
			return reject(CodeEmptyMsg, "report.arena is empty")
		}
		return checkArenaMeasurement(k.Arena, task.GetArena().CriteriaTotal)
	}
	return reject(CodeEmptyMsg, "report has no measurement")
}

func checkWorkflowMeasurement(w *subnetv1.WorkflowMeasurement, totalSteps int64) *TxError {
	_, e1 := fraction("output_quality", w.OutputQuality)
	_, e2 := amount("cost", w.Cost)
	_, e3 := amount("latency_seconds", w.LatencySeconds)
	if terr := firstErr(e1, count("steps_completed", w.StepsCompleted, false), e2, e3,
		count("retries", w.Retries, false), count("timeouts", w.Timeouts, false),
		count("hard_failures", w.HardFailures, false)); terr != nil {
		return terr
	}
	if w.StepsCompleted > totalSteps {
		return reject(CodeStepsExceedTotal, fmt.Sprintf("steps_completed = %d: the task has total_steps = %d", w.StepsCompleted, totalSteps))
	}
	return nil
}

func checkArenaMeasurement(m *subnetv1.ArenaMeasurement, criteriaTotal int64) *TxError {
	_, e1 := amount("execution_time", m.ExecutionTime)
	_, e2 := amount("estimated_cost", m.EstimatedCost)
	if terr := firstErr(count("total_tokens", m.TotalTokens, false), count("tool_calls", m.ToolCalls, false),
		count("iterations", m.Iterations, true), e1, e2,
		count("criteria_passed", m.CriteriaPassed, false)); terr != nil {
		return terr
	}
	if m.CriteriaPassed > criteriaTotal {
		return reject(CodeCriteriaExceedTotal, fmt.Sprintf("criteria_passed = %d: the task has criteria_total = %d", m.CriteriaPassed, criteriaTotal))
	}
	return nil
}
