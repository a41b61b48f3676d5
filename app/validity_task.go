package app

import (
	"fmt"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
)

func (a *App) checkPostTask(ct *checkedTx, m *subnetv1.MsgPostTask) *TxError {
	if terr := a.requireValidator(ct, "post_task"); terr != nil {
		return terr
	}
	switch t := m.Task.(type) {
	case *subnetv1.MsgPostTask_Workflow:
		if t.Workflow == nil {
			return reject(CodeEmptyMsg, "post_task.workflow is empty")
		}
		return a.checkWorkflowTask(t.Workflow)
	case *subnetv1.MsgPostTask_Arena:
		if t.Arena == nil {
			return reject(CodeEmptyMsg, "post_task.arena is empty")
		}
		return a.checkArenaTask(t.Arena)
	}
	return reject(CodeEmptyMsg, "post_task has no task")
}

func (a *App) checkBlocks(submission, report int64) *TxError {
	cp := a.chain.gen.Chain
	if submission < 1 || submission > cp.MaxSubmissionBlocks {
		return reject(CodeBlocksRange, fmt.Sprintf("submission_blocks = %d: must be in [1, %d]", submission, cp.MaxSubmissionBlocks))
	}
	if report < 1 || report > cp.MaxReportBlocks {
		return reject(CodeBlocksRange, fmt.Sprintf("report_blocks = %d: must be in [1, %d]", report, cp.MaxReportBlocks))
	}
	return nil
}

func (a *App) checkWorkflowTask(t *subnetv1.WorkflowTask) *TxError {
	if terr := a.requireTrack(genesis.TrackWorkflow); terr != nil {
		return terr
	}
	_, e1 := positiveAmount("max_budget", t.MaxBudget)
	_, e2 := positiveAmount("max_latency_seconds", t.MaxLatencySeconds)
	return firstErr(count("total_steps", t.TotalSteps, true), e1, e2, a.checkBlocks(t.SubmissionBlocks, t.ReportBlocks))
}

func (a *App) checkArenaTask(t *subnetv1.ArenaTask) *TxError {
	if terr := a.requireTrack(genesis.TrackArena); terr != nil {
		return terr
	}
	if !a.chain.hasCategory(t.Category) {
		return reject(CodeUnknownCategory, fmt.Sprintf("category = %q: not in the arena params", t.Category))
	}
	if !a.chain.hasDifficulty(t.Difficulty) {
		return reject(CodeUnknownCategory, fmt.Sprintf("difficulty = %q: not in the arena params", t.Difficulty))
	}
	if terr := count("criteria_total", t.CriteriaTotal, true); terr != nil {
		return terr
	}
	if terr := a.checkBlocks(t.SubmissionBlocks, t.ReportBlocks); terr != nil {
		return terr
	}
	if t.DefaultBaseline == nil {
		return nil
	}
	return checkBaseline(t.DefaultBaseline)
}

// checkBaseline parses every field (non-negative amounts) and applies
// scoring's consistency checks (min ≤ median ≤ max, ...).
func checkBaseline(b *subnetv1.ArenaBaseline) *TxError {
	if terr := count("default_baseline.submission_count", b.SubmissionCount, false); terr != nil {
		return terr
	}
	out := scoring.ArenaBaseline{SubmissionCount: b.SubmissionCount}
	dst := scoringBaselineFields(&out)
	for i, src := range baselineFields(b) {
		d, terr := amount("default_baseline."+baselineNames[i], *src)
		if terr != nil {
			return terr
		}
		*dst[i] = d
	}
	if err := out.Validate(); err != nil {
		return reject(CodeBadBaseline, "default_baseline: "+err.Error())
	}
	return nil
}
