package tasks

import (
	"sort"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
	"github.com/scoringsubnet/validatord/x/quorum"
	"github.com/scoringsubnet/validatord/x/receipt"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// ScoreArena scores the arena submissions that became final (the DueArena
// schedule), as many as the meter allows, task by task (ascending task id,
// then submission id), each against its task's baseline as it stood before
// this block's scoring; then each task's baseline takes the scored
// submissions at once. Before taking a submission it reserves the bytes its
// scoring can write (its record with a receipt, the miner's window, the
// task's baseline); what does not fit waits, in order, for the next block
// (carried is true).
func ScoreArena(env kernel.Env, m *budget.Meter) (evs []abcitypes.Event, carried bool) {
	st, h := env.St, env.Block.Height
	due := store.Due{St: st, Kind: store.DueArena}
	var subs []*subnetv1.Submission
	reservedTask := make(map[uint64]bool) // tasks whose baseline is reserved for (lookups only)
	reserved, done := 0, 0
	look := m.Looker(&done, &carried)
	for {
		it, ok := due.Next(h, look)
		if !ok {
			break
		}
		sub, _ := st.Submission(it.IDs[0])
		need := arenaItemBytes(st, sub)
		if !reservedTask[sub.TaskId] {
			need += storedBytes(st, store.KeyBaseline(sub.TaskId))
		}
		if len(subs) > 0 && !m.EndFits(reserved+need) {
			carried = true
			break
		}
		reserved += need
		m.ChargeEnd(budget.UnitsArena)
		reservedTask[sub.TaskId] = true
		subs = append(subs, sub)
		done++
		due.Done(it)
	}
	sort.Slice(subs, func(i, j int) bool {
		if subs[i].TaskId != subs[j].TaskId {
			return subs[i].TaskId < subs[j].TaskId
		}
		return subs[i].Id < subs[j].Id
	})
	for i := 0; i < len(subs); {
		j := i
		for j < len(subs) && subs[j].TaskId == subs[i].TaskId {
			j++
		}
		evs = append(evs, scoreArenaTask(env, subs[i:j])...)
		i = j
	}
	return evs, carried
}

// Bounds of what scoring one arena submission adds to its records: the
// receipt (the inputs, params, values and one power field per vote) and one
// sample in the task's baseline.
const (
	arenaReceiptBytes   = 4096
	receiptVoteBytes    = 64
	baselineSampleBytes = 160
)

// arenaItemBytes bounds the writes of scoring sub: its record with a
// receipt, the miner's arena window, and its sample in the task's baseline.
func arenaItemBytes(st store.State, sub *subnetv1.Submission) int {
	rec := sub.Size() + arenaReceiptBytes + receiptVoteBytes*len(sub.Votes) + store.EntryOverhead + 9
	win := storedBytes(st, store.KeyWindow(store.WindowArena, sub.Uid)) + 64
	return rec + win + baselineSampleBytes
}

// storedBytes is what rewriting the entry at k counts, at its present size.
func storedBytes(st store.State, k []byte) int {
	bz, _ := st.O.Get(k)
	return len(k) + len(bz) + store.EntryOverhead
}

func scoreArenaTask(env kernel.Env, subs []*subnetv1.Submission) []abcitypes.Event {
	st, wp := env.St, env.Chain.Gen.Window
	t, _ := st.Task(subs[0].TaskId)
	at := t.GetArena()
	pb := &subnetv1.Baseline{}
	st.Load(store.KeyBaseline(t.Id), pb)
	bl := kernel.BaselineStateFromProto(pb)
	stats := bl.StatsFor(wp, kernel.BaselineFromProto(at.DefaultBaseline))
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
	st.Save(store.KeyBaseline(t.Id), kernel.BaselineStateToProto(next))
	return evs
}

// scoreArenaOne scores one final arena submission; ok reports whether it
// scored (and so joins the baseline).
func scoreArenaOne(env kernel.Env, sub *subnetv1.Submission, at *subnetv1.ArenaTask, stats scoring.ArenaBaseline) (scoring.ArenaSubmission, []abcitypes.Event, bool) {
	ap := env.Chain.Gen.Arena
	out, err := aggregate(env.Chain, sub.Votes, true)
	r := &subnetv1.Receipt{Height: env.Block.Height, Track: genesis.TrackArena, ReportedPower: out.ReportedPower, TotalPower: out.TotalPower}
	kernel.Attach(sub, r)
	if err != nil || out.Status != quorum.StatusFinal {
		sub.Status, r.Status, r.Note = kernel.StatusFailed, kernel.StatusFailed, "aggregation did not settle at the end of the block"
		return scoring.ArenaSubmission{}, nil, false
	}
	v := out.Values
	s := scoring.ArenaSubmission{TotalTokens: v[0].IntPart(), ToolCalls: v[1].IntPart(), Iterations: v[2].IntPart(),
		ExecutionTime: v[3], EstimatedCost: v[4], CriteriaPassed: v[5].IntPart(), CriteriaTotal: at.CriteriaTotal}
	r.Inputs = receipt.ArenaInputs(s, at.Category, at.Difficulty)
	r.Params = receipt.ArenaParams(ap, stats)
	r.Params = append(r.Params, receipt.ArenaTables(ap, at.Category, at.Difficulty)...)
	r.Params = append(r.Params, receipt.VotePowers(sub.Votes, env.Chain.Registry())...)
	res, err := scoring.ScoreArena(ap, s, stats, at.Category, at.Difficulty)
	if err != nil {
		sub.Status, r.Status, r.Note = kernel.StatusFailed, kernel.StatusFailed, "score: "+err.Error()
		return s, nil, false
	}
	r.Values = receipt.ArenaValues(res, s, stats)
	wevs, err := pushWindow(env, store.WindowArena, sub, scoring.Quo(res.Overall, scoring.Hundred))
	if err != nil {
		sub.Status, r.Status, r.Note = kernel.StatusFailed, kernel.StatusFailed, "window: "+err.Error()
		return s, nil, false
	}
	r.Score, r.Status, sub.Status = kernel.FmtDec(res.Overall), kernel.StatusScored, kernel.StatusScored
	return s, append([]abcitypes.Event{kernel.ScoredEvent(sub, res.Overall)}, wevs...), true
}
