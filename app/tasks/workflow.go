package tasks

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/quorum"
	"github.com/scoringsubnet/validatord/x/receipt"
	"github.com/scoringsubnet/validatord/x/scoring"
	"github.com/scoringsubnet/validatord/x/window"
)

// scoreWorkflow scores a workflow submission from its aggregated
// measurements (quality, steps, cost, latency, retries, declared retry
// budget, timeouts, hard failures: every input but the task's limits is a
// power-weighted median of the validators' votes, none is the miner's word),
// writes the receipt and pushes the score into the miner's window.
func scoreWorkflow(env kernel.Env, sub *subnetv1.Submission, out quorum.Outcome) []abcitypes.Event {
	st := env.St
	t, _ := st.Task(sub.TaskId)
	wt := t.GetWorkflow()
	v := out.Values
	in := scoring.WorkflowInput{
		OutputQuality: v[0], StepsCompleted: v[1].IntPart(), TotalSteps: wt.TotalSteps,
		Cost: v[2], MaxBudget: kernel.Dec(wt.MaxBudget), LatencySeconds: v[3], MaxLatencySeconds: kernel.Dec(wt.MaxLatencySeconds),
		Retries: v[4].IntPart(), DeclaredRetryBudget: v[5].IntPart(), Timeouts: v[6].IntPart(), HardFailures: v[7].IntPart(),
	}
	p := env.Chain.Gen.Workflow
	r := &subnetv1.Receipt{Height: env.Block.Height, Track: genesis.TrackWorkflow, ReportedPower: out.ReportedPower, TotalPower: out.TotalPower}
	r.Inputs = receipt.WorkflowInputs(in)
	r.Params = append(receipt.WorkflowParams(p), receipt.VotePowers(sub.Votes, env.Chain.Registry())...)
	res, err := scoring.ScoreWorkflow(p, in)
	if err != nil {
		sub.Status, r.Status, r.Note = kernel.StatusFailed, kernel.StatusFailed, "score: "+err.Error()
		kernel.Attach(sub, r)
		return nil
	}
	r.Values = receipt.WorkflowValues(res)
	kernel.Attach(sub, r)
	wevs, err := pushWindow(env, store.WindowWorkflow, sub, res.Score)
	if err != nil {
		sub.Status, r.Status, r.Note = kernel.StatusFailed, kernel.StatusFailed, "window: "+err.Error()
		return nil
	}
	r.Score, r.Status, sub.Status = kernel.FmtDec(res.Score), kernel.StatusScored, kernel.StatusScored
	return append([]abcitypes.Event{kernel.ScoredEvent(sub, res.Score)}, wevs...)
}

// pushWindow appends sub's score in [0, 1] to its miner's window of the
// track; a score window.Push refuses leaves the window unchanged, and so
// does the submission of a previous owner of the uid (kernel.ErrPreviousOwner).
func pushWindow(env kernel.Env, tb byte, sub *subnetv1.Submission, score decimal.Decimal) ([]abcitypes.Event, error) {
	st, p, uid := env.St, env.Chain.Gen.Window, sub.Uid
	if kernel.PreviousOwner(st, sub) {
		return nil, kernel.ErrPreviousOwner
	}
	k := store.KeyWindow(tb, uid)
	pw := &subnetv1.Window{}
	st.Load(k, pw)
	w, err := kernel.WindowFromProto(pw).PushAt(p, env.Block.Height, score)
	if err != nil {
		return nil, err
	}
	st.Save(k, kernel.WindowToProto(w))
	name, agg := genesis.TrackWorkflow, w.Aggregate(p)
	if tb == store.WindowArena {
		name, agg = genesis.TrackArena, w.Warmed(p.ArenaWarmupTasks)
	}
	return []abcitypes.Event{wire.Event(wire.EventWindowUpdated, "uid", kernel.U64s(uint64(uid)), "track", name,
		"tasks_seen", kernel.U64s(w.TasksSeen), "aggregate", kernel.FmtDec(agg))}, nil
}

// Workflow is the workflow track: a miner's aggregate is its window's
// mean, discounted over window.WarmupTasks.
var Workflow kernel.Track = windowTrack{name: genesis.TrackWorkflow, tb: store.WindowWorkflow}

// Arena is the arena track: a miner's aggregate is the mean of its recent
// arena scores / 100, discounted over window.ArenaWarmupTasks.
var Arena kernel.Track = windowTrack{name: genesis.TrackArena, tb: store.WindowArena}

type windowTrack struct {
	name string
	tb   byte
}

func (w windowTrack) Name() string { return w.name }

// Aggregate is the miner's warmed window mean; a miner without a window, or
// whose latest scored task is more than the track's activity_cutoff_blocks
// before env.Block.Height, has none and takes no part in the track.
func (w windowTrack) Aggregate(env kernel.Env, uid uint32) (decimal.Decimal, bool) {
	pw := &subnetv1.Window{}
	if !env.St.Load(store.KeyWindow(w.tb, uid), pw) {
		return decimal.Decimal{}, false
	}
	tr, _ := env.Chain.Gen.Track(w.name)
	if !window.Active(pw.LastHeight, env.Block.Height, tr.ActivityCutoffBlocks) {
		return decimal.Decimal{}, false
	}
	mw, p := kernel.WindowFromProto(pw), env.Chain.Gen.Window
	if w.tb == store.WindowArena {
		return mw.Warmed(p.ArenaWarmupTasks), true
	}
	return mw.Aggregate(p), true
}
