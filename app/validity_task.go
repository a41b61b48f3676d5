package app

import (
	"fmt"

	"github.com/scoringsubnet/validatord/app/wire"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
)

func (a *App) checkPostTask(ct *checkedTx, m *subnetv1.MsgPostTask) *wire.TxError {
	if terr := a.requireValidator(ct, "post_task"); terr != nil {
		return terr
	}
	switch t := m.Task.(type) {
	case *subnetv1.MsgPostTask_Workflow:
		if t.Workflow == nil {
			return wire.Reject(wire.CodeEmptyMsg, "post_task.workflow is empty")
		}
		return a.checkWorkflowTask(t.Workflow)
	case *subnetv1.MsgPostTask_Arena:
		if t.Arena == nil {
			return wire.Reject(wire.CodeEmptyMsg, "post_task.arena is empty")
		}
		return a.checkArenaTask(t.Arena)
	}
	return wire.Reject(wire.CodeEmptyMsg, "post_task has no task")
}

func (a *App) checkBlocks(submission, report int64) *wire.TxError {
	cp := a.chain.gen.Chain
	if submission < 1 || submission > cp.MaxSubmissionBlocks {
		return wire.Reject(wire.CodeBlocksRange, fmt.Sprintf("submission_blocks = %d: must be in [1, %d]", submission, cp.MaxSubmissionBlocks))
	}
	if report < 1 || report > cp.MaxReportBlocks {
		return wire.Reject(wire.CodeBlocksRange, fmt.Sprintf("report_blocks = %d: must be in [1, %d]", report, cp.MaxReportBlocks))
	}
	return nil
}

func (a *App) checkWorkflowTask(t *subnetv1.WorkflowTask) *wire.TxError {
	if terr := a.requireTrack(genesis.TrackWorkflow); terr != nil {
		return terr
	}
	_, e1 := wire.PositiveAmount("max_budget", t.MaxBudget)
	_, e2 := wire.PositiveAmount("max_latency_seconds", t.MaxLatencySeconds)
	return wire.FirstErr(wire.Count("total_steps", t.TotalSteps, true), e1, e2, a.checkBlocks(t.SubmissionBlocks, t.ReportBlocks))
}

func (a *App) checkArenaTask(t *subnetv1.ArenaTask) *wire.TxError {
	if terr := a.requireTrack(genesis.TrackArena); terr != nil {
		return terr
	}
	if !a.chain.hasCategory(t.Category) {
		return wire.Reject(wire.CodeUnknownCategory, fmt.Sprintf("category = %q: not in the arena params", t.Category))
	}
	if !a.chain.hasDifficulty(t.Difficulty) {
		return wire.Reject(wire.CodeUnknownCategory, fmt.Sprintf("difficulty = %q: not in the arena params", t.Difficulty))
	}
	if terr := wire.Count("criteria_total", t.CriteriaTotal, true); terr != nil {
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
func checkBaseline(b *subnetv1.ArenaBaseline) *wire.TxError {
	if terr := wire.Count("default_baseline.submission_count", b.SubmissionCount, false); terr != nil {
		return terr
	}
	out := scoring.ArenaBaseline{SubmissionCount: b.SubmissionCount}
	dst := scoringBaselineFields(&out)
	for i, src := range baselineFields(b) {
		d, terr := wire.Amount("default_baseline."+baselineNames[i], *src)
		if terr != nil {
			return terr
		}
		*dst[i] = d
	}
	if err := out.Validate(); err != nil {
		return wire.Reject(wire.CodeBadBaseline, "default_baseline: "+err.Error())
	}
	return nil
}
