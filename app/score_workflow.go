package app

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/quorum"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// scoreWorkflow scores a workflow submission from its aggregated
// measurements (quality, steps, cost, latency, retries, timeouts, hard
// failures), writes the receipt and pushes the score into the miner's window.
func (a *App) scoreWorkflow(st state, sub *subnetv1.Submission, out quorum.Outcome, bs *blockState) []abcitypes.Event {
	t, _ := st.task(sub.TaskId)
	wt := t.GetWorkflow()
	v := out.Values
	in := scoring.WorkflowInput{
		OutputQuality: v[0], StepsCompleted: v[1].IntPart(), TotalSteps: wt.TotalSteps,
		Cost: v[2], MaxBudget: mustDec(wt.MaxBudget), LatencySeconds: v[3], MaxLatencySeconds: mustDec(wt.MaxLatencySeconds),
		Retries: v[4].IntPart(), DeclaredRetryBudget: sub.DeclaredRetryBudget, Timeouts: v[5].IntPart(), HardFailures: v[6].IntPart(),
	}
	p := a.chain.gen.Workflow
	r := &subnetv1.Receipt{Height: bs.height, Track: genesis.TrackWorkflow, ReportedPower: out.ReportedPower, TotalPower: out.TotalPower}
	r.Inputs = workflowInputFields(in)
	r.Params = append(workflowParamFields(p), a.votePowerFields(sub.Votes)...)
	res, err := scoring.ScoreWorkflow(p, in)
	if err != nil {
		sub.Status, r.Status, r.Note = statusFailed, statusFailed, "score: "+err.Error()
		sub.Receipt = r
		return nil
	}
	var f fields
	f.dec("completion_ratio", res.CompletionRatio)
	f.dec("s_success", res.Success)
	f.bool("gated", res.Gated)
	f.dec("s_cost", res.Cost)
	f.dec("s_latency", res.Latency)
	f.int("unplanned_retries", res.UnplannedRetries)
	f.dec("s_reliability", res.Reliability)
	r.Values = f
	sub.Receipt = r
	wevs, err := a.pushWindow(st, windowWorkflow, sub.Uid, res.Score)
	if err != nil {
		sub.Status, r.Status, r.Note = statusFailed, statusFailed, "window: "+err.Error()
		return nil
	}
	r.Score, r.Status, sub.Status = fmtDec(res.Score), statusScored, statusScored
	return append([]abcitypes.Event{scoredEvent(sub, res.Score)}, wevs...)
}

func workflowInputFields(in scoring.WorkflowInput) fields {
	var f fields
	f.dec("output_quality", in.OutputQuality)
	f.int("steps_completed", in.StepsCompleted)
	f.int("total_steps", in.TotalSteps)
	f.dec("cost", in.Cost)
	f.dec("max_budget", in.MaxBudget)
	f.dec("latency_seconds", in.LatencySeconds)
	f.dec("max_latency_seconds", in.MaxLatencySeconds)
	f.int("retries", in.Retries)
	f.int("declared_retry_budget", in.DeclaredRetryBudget)
	f.int("timeouts", in.Timeouts)
	f.int("hard_failures", in.HardFailures)
	return f
}

func workflowParamFields(p scoring.WorkflowParams) fields {
	var f fields
	f.dec("w_success", p.WSuccess)
	f.dec("w_cost", p.WCost)
	f.dec("w_latency", p.WLatency)
	f.dec("w_reliability", p.WReliability)
	f.dec("gate", p.Gate)
	f.dec("retry_penalty", p.RetryPenalty)
	f.dec("timeout_penalty", p.TimeoutPenalty)
	f.dec("failure_penalty", p.FailurePenalty)
	return f
}

func scoredEvent(sub *subnetv1.Submission, score decimal.Decimal) abcitypes.Event {
	return wire.Event(wire.EventSubmissionScored, "submission_id", u64s(sub.Id), "uid", u64s(uint64(sub.Uid)),
		"track", sub.Track, "score", fmtDec(score))
}

// pushWindow appends a score in [0, 1] to the miner's window of the track;
// a score window.Push refuses leaves the window unchanged.
func (a *App) pushWindow(st state, track byte, uid uint32, score decimal.Decimal) ([]abcitypes.Event, error) {
	k := keyWindow(track, uid)
	pw := &subnetv1.Window{}
	st.load(k, pw)
	w, err := windowFromProto(pw).Push(a.chain.gen.Window, score)
	if err != nil {
		return nil, err
	}
	st.save(k, windowToProto(w))
	name, agg := genesis.TrackWorkflow, w.Aggregate(a.chain.gen.Window)
	if track == windowArena {
		name, agg = genesis.TrackArena, w.Mean()
	}
	return []abcitypes.Event{wire.Event(wire.EventWindowUpdated, "uid", u64s(uint64(uid)), "track", name,
		"tasks_seen", u64s(w.TasksSeen), "aggregate", fmtDec(agg))}, nil
}
