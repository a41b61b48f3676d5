package app

import (
	"encoding/hex"
	"encoding/json"
	"sort"
	"strconv"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/tasks"
	"github.com/scoringsubnet/validatord/app/track"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
)

func parseU64(name, s string) (uint64, *queryError) {
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, badRequest("%s %q is not a non-negative integer", name, s)
	}
	return v, nil
}

func parseUID(s string) (uint32, *queryError) {
	v, err := strconv.ParseUint(s, 10, 16)
	if err != nil {
		return 0, badRequest("uid %q is not an integer in [0, 65535]", s)
	}
	return uint32(v), nil
}

func (q *querier) status(_ []string) (any, *queryError) {
	out := map[string]any{"height": q.a.height, "app_hash": hex.EncodeToString(q.a.appHash), "chain_id": nil}
	if q.a.chain != nil {
		out["chain_id"] = q.a.chain.ID
	}
	return out, nil
}

func (q *querier) params(_ []string) (any, *queryError) {
	raw, _ := q.st.O.Get(store.KeyGenesis)
	return map[string]any{"chain_id": q.a.chain.ID, "app_state": json.RawMessage(raw)}, nil
}

type validatorView struct {
	Index     int    `json:"index"`
	Name      string `json:"name"`
	Address   string `json:"address"`
	Power     int64  `json:"power"`
	ReportKey string `json:"report_key"`
}

func (q *querier) validators(_ []string) (any, *queryError) {
	vals := make([]validatorView, len(q.a.chain.Gen.Validators))
	for i, v := range q.a.chain.Gen.Validators {
		vals[i] = validatorView{Index: i, Name: v.Name, Address: v.Address, Power: v.Power, ReportKey: v.ReportKey}
	}
	return map[string]any{"validators": vals, "total_power": q.a.chain.Total}, nil
}

func (q *querier) account(args []string) (any, *queryError) {
	pub, err := hex.DecodeString(args[0])
	if err != nil || len(pub) != 32 {
		return nil, badRequest("account %q is not a hex 32-byte ed25519 public key", args[0])
	}
	acc := q.st.Account(pub)
	out := map[string]any{"pubkey": args[0], "next_nonce": acc.NextNonce, "miner": acc.Miner, "uid": nil, "validator": nil}
	if acc.Miner {
		out["uid"] = acc.Uid
	}
	if i := q.a.chain.ValidatorIndex(pub); i >= 0 {
		out["validator"] = q.a.chain.Gen.Validators[i].Name
	}
	return out, nil
}

func (q *querier) miner(args []string) (any, *queryError) {
	uid, qerr := parseUID(args[0])
	if qerr != nil {
		return nil, qerr
	}
	m := &subnetv1.Miner{}
	if !q.st.Load(store.KeyMiner(uid), m) {
		return nil, notFound("no miner with uid %d", uid)
	}
	out := map[string]any{"uid": uid, "pubkey": hex.EncodeToString(m.Pubkey), "registered_height": m.RegisteredHeight}
	for _, name := range genesis.TrackNames {
		out[name] = nil
		if s, ok := q.aggregate(name, uid); ok {
			out[name] = track.FmtDec(s)
		}
	}
	return out, nil
}

func (q *querier) task(args []string) (any, *queryError) {
	id, qerr := parseU64("task id", args[0])
	if qerr != nil {
		return nil, qerr
	}
	t, ok := q.st.Task(id)
	if !ok {
		return nil, notFound("no task %d", id)
	}
	return map[string]any{"id": t.Id, "track": tasks.Track(t), "poster": hex.EncodeToString(t.Poster),
		"posted_height": t.PostedHeight, "submit_deadline": t.SubmitDeadline, "report_deadline": t.ReportDeadline,
		"submissions": t.Submissions, "workflow": t.GetWorkflow(), "arena": t.GetArena()}, nil
}

type voteView struct {
	Validator string                        `json:"validator"`
	Height    int64                         `json:"height"`
	Workflow  *subnetv1.WorkflowMeasurement `json:"workflow,omitempty"`
	Arena     *subnetv1.ArenaMeasurement    `json:"arena,omitempty"`
	Truth     *subnetv1.MsgTruth            `json:"truth,omitempty"`
}

func (q *querier) votes(vs []*subnetv1.Vote) []voteView {
	out := make([]voteView, len(vs))
	for i, v := range vs {
		out[i] = voteView{Validator: q.a.chain.Gen.Validators[v.Validator].Name, Height: v.Height, Workflow: v.Workflow, Arena: v.Arena, Truth: v.Truth}
	}
	return out
}

// submission answers a submission with its votes and score receipt.
func (q *querier) submission(args []string) (any, *queryError) {
	id, qerr := parseU64("submission id", args[0])
	if qerr != nil {
		return nil, qerr
	}
	s, ok := q.st.Submission(id)
	if !ok {
		return nil, notFound("no submission %d", id)
	}
	out := map[string]any{"id": s.Id, "track": s.Track, "uid": s.Uid, "height": s.Height, "block_time": s.BlockTime,
		"status": s.Status, "votes": q.votes(s.Votes), "receipt": s.Receipt,
		"gas": nil, "task_id": nil, "report_deadline": nil, "artifact_hash": nil, "declared_retry_budget": nil}
	if s.Track == genesis.TrackGas {
		out["gas"] = s.Gas
	} else {
		out["task_id"], out["report_deadline"] = s.TaskId, s.ReportDeadline
		out["artifact_hash"] = hex.EncodeToString(s.ArtifactHash)
		out["declared_retry_budget"] = s.DeclaredRetryBudget
	}
	return out, nil
}

func (q *querier) window(args []string) (any, *queryError) {
	uid, qerr := parseUID(args[0])
	if qerr != nil {
		return nil, qerr
	}
	if !q.st.Has(store.KeyMiner(uid)) {
		return nil, notFound("no miner with uid %d", uid)
	}
	out := map[string]any{"uid": uid, genesis.TrackWorkflow: nil, genesis.TrackArena: nil}
	for _, tb := range []byte{store.WindowWorkflow, store.WindowArena} {
		pw := &subnetv1.Window{}
		if !q.st.Load(store.KeyWindow(tb, uid), pw) {
			continue
		}
		w := track.WindowFromProto(pw)
		view := map[string]any{"scores": pw.Scores, "tasks_seen": pw.TasksSeen, "mean": track.FmtDec(w.Mean())}
		name := genesis.TrackArena
		if tb == store.WindowWorkflow {
			name = genesis.TrackWorkflow
			view["aggregate"] = track.FmtDec(w.Aggregate(q.a.chain.Gen.Window))
		}
		out[name] = view
	}
	return out, nil
}

func (q *querier) baseline(args []string) (any, *queryError) {
	id, qerr := parseU64("task id", args[0])
	if qerr != nil {
		return nil, qerr
	}
	t, ok := q.st.Task(id)
	if !ok || t.GetArena() == nil {
		return nil, notFound("no arena task %d", id)
	}
	pb := &subnetv1.Baseline{}
	q.st.Load(store.KeyBaseline(id), pb)
	stats := track.BaselineStateFromProto(pb).StatsFor(q.a.chain.Gen.Window, track.BaselineFromProto(t.GetArena().DefaultBaseline))
	return map[string]any{"task_id": id, "samples": len(pb.Recent), "recent": pb.Recent,
		"uses_default": len(pb.Recent) < q.a.chain.Gen.Window.BaselineMin, "baseline": track.BaselineToProto(stats)}, nil
}

func (q *querier) gas(args []string) (any, *queryError) {
	uid, qerr := parseUID(args[0])
	if qerr != nil {
		return nil, qerr
	}
	chain, qerr := parseU64("evm chain id", args[1])
	if qerr != nil {
		return nil, qerr
	}
	pa := &subnetv1.GasAgent{}
	if !q.st.Load(store.KeyGasAgent(chain, uid), pa) {
		return nil, notFound("uid %d has no gas agent state on EVM chain %d", uid, chain)
	}
	return pa, nil
}

type leaderEntry struct {
	Rank  int    `json:"rank"`
	UID   uint32 `json:"uid"`
	Score string `json:"score"`
	score decimal.Decimal
}

// leaderboard ranks the miners of a track by their aggregate (descending,
// ties by uid ascending).
func (q *querier) leaderboard(args []string) (any, *queryError) {
	name := args[0]
	if !q.a.chain.Gen.HasTrack(name) {
		return nil, badRequest("track %q does not run on this chain", name)
	}
	var rows []leaderEntry
	miners := q.st.Counters().Miners
	for n := uint32(0); n < miners; n++ {
		uid := q.a.chain.UIDAt(n)
		if s, ok := q.aggregate(name, uid); ok {
			rows = append(rows, leaderEntry{UID: uid, Score: track.FmtDec(s), score: s})
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if c := rows[i].score.Cmp(rows[j].score); c != 0 {
			return c > 0
		}
		return rows[i].UID < rows[j].UID
	})
	for i := range rows {
		rows[i].Rank = i + 1
	}
	return map[string]any{"track": name, "height": q.a.height, "miners": rows}, nil
}

func (q *querier) epoch(args []string) (any, *queryError) {
	n := q.st.Counters().Epochs
	if args[0] != "latest" {
		v, qerr := parseU64("epoch", args[0])
		if qerr != nil {
			return nil, qerr
		}
		n = v
	}
	ep := &subnetv1.Epoch{}
	if n == 0 || !q.st.Load(store.KeyEpoch(n), ep) {
		return nil, notFound("no epoch %s", args[0])
	}
	sum := scoring.Zero
	for _, w := range ep.Weights {
		sum = sum.Add(track.Dec(w))
	}
	return map[string]any{"epoch": ep, "weights_sum": track.FmtDec(sum)}, nil
}
