package tasks

import (
	"fmt"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
)

func checkPostTask(env kernel.Env, tx *kernel.Tx, m *subnetv1.MsgPostTask) *wire.TxError {
	if terr := env.RequireValidator(tx, "post_task"); terr != nil {
		return terr
	}
	if open, limit := env.St.U64(store.KeyOpenTasks(tx.Validator)), env.Chain.Gen.Chain.MaxOpenTasks; open >= limit {
		return wire.Reject(wire.CodeTooManyOpenTasks, fmt.Sprintf("validator %q has %d tasks not yet settled; chain.max_open_tasks is %d",
			env.Chain.ValidatorName(tx.Validator), open, limit))
	}
	switch t := m.Task.(type) {
	case *subnetv1.MsgPostTask_Workflow:
		if t.Workflow == nil {
			return wire.Reject(wire.CodeEmptyMsg, "post_task.workflow is empty")
		}
		return checkWorkflowTask(env, t.Workflow)
	case *subnetv1.MsgPostTask_Arena:
		if t.Arena == nil {
			return wire.Reject(wire.CodeEmptyMsg, "post_task.arena is empty")
		}
		return checkArenaTask(env, t.Arena)
	}
	return wire.Reject(wire.CodeEmptyMsg, "post_task has no task")
}

func checkBlocks(env kernel.Env, submission, report int64) *wire.TxError {
	cp := env.Chain.Gen.Chain
	if submission < 1 || submission > cp.MaxSubmissionBlocks {
		return wire.Reject(wire.CodeBlocksRange, fmt.Sprintf("submission_blocks = %d: must be in [1, %d]", submission, cp.MaxSubmissionBlocks))
	}
	if report < 1 || report > cp.MaxReportBlocks {
		return wire.Reject(wire.CodeBlocksRange, fmt.Sprintf("report_blocks = %d: must be in [1, %d]", report, cp.MaxReportBlocks))
	}
	return nil
}

func checkWorkflowTask(env kernel.Env, t *subnetv1.WorkflowTask) *wire.TxError {
	if terr := env.RequireTrack(genesis.TrackWorkflow); terr != nil {
		return terr
	}
	_, e1 := wire.PositiveAmount("max_budget", t.MaxBudget)
	_, e2 := wire.PositiveAmount("max_latency_seconds", t.MaxLatencySeconds)
	return wire.FirstErr(wire.Count("total_steps", t.TotalSteps, true), e1, e2, checkBlocks(env, t.SubmissionBlocks, t.ReportBlocks))
}

func checkArenaTask(env kernel.Env, t *subnetv1.ArenaTask) *wire.TxError {
	if terr := env.RequireTrack(genesis.TrackArena); terr != nil {
		return terr
	}
	if !env.Chain.HasCategory(t.Category) {
		return wire.Reject(wire.CodeUnknownCategory, fmt.Sprintf("category = %q: not in the arena params", t.Category))
	}
	if !env.Chain.HasDifficulty(t.Difficulty) {
		return wire.Reject(wire.CodeUnknownCategory, fmt.Sprintf("difficulty = %q: not in the arena params", t.Difficulty))
	}
	if terr := wire.Count("criteria_total", t.CriteriaTotal, true); terr != nil {
		return terr
	}
	if terr := checkBlocks(env, t.SubmissionBlocks, t.ReportBlocks); terr != nil {
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
	dst := kernel.ScoringBaselineFields(&out)
	for i, src := range kernel.BaselineFields(b) {
		d, terr := wire.Amount("default_baseline."+kernel.BaselineNames[i], *src)
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

func execPostTask(env kernel.Env, tx *kernel.Tx, m *subnetv1.MsgPostTask) []abcitypes.Event {
	st, h := env.St, env.Block.Height
	c := st.Counters()
	t := &subnetv1.Task{Id: c.NextTaskId, Poster: tx.Body.Sender, PostedHeight: h}
	c.NextTaskId++
	st.Save(store.KeyCounters, c)
	var sb, rb int64
	if w := m.GetWorkflow(); w != nil {
		cw := *w
		cw.MaxBudget = kernel.FmtDec(kernel.Dec(w.MaxBudget))
		cw.MaxLatencySeconds = kernel.FmtDec(kernel.Dec(w.MaxLatencySeconds))
		t.Spec = &subnetv1.Task_Workflow{Workflow: &cw}
		sb, rb = w.SubmissionBlocks, w.ReportBlocks
	} else {
		ar := *m.GetArena()
		ar.DefaultBaseline = canonicalBaseline(ar.DefaultBaseline)
		t.Spec = &subnetv1.Task_Arena{Arena: &ar}
		sb, rb = ar.SubmissionBlocks, ar.ReportBlocks
	}
	t.SubmitDeadline = h + sb
	t.RevealDeadline = t.SubmitDeadline + env.Chain.CommitParams(Track(t)).RevealBlocks
	t.ReportDeadline = t.RevealDeadline + rb
	st.Save(store.KeyTask(t.Id), t)
	store.Due{St: st, Kind: store.DueTasks}.Add(t.ReportDeadline, t.Id)
	st.IncU64(store.KeyOpenTasks(tx.Validator))
	st.IncU64(store.KeyTrackCount(store.TrackOpenTasks, Track(t)))
	return []abcitypes.Event{wire.Event(wire.EventTaskPosted, "task_id", kernel.U64s(t.Id), "track", Track(t),
		"submit_deadline", kernel.I64s(t.SubmitDeadline), "reveal_deadline", kernel.I64s(t.RevealDeadline), "report_deadline", kernel.I64s(t.ReportDeadline))}
}

// canonicalBaseline returns the baseline with every decimal in canonical
// form, the scoring default when none was given.
func canonicalBaseline(b *subnetv1.ArenaBaseline) *subnetv1.ArenaBaseline {
	if b == nil {
		return kernel.BaselineToProto(scoring.DefaultArenaBaseline())
	}
	out := &subnetv1.ArenaBaseline{SubmissionCount: b.SubmissionCount}
	src := kernel.BaselineFields(b)
	for i, dst := range kernel.BaselineFields(out) {
		*dst = kernel.FmtDec(kernel.Dec(*src[i]))
	}
	return out
}

// Track names the track of a task.
func Track(t *subnetv1.Task) string {
	if t.GetArena() != nil {
		return genesis.TrackArena
	}
	return genesis.TrackWorkflow
}
