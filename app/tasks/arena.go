package tasks

import (
	"sort"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/track"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/quorum"
	"github.com/scoringsubnet/validatord/x/receipt"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// ScoreArenaBatch scores the arena submissions that became final in this
// block, task by task (ascending task id, then submission id), each against
// its task's baseline as it stood before the block; then each task's
// baseline takes the block's scored submissions at once.
func ScoreArenaBatch(env track.Env) []abcitypes.Event {
	batch := env.Block.ArenaBatch
	subs := make([]*subnetv1.Submission, 0, len(batch))
	for _, id := range batch {
		sub, _ := env.St.Submission(id)
		subs = append(subs, sub)
	}
	sort.Slice(subs, func(i, j int) bool {
		if subs[i].TaskId != subs[j].TaskId {
			return subs[i].TaskId < subs[j].TaskId
		}
		return subs[i].Id < subs[j].Id
	})
	var evs []abcitypes.Event
	for i := 0; i < len(subs); {
		j := i
		for j < len(subs) && subs[j].TaskId == subs[i].TaskId {
			j++
		}
		evs = append(evs, scoreArenaTask(env, subs[i:j])...)
		i = j
	}
	env.Block.ArenaBatch = nil
	return evs
}

func scoreArenaTask(env track.Env, subs []*subnetv1.Submission) []abcitypes.Event {
	st, wp := env.St, env.Chain.Gen.Window
	t, _ := st.Task(subs[0].TaskId)
	at := t.GetArena()
	pb := &subnetv1.Baseline{}
	st.Load(store.KeyBaseline(t.Id), pb)
	bl := track.BaselineStateFromProto(pb)
	stats := bl.StatsFor(wp, track.BaselineFromProto(at.DefaultBaseline))
	var batch []scoring.ArenaSubmission
	var evs []abcitypes.Event
	for _, sub := range subs {
		s, e, ok := scoreArenaOne(env, sub, at, stats)
		evs = append(evs, e...)
		if ok {
			batch = append(batch, s)
		}
		st.Save(store.KeySubmission(sub.Id), sub)
	}
	if len(batch) == 0 {
		return evs
	}
	next, err := bl.Add(wp, batch)
	if err != nil {
		panic("tasks: baseline add of validated submissions: " + err.Error())
	}
	st.Save(store.KeyBaseline(t.Id), track.BaselineStateToProto(next))
	return evs
}

// scoreArenaOne scores one final arena submission; ok reports whether it
// scored (and so joins the baseline).
func scoreArenaOne(env track.Env, sub *subnetv1.Submission, at *subnetv1.ArenaTask, stats scoring.ArenaBaseline) (scoring.ArenaSubmission, []abcitypes.Event, bool) {
	ap := env.Chain.Gen.Arena
	out, err := aggregate(env.Chain, sub.Votes, true)
	r := &subnetv1.Receipt{Height: env.Block.Height, Track: genesis.TrackArena, ReportedPower: out.ReportedPower, TotalPower: out.TotalPower}
	sub.Receipt = r
	if err != nil || out.Status != quorum.StatusFinal {
		sub.Status, r.Status, r.Note = track.StatusFailed, track.StatusFailed, "aggregation did not settle at the end of the block"
		return scoring.ArenaSubmission{}, nil, false
	}
	v := out.Values
	s := scoring.ArenaSubmission{TotalTokens: v[0].IntPart(), ToolCalls: v[1].IntPart(), Iterations: v[2].IntPart(),
		ExecutionTime: v[3], EstimatedCost: v[4], CriteriaPassed: v[5].IntPart(), CriteriaTotal: at.CriteriaTotal}
	r.Inputs = receipt.ArenaInputs(s, at.Category, at.Difficulty)
	r.Params = receipt.ArenaParams(ap, stats)
	r.Params = append(r.Params, receipt.ArenaTables(ap, at.Category, at.Difficulty)...)
	r.Params = append(r.Params, receipt.VotePowers(sub.Votes, env.Chain.Gen.Validators)...)
	res, err := scoring.ScoreArena(ap, s, stats, at.Category, at.Difficulty)
	if err != nil {
		sub.Status, r.Status, r.Note = track.StatusFailed, track.StatusFailed, "score: "+err.Error()
		return s, nil, false
	}
	r.Values = receipt.ArenaValues(res)
	wevs, err := pushWindow(env, store.WindowArena, sub.Uid, scoring.Quo(res.Overall, scoring.Hundred))
	if err != nil {
		sub.Status, r.Status, r.Note = track.StatusFailed, track.StatusFailed, "window: "+err.Error()
		return s, nil, false
	}
	r.Score, r.Status, sub.Status = track.FmtDec(res.Overall), track.StatusScored, track.StatusScored
	return s, append([]abcitypes.Event{track.ScoredEvent(sub, res.Overall)}, wevs...), true
}
