package app

import (
	"sort"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/quorum"
	"github.com/scoringsubnet/validatord/x/scoring"
)

var defaultArenaBaseline = scoring.DefaultArenaBaseline

// scoreArenaBatch scores the arena submissions that became final in this
// block, task by task (ascending task id, then submission id), each against
// its task's baseline as it stood before the block; then each task's
// baseline takes the block's scored submissions at once.
func (a *App) scoreArenaBatch(st state, bs *blockState) []abcitypes.Event {
	subs := make([]*subnetv1.Submission, 0, len(bs.arenaBatch))
	for _, id := range bs.arenaBatch {
		sub, _ := st.submission(id)
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
		evs = append(evs, a.scoreArenaTask(st, subs[i:j], bs)...)
		i = j
	}
	bs.arenaBatch = nil
	return evs
}

func (a *App) scoreArenaTask(st state, subs []*subnetv1.Submission, bs *blockState) []abcitypes.Event {
	t, _ := st.task(subs[0].TaskId)
	at := t.GetArena()
	pb := &subnetv1.Baseline{}
	st.load(keyBaseline(t.Id), pb)
	bl := baselineStateFromProto(pb)
	stats := bl.StatsFor(a.chain.gen.Window, baselineFromProto(at.DefaultBaseline))
	var batch []scoring.ArenaSubmission
	var evs []abcitypes.Event
	for _, sub := range subs {
		s, e, ok := a.scoreArenaOne(st, sub, at, stats, bs)
		evs = append(evs, e...)
		if ok {
			batch = append(batch, s)
		}
		st.save(keySubmission(sub.Id), sub)
	}
	if len(batch) == 0 {
		return evs
	}
	next, err := bl.Add(a.chain.gen.Window, batch)
	if err != nil {
		panic("app: baseline add of validated submissions: " + err.Error())
	}
	st.save(keyBaseline(t.Id), baselineStateToProto(next))
	return evs
}

// scoreArenaOne scores one final arena submission; ok reports whether it
// scored (and so joins the baseline).
func (a *App) scoreArenaOne(st state, sub *subnetv1.Submission, at *subnetv1.ArenaTask, stats scoring.ArenaBaseline, bs *blockState) (scoring.ArenaSubmission, []abcitypes.Event, bool) {
	out, err := a.aggregate(sub.Votes, true)
	r := &subnetv1.Receipt{Height: bs.height, Track: genesis.TrackArena, ReportedPower: out.ReportedPower, TotalPower: out.TotalPower}
	sub.Receipt = r
	if err != nil || out.Status != quorum.StatusFinal {
		sub.Status, r.Status, r.Note = statusFailed, statusFailed, "aggregation did not settle at the end of the block"
		return scoring.ArenaSubmission{}, nil, false
	}
	v := out.Values
	s := scoring.ArenaSubmission{TotalTokens: v[0].IntPart(), ToolCalls: v[1].IntPart(), Iterations: v[2].IntPart(),
		ExecutionTime: v[3], EstimatedCost: v[4], CriteriaPassed: v[5].IntPart(), CriteriaTotal: at.CriteriaTotal}
	r.Inputs = arenaInputFields(s, at)
	r.Params = arenaParamFields(a.chain.gen.Arena, stats)
	r.Params = append(r.Params, arenaTableFields(a.chain.gen.Arena, at.Category, at.Difficulty)...)
	r.Params = append(r.Params, a.votePowerFields(sub.Votes)...)
	res, err := scoring.ScoreArena(a.chain.gen.Arena, s, stats, at.Category, at.Difficulty)
	if err != nil {
		sub.Status, r.Status, r.Note = statusFailed, statusFailed, "score: "+err.Error()
		return s, nil, false
	}
	r.Values = arenaResultFields(res)
	wevs, err := a.pushWindow(st, windowArena, sub.Uid, scoring.Quo(res.Overall, scoring.Hundred))
	if err != nil {
		sub.Status, r.Status, r.Note = statusFailed, statusFailed, "window: "+err.Error()
		return s, nil, false
	}
	r.Score, r.Status, sub.Status = fmtDec(res.Overall), statusScored, statusScored
	return s, append([]abcitypes.Event{scoredEvent(sub, res.Overall)}, wevs...), true
}

func arenaInputFields(s scoring.ArenaSubmission, at *subnetv1.ArenaTask) fields {
	var f fields
	f.int("total_tokens", s.TotalTokens)
	f.int("tool_calls", s.ToolCalls)
	f.int("iterations", s.Iterations)
	f.dec("execution_time", s.ExecutionTime)
	f.dec("estimated_cost", s.EstimatedCost)
	f.int("criteria_passed", s.CriteriaPassed)
	f.int("criteria_total", s.CriteriaTotal)
	f.str("category", at.Category)
	f.str("difficulty", at.Difficulty)
	return f
}

// arenaParamFields: the formula's constants and the baseline it scored against.
func arenaParamFields(p scoring.ArenaParams, b scoring.ArenaBaseline) fields {
	var f fields
	f.dec("token_weight", p.TokenWeight)
	f.dec("tool_call_weight", p.ToolCallWeight)
	f.dec("iteration_weight", p.IterationWeight)
	f.dec("speed_exponent", p.SpeedExponent)
	f.dec("missing_score", p.MissingScore)
	f.dec("iteration_step", p.IterationStep)
	f.dec("iteration_floor", p.IterationFloor)
	f.dec("iteration_over_step", p.IterationOverStep)
	f.int("baseline.submission_count", b.SubmissionCount)
	for i, d := range scoringBaselineFields(&b) {
		f.dec("baseline."+baselineNames[i], *d)
	}
	return f
}

// arenaTableFields: the rows of the category and difficulty tables that
// ScoreArena picks for the task, as weights.* (absent for a category the
// table does not have, which ScoreArena rejects) and difficulty_multiplier
// (1 for a difficulty the table does not have).
func arenaTableFields(p scoring.ArenaParams, category, difficulty string) fields {
	var f fields
	if w, err := p.WeightsFor(category); err == nil {
		f.dec("weights.efficiency", w.Efficiency)
		f.dec("weights.speed", w.Speed)
		f.dec("weights.cost", w.Cost)
		f.dec("weights.correctness", w.Correctness)
	}
	m := p.MultiplierFor(difficulty)
	f.dec("difficulty_multiplier", m)
	return f
}

func arenaResultFields(r scoring.ArenaResult) fields {
	var f fields
	f.dec("token_score", r.TokenScore)
	f.dec("tool_call_score", r.ToolCallScore)
	f.dec("iteration_score", r.IterationScore)
	f.dec("efficiency_exact", r.EfficiencyExact)
	f.dec("speed_exact", r.SpeedExact)
	f.dec("cost_exact", r.CostExact)
	f.dec("efficiency", r.Efficiency)
	f.dec("speed", r.Speed)
	f.dec("cost", r.Cost)
	f.dec("correctness", r.Correctness)
	f.dec("weight_efficiency", r.Weights.Efficiency)
	f.dec("weight_speed", r.Weights.Speed)
	f.dec("weight_cost", r.Weights.Cost)
	f.dec("weight_correctness", r.Weights.Correctness)
	f.dec("unadjusted", r.Unadjusted)
	f.dec("multiplier", r.Multiplier)
	f.dec("adjusted", r.Adjusted)
	f.dec("overall", r.Overall)
	return f
}
