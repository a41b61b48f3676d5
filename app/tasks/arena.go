package tasks

import (
	"sort"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/track"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/quorum"
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
	r.Inputs = arenaInputFields(s, at)
	r.Params = arenaParamFields(ap, stats)
	r.Params = append(r.Params, arenaTableFields(ap, at.Category, at.Difficulty)...)
	r.Params = append(r.Params, env.Chain.VotePowerFields(sub.Votes)...)
	res, err := scoring.ScoreArena(ap, s, stats, at.Category, at.Difficulty)
	if err != nil {
		sub.Status, r.Status, r.Note = track.StatusFailed, track.StatusFailed, "score: "+err.Error()
		return s, nil, false
	}
	r.Values = arenaResultFields(res)
	wevs, err := pushWindow(env, store.WindowArena, sub.Uid, scoring.Quo(res.Overall, scoring.Hundred))
	if err != nil {
		sub.Status, r.Status, r.Note = track.StatusFailed, track.StatusFailed, "window: "+err.Error()
		return s, nil, false
	}
	r.Score, r.Status, sub.Status = track.FmtDec(res.Overall), track.StatusScored, track.StatusScored
	return s, append([]abcitypes.Event{track.ScoredEvent(sub, res.Overall)}, wevs...), true
}

func arenaInputFields(s scoring.ArenaSubmission, at *subnetv1.ArenaTask) track.Fields {
	var f track.Fields
	f.Int("total_tokens", s.TotalTokens)
	f.Int("tool_calls", s.ToolCalls)
	f.Int("iterations", s.Iterations)
	f.Dec("execution_time", s.ExecutionTime)
	f.Dec("estimated_cost", s.EstimatedCost)
	f.Int("criteria_passed", s.CriteriaPassed)
	f.Int("criteria_total", s.CriteriaTotal)
	f.Str("category", at.Category)
	f.Str("difficulty", at.Difficulty)
	return f
}

// arenaParamFields: the formula's constants and the baseline it scored against.
func arenaParamFields(p scoring.ArenaParams, b scoring.ArenaBaseline) track.Fields {
	var f track.Fields
	f.Dec("token_weight", p.TokenWeight)
	f.Dec("tool_call_weight", p.ToolCallWeight)
	f.Dec("iteration_weight", p.IterationWeight)
	f.Dec("speed_exponent", p.SpeedExponent)
	f.Dec("missing_score", p.MissingScore)
	f.Dec("iteration_step", p.IterationStep)
	f.Dec("iteration_floor", p.IterationFloor)
	f.Dec("iteration_over_step", p.IterationOverStep)
	f.Int("baseline.submission_count", b.SubmissionCount)
	for i, d := range track.ScoringBaselineFields(&b) {
		f.Dec("baseline."+track.BaselineNames[i], *d)
	}
	return f
}

// arenaTableFields: the rows of the category and difficulty tables that
// ScoreArena picks for the task, as weights.* (absent for a category the
// table does not have, which ScoreArena rejects) and difficulty_multiplier
// (1 for a difficulty the table does not have).
func arenaTableFields(p scoring.ArenaParams, category, difficulty string) track.Fields {
	var f track.Fields
	if w, err := p.WeightsFor(category); err == nil {
		f.Dec("weights.efficiency", w.Efficiency)
		f.Dec("weights.speed", w.Speed)
		f.Dec("weights.cost", w.Cost)
		f.Dec("weights.correctness", w.Correctness)
	}
	m := p.MultiplierFor(difficulty)
	f.Dec("difficulty_multiplier", m)
	return f
}

func arenaResultFields(r scoring.ArenaResult) track.Fields {
	var f track.Fields
	f.Dec("token_score", r.TokenScore)
	f.Dec("tool_call_score", r.ToolCallScore)
	f.Dec("iteration_score", r.IterationScore)
	f.Dec("efficiency_exact", r.EfficiencyExact)
	f.Dec("speed_exact", r.SpeedExact)
	f.Dec("cost_exact", r.CostExact)
	f.Dec("efficiency", r.Efficiency)
	f.Dec("speed", r.Speed)
	f.Dec("cost", r.Cost)
	f.Dec("correctness", r.Correctness)
	f.Dec("weight_efficiency", r.Weights.Efficiency)
	f.Dec("weight_speed", r.Weights.Speed)
	f.Dec("weight_cost", r.Weights.Cost)
	f.Dec("weight_correctness", r.Weights.Correctness)
	f.Dec("unadjusted", r.Unadjusted)
	f.Dec("multiplier", r.Multiplier)
	f.Dec("adjusted", r.Adjusted)
	f.Dec("overall", r.Overall)
	return f
}
