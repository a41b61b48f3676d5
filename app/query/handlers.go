package query

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/app/gas"
	"github.com/scoringsubnet/validatord/app/governance"
	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/mirror"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/membership"
	"github.com/scoringsubnet/validatord/x/receipt"
	"github.com/scoringsubnet/validatord/x/scoring"
)

func parseU64(name, s string) (uint64, *Error) {
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, BadRequest("%s %q is not a non-negative integer", name, s)
	}
	return v, nil
}

func parseUID(s string) (uint32, *Error) {
	v, err := strconv.ParseUint(s, 10, 16)
	if err != nil {
		return 0, BadRequest("uid %q is not an integer in [0, 65535]", s)
	}
	return uint32(v), nil
}

func (q *View) status(_ []string) (*wire.StatusView, *Error) {
	out := &wire.StatusView{Height: q.Height, AppHash: upperHex(q.AppHash)}
	if q.Chain != nil {
		out.ChainID = &q.Chain.ID
	}
	if h := q.GenesisHash(); h != nil {
		s := hex.EncodeToString(h)
		out.GenesisHash = &s
	}
	return out, nil
}

func (q *View) params(_ []string) (*wire.ParamsView, *Error) {
	raw, err := q.Chain.Gen.Encode()
	if err != nil {
		return nil, Internal("params: %v", err)
	}
	out := &wire.ParamsView{ChainID: q.Chain.ID, AppState: raw, Scheduled: []wire.ScheduledParamsView{}}
	next := q.Height + 1
	for _, e := range governance.LoadParams(q.St).Entries {
		switch {
		case e.From <= next:
			out.InForceFrom = e.From
		default:
			out.Scheduled = append(out.Scheduled, wire.ScheduledParamsView{ActivationHeight: e.From, ProposalID: e.ProposalId, AppState: e.AppState})
		}
	}
	return out, nil
}

func (q *View) validators(_ []string) (*wire.ValidatorsView, *Error) {
	vs := governance.LoadValset(q.St)
	view := func(members []*subnetv1.SetMember) ([]wire.ValidatorView, int64) {
		out := make([]wire.ValidatorView, len(members))
		var total int64
		for i, m := range members {
			r := vs.Registry[m.Index]
			out[i] = wire.ValidatorView{Index: int(m.Index), Name: r.Name, Address: hex.EncodeToString(q.Chain.Address(int(m.Index))),
				Power: m.Power, ReportKey: hex.EncodeToString(m.ReportKey)}
			total += m.Power
		}
		return out, total
	}
	out := &wire.ValidatorsView{Queued: []string{}, Scheduled: []wire.ScheduledSetView{}}
	next := q.Height + 1
	for _, e := range vs.History {
		if e.From > next {
			vals, total := view(e.Members)
			out.Scheduled = append(out.Scheduled, wire.ScheduledSetView{From: e.From, TotalPower: total, Validators: vals})
		}
	}
	if e := governance.SetAt(vs.History, next); e != nil {
		out.Validators, out.TotalPower = view(e.Members)
	}
	queued, err := governance.ChangesOf(&subnetv1.MsgValidatorProposal{Changes: vs.Queue})
	if err != nil {
		return nil, Internal("validators: queue: %v", err)
	}
	for _, c := range queued {
		out.Queued = append(out.Queued, c.String())
	}
	return out, nil
}

func (q *View) proposal(args []string) (*wire.ProposalView, *Error) {
	id, qerr := parseU64("proposal id", args[0])
	if qerr != nil {
		return nil, qerr
	}
	p := &subnetv1.Proposal{}
	if !q.St.Load(store.KeyProposal(id), p) {
		return nil, NotFound("proposal %d does not exist", id)
	}
	return q.proposalView(p)
}

func (q *View) proposalView(p *subnetv1.Proposal) (*wire.ProposalView, *Error) {
	out := &wire.ProposalView{ID: p.Id, Proposer: q.Chain.ValidatorName(int(p.Proposer)), ProposedHeight: p.ProposedHeight,
		ExpiresHeight: p.ExpiresHeight, Status: p.Status, DecidedHeight: p.DecidedHeight, ApprovedPower: p.ApprovedPower,
		TotalPower: p.TotalPower, Approvals: []string{}, Changes: []string{}, Params: json.RawMessage("null"), Kind: governance.ProposalValidators}
	for _, a := range p.Approvals {
		out.Approvals = append(out.Approvals, q.Chain.ValidatorName(int(a)))
	}
	if p.Params != nil {
		out.Kind, out.Params = governance.ProposalParams, json.RawMessage(p.Params.Params)
		if !json.Valid(out.Params) {
			out.Params = json.RawMessage("null")
		}
		h := p.Params.ActivationHeight
		out.ActivationHeight = &h
	}
	if p.Validators != nil {
		changes, err := governance.ChangesOf(p.Validators)
		if err != nil {
			return nil, Internal("proposal %d: %v", p.Id, err)
		}
		for _, c := range changes {
			out.Changes = append(out.Changes, c.String())
		}
	}
	return out, nil
}

func (q *View) proposals(_ []string) (*wire.ProposalsView, *Error) {
	n := q.St.Counters().NextProposalId
	out := &wire.ProposalsView{Count: n, Proposals: []wire.ProposalView{}}
	for id := n; id > 0 && n-id < wire.MaxProposalsListed; id-- {
		p := &subnetv1.Proposal{}
		if !q.St.Load(store.KeyProposal(id-1), p) {
			continue
		}
		v, qerr := q.proposalView(p)
		if qerr != nil {
			return nil, qerr
		}
		out.Proposals = append(out.Proposals, *v)
	}
	return out, nil
}

func (q *View) misbehaviour(args []string) (*wire.MisbehaviourView, *Error) {
	n, qerr := parseU64("misbehaviour number", args[0])
	if qerr != nil {
		return nil, qerr
	}
	m := &subnetv1.Misbehaviour{}
	if !q.St.Load(store.KeyMisbehaviour(n), m) {
		return nil, NotFound("misbehaviour %d was not recorded (%d so far)", n, q.St.Counters().Misbehaviours)
	}
	name := "(unknown)"
	if int(m.Validator) < q.Chain.Validators() {
		name = q.Chain.ValidatorName(int(m.Validator))
	}
	return &wire.MisbehaviourView{Height: m.Height, Kind: m.Kind, Note: m.Note, RecordedHeight: m.RecordedHeight, Slashed: m.Slashed, Validator: name}, nil
}

func (q *View) account(args []string) (*wire.AccountView, *Error) {
	pub, err := hex.DecodeString(args[0])
	if err != nil || len(pub) != 32 {
		return nil, BadRequest("account %q is not a hex 32-byte ed25519 public key", args[0])
	}
	acc := q.St.Account(pub)
	out := &wire.AccountView{Pubkey: hex.EncodeToString(pub), NextNonce: acc.NextNonce, Miner: acc.Miner}
	if acc.Miner {
		out.UID = &acc.Uid
	}
	if i := q.Chain.ValidatorIndex(pub); i >= 0 {
		name := q.Chain.ValidatorName(i)
		out.Validator = &name
	}
	return out, nil
}

func (q *View) miner(args []string) (*wire.MinerView, *Error) {
	uid, qerr := parseUID(args[0])
	if qerr != nil {
		return nil, qerr
	}
	m := &subnetv1.Miner{}
	found := q.St.Load(store.KeyMiner(uid), m)
	mv, inMirror := q.mirrorMiner(uid)
	if !found && !inMirror {
		return nil, NotFound("no miner with uid %d", uid)
	}
	out := &wire.MinerView{UID: uid, Pubkey: hex.EncodeToString(m.Pubkey), RegisteredHeight: m.RegisteredHeight,
		Address: m.Address, ServedHeight: m.ServedHeight, ImmuneThrough: membership.ImmuneThrough(m.RegisteredHeight, q.Chain.Gen.Membership), Mirror: mv}
	for _, name := range genesis.TrackNames {
		if s, ok := q.aggregate(name, uid); ok {
			out.SetAggregate(name, kernel.FmtDec(s))
		}
	}
	return out, nil
}

// counts answers "counts" (Counts).
func (q *View) counts(_ []string) (*wire.CountsView, *Error) { return q.Counts(), nil }

// Counts reads the counts the state keeps as it goes: a few keys, one per
// validator and two per track, whatever the state's size.
func (q *View) Counts() *wire.CountsView {
	out := &wire.CountsView{Height: q.Height, Tracks: []wire.TrackCountView{}}
	c := q.St.Counters()
	r := q.St.Registration()
	out.UIDs = uint64(c.Miners)
	if free := r.FreeTail - r.FreeHead; r.FreeTail >= r.FreeHead && free <= out.UIDs {
		out.UIDs -= free
	}
	for v := range q.Chain.Validators() {
		out.OpenTasks += q.St.U64(store.KeyOpenTasks(v))
	}
	for _, tr := range q.Chain.Gen.Tracks {
		out.Tracks = append(out.Tracks, wire.TrackCountView{Track: tr.Name,
			OpenTasks:      q.St.U64(store.KeyTrackCount(store.TrackOpenTasks, tr.Name)),
			AwaitingReveal: q.St.U64(store.KeyTrackCount(store.TrackAwaitingReveal, tr.Name))})
	}
	return out
}

// registration answers "registration": the difficulty in force, the next
// adjustment, and the recorded hashes of the last max_pow_age_blocks blocks
// (at most membership.MaxPowAgeLimit reads).
func (q *View) registration(_ []string) (*wire.RegistrationView, *Error) {
	p := q.Chain.Gen.Membership
	r := q.St.Registration()
	out := &wire.RegistrationView{Height: q.Height, Difficulty: r.Difficulty, IntervalRegistrations: r.IntervalRegistrations,
		MaxPerBlock: p.MaxRegistrationsPerBlock, AdjustAt: (q.Height/p.AdjustmentInterval + 1) * p.AdjustmentInterval,
		Recent: []wire.BlockHashView{}}
	for h := q.Height; h >= 0 && h > q.Height-p.MaxPowAgeBlocks; h-- {
		if hash, ok := q.St.BlockHash(h); ok {
			out.Recent = append(out.Recent, wire.BlockHashView{Height: h, Hash: hex.EncodeToString(hash)})
		}
	}
	return out, nil
}

func (q *View) task(args []string) (*wire.TaskView, *Error) {
	id, qerr := parseU64("task id", args[0])
	if qerr != nil {
		return nil, qerr
	}
	t, ok := q.St.Task(id)
	if !ok {
		return nil, NotFound("no task %d%s", id, q.retired(id < q.St.Counters().NextTaskId, "task"))
	}
	v := taskViewOf(t)
	return &v, nil
}

// truth answers "truth/<evm chain id>/<evm block>": the EVM block's truth
// round, and once it is final the reveal window of the block's commits.
func (q *View) truth(args []string) (*wire.TruthRoundView, *Error) {
	chain, qerr := parseU64("evm chain id", args[0])
	if qerr != nil {
		return nil, qerr
	}
	block, qerr := parseU64("evm block", args[1])
	if qerr != nil {
		return nil, qerr
	}
	r, ok := q.St.Truth(chain, block)
	if !ok {
		gc := q.St.GasChain(chain)
		return nil, NotFound("no truth round for block %d of EVM chain %d%s", block, chain,
			q.retired(q.Chain.Gen.Chain.RetainStateBlocks > 0 && gc.HasClosed && block <= gc.LastClosedBlock, "truth round, if the block had one,"))
	}
	out := &wire.TruthRoundView{EvmChainID: r.EvmChainId, EvmBlock: r.EvmBlock, Status: r.Status, OpenedHeight: r.OpenedHeight,
		Deadline: r.Deadline, ReportedPower: r.ReportedPower, Votes: q.votes(r.Votes)}
	if r.Status != kernel.StatusPending {
		ch := r.ClosedHeight
		out.ClosedHeight = &ch
	}
	if w, ok := gas.RevealWindow(r); ok && r.Empty {
		// no price and nothing to reveal
		out.Empty, out.Timestamp = true, &r.Timestamp
	} else if ok {
		out.MinPrice, out.Timestamp = &r.MinPrice, &r.Timestamp
		out.RevealFrom, out.RevealUntil = &w.First, &w.Last
	}
	return out, nil
}

func (q *View) votes(vs []*subnetv1.Vote) []wire.VoteView {
	out := make([]wire.VoteView, len(vs))
	for i, v := range vs {
		out[i] = wire.VoteView{Validator: q.Chain.ValidatorName(int(v.Validator)), Height: v.Height,
			Workflow: wire.WorkflowMeasurementViewOf(v.Workflow), Arena: wire.ArenaMeasurementViewOf(v.Arena), Truth: wire.TruthViewOf(v.Truth),
			DuplicateOf: v.DuplicateOf}
	}
	return out
}

// submission answers a submission with its votes and score receipt.
func (q *View) submission(args []string) (*wire.SubmissionView, *Error) {
	id, qerr := parseU64("submission id", args[0])
	if qerr != nil {
		return nil, qerr
	}
	s, ok := q.St.Submission(id)
	if !ok {
		return nil, NotFound("no submission %d%s", id, q.retired(id < q.St.Counters().NextSubmissionId, "submission"))
	}
	out := &wire.SubmissionView{ID: s.Id, Track: s.Track, UID: s.Uid, Height: s.Height, BlockTime: s.BlockTime,
		Status: s.Status, Votes: q.votes(s.Votes), Receipt: wire.ReceiptViewOf(s.Receipt),
		Commitment: hex.EncodeToString(s.Commitment), RevealHeight: s.RevealHeight, Duplicate: s.Duplicate, NearCopy: s.NearCopy}
	if out.Receipt != nil {
		out.Receipt.Commit = wire.FieldViews(receipt.CommitFields(s))
	}
	if s.Duplicate {
		uid, h := s.DuplicateOfUid, s.DuplicateOfHeight
		out.DuplicateOfUID, out.DuplicateOfHeight = &uid, &h
	}
	if s.Track == genesis.TrackGas {
		out.Gas = wire.GasPredictViewOf(s.Gas)
	} else {
		out.TaskID, out.ReportDeadline = &s.TaskId, &s.ReportDeadline
		if s.RevealHeight > 0 {
			hash := hex.EncodeToString(s.ArtifactHash)
			out.ArtifactHash = &hash
		}
	}
	return out, nil
}

func (q *View) window(args []string) (*wire.WindowView, *Error) {
	uid, qerr := parseUID(args[0])
	if qerr != nil {
		return nil, qerr
	}
	if !q.St.Has(store.KeyMiner(uid)) {
		return nil, NotFound("no miner with uid %d", uid)
	}
	out := &wire.WindowView{UID: uid}
	for _, tb := range []byte{store.WindowWorkflow, store.WindowArena} {
		pw := &subnetv1.Window{}
		if !q.St.Load(store.KeyWindow(tb, uid), pw) {
			continue
		}
		w := kernel.WindowFromProto(pw)
		view := &wire.TrackWindowView{Scores: wire.List(pw.Scores), TasksSeen: pw.TasksSeen, Mean: kernel.FmtDec(w.Mean()),
			LastHeight: pw.LastHeight}
		if tb == store.WindowWorkflow {
			agg := kernel.FmtDec(w.Aggregate(q.Chain.Gen.Window))
			view.Aggregate = &agg
			out.Workflow = view
		} else {
			agg := kernel.FmtDec(w.Warmed(q.Chain.Gen.Window.ArenaWarmupTasks))
			view.Aggregate = &agg
			out.Arena = view
		}
	}
	return out, nil
}

func (q *View) baseline(args []string) (*wire.BaselineView, *Error) {
	id, qerr := parseU64("task id", args[0])
	if qerr != nil {
		return nil, qerr
	}
	t, ok := q.St.Task(id)
	if !ok || t.GetArena() == nil {
		return nil, NotFound("no arena task %d%s", id, q.retired(!ok && id < q.St.Counters().NextTaskId, "task and its baseline"))
	}
	pb := &subnetv1.Baseline{}
	q.St.Load(store.KeyBaseline(id), pb)
	stats := kernel.BaselineStateFromProto(pb).StatsFor(q.Chain.Gen.Window, kernel.BaselineFromProto(t.GetArena().DefaultBaseline))
	return &wire.BaselineView{TaskID: id, Samples: len(pb.Recent), Recent: wire.ArenaSampleViews(pb.Recent),
		UsesDefault: len(pb.Recent) < q.Chain.Gen.Window.BaselineMin, Baseline: wire.ArenaBaselineViewOf(kernel.BaselineToProto(stats))}, nil
}

func (q *View) gas(args []string) (*wire.GasAgentView, *Error) {
	uid, qerr := parseUID(args[0])
	if qerr != nil {
		return nil, qerr
	}
	chain, qerr := parseU64("evm chain id", args[1])
	if qerr != nil {
		return nil, qerr
	}
	pa := &subnetv1.GasAgent{}
	if !q.St.Load(store.KeyGasAgent(chain, uid), pa) {
		return nil, NotFound("uid %d has no gas agent state on EVM chain %d", uid, chain)
	}
	return wire.GasAgentViewOf(pa), nil
}

// leaderEntry is a leaderboard row with the aggregate it is sorted by.
type leaderEntry struct {
	wire.LeaderboardEntry
	score decimal.Decimal
}

// leaderboard ranks the miners of a track by their aggregate (descending,
// ties by uid ascending).
func (q *View) leaderboard(args []string) (*wire.LeaderboardView, *Error) {
	name := args[0]
	if !q.Chain.Gen.HasTrack(name) {
		return nil, BadRequest("track %q does not run on this chain", name)
	}
	var rows []leaderEntry
	miners := q.St.Counters().Miners
	for n := uint32(0); n < miners; n++ {
		uid := q.Chain.UIDAt(n)
		if s, ok := q.aggregate(name, uid); ok {
			rows = append(rows, leaderEntry{wire.LeaderboardEntry{UID: uid, Score: kernel.FmtDec(s)}, s})
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if c := rows[i].score.Cmp(rows[j].score); c != 0 {
			return c > 0
		}
		return rows[i].UID < rows[j].UID
	})
	out := &wire.LeaderboardView{Track: name, Height: q.Height, Miners: make([]wire.LeaderboardEntry, len(rows)),
		Ranks: leaderboardRanks[name]}
	for i := range rows {
		rows[i].Rank = i + 1
		q.warmup(name, &rows[i].LeaderboardEntry)
		out.Miners[i] = rows[i].LeaderboardEntry
	}
	if len(rows) == 0 {
		tr, _ := q.Chain.Gen.Track(name) // HasTrack held above
		why := fmt.Sprintf(leaderboardEmpty[name], tr.ActivityCutoffBlocks)
		out.Empty = &why
	}
	return out, nil
}

// leaderboardRanks says what each track's board ranks (docs/queries.md).
var leaderboardRanks = map[string]string{
	genesis.TrackWorkflow: "the workflow aggregate: the mean of the miner's last window_size task scores S × min(1, tasks_seen / warmup_tasks)",
	genesis.TrackArena:    "the arena aggregate: the mean of the miner's recent arena scores / 100 × min(1, tasks_seen / arena_warmup_tasks)",
	genesis.TrackGas:      "the gas aggregate: the mean of the agent's latest TotalScore over the EVM chains where it has one",
}

// leaderboardEmpty says why a track's board can be empty (a format of the
// track's activity_cutoff_blocks): never scored, or scored longer ago than
// the cutoff, which drops the aggregate until the miner scores again.
var leaderboardEmpty = map[string]string{
	genesis.TrackWorkflow: "no miner has a workflow task scored in the last %d blocks (the track's activity_cutoff_blocks): a score needs a miner's commit and reveal, then validators' reports until the task's report deadline; a miner whose last score is older has no aggregate until it scores again",
	genesis.TrackArena:    "no miner has an arena run scored in the last %d blocks (the track's activity_cutoff_blocks): a score needs a miner's commit and reveal, then validators' reports until the task's report deadline; a miner whose last score is older has no aggregate until it scores again",
	genesis.TrackGas:      "no gas agent has a score from the last %d blocks (the track's activity_cutoff_blocks): predictions are scored when validators' truths close their EVM block (validatord oracle gas sends them) and the block's reveal window ends; an agent whose last score is older has no aggregate until it scores again",
}

// warmup fills a row's mean and warm-up (workflow and arena windows).
func (q *View) warmup(name string, e *wire.LeaderboardEntry) {
	tb, warm := store.WindowWorkflow, q.Chain.Gen.Window.WarmupTasks
	switch name {
	case genesis.TrackWorkflow:
	case genesis.TrackArena:
		tb, warm = store.WindowArena, q.Chain.Gen.Window.ArenaWarmupTasks
	default:
		return
	}
	pw := &subnetv1.Window{}
	if !q.St.Load(store.KeyWindow(tb, e.UID), pw) {
		return
	}
	mean, seen := kernel.FmtDec(kernel.WindowFromProto(pw).Mean()), pw.TasksSeen
	e.Mean, e.TasksSeen, e.WarmupTasks = &mean, &seen, &warm
}

func (q *View) epoch(args []string) (*wire.EpochView, *Error) {
	n := q.St.Counters().Epochs
	if args[0] != "latest" {
		v, qerr := parseU64("epoch", args[0])
		if qerr != nil {
			return nil, qerr
		}
		n = v
	}
	ep := &subnetv1.Epoch{}
	if n == 0 || !q.St.Load(store.KeyEpoch(n), ep) {
		return nil, NotFound("no epoch %s%s", args[0], q.retired(n > 0 && n < q.St.Counters().Epochs, "epoch"))
	}
	sum := scoring.Zero
	for _, w := range ep.Weights {
		sum = sum.Add(kernel.Dec(w))
	}
	return &wire.EpochView{Epoch: wire.EpochResultViewOf(ep), WeightsSum: kernel.FmtDec(sum)}, nil
}

// mirrorMiner is uid's holder on the parent chain and its binding, in
// mirror mode (nil in pow mode); ok when the uid is in the final snapshot
// or bound.
func (q *View) mirrorMiner(uid uint32) (*wire.MirrorMinerView, bool) {
	if !q.Chain.Gen.IsMirror() {
		return nil, false
	}
	out := &wire.MirrorMinerView{}
	e, inSnapshot := mirror.LoadEntry(q.St, uid)
	if inSnapshot {
		out.Hotkey, out.RegisteredBlock = mirror.SS58(e.Hotkey[:]), e.RegisteredBlock
	}
	b, bound := mirror.LoadBinding(q.St, uid)
	if bound {
		out.TxKey, out.ParentBlock = hex.EncodeToString(b.TxKey), b.ParentBlock
	}
	return out, inSnapshot || bound
}

// mirror answers "mirror": the last final snapshot and the open rounds
// (max_uids reads to count the entries).
func (q *View) mirrorView(_ []string) (*wire.MirrorView, *Error) {
	if !q.Chain.Gen.IsMirror() {
		return nil, NotFound("chain.registration is not mirror")
	}
	ms := mirror.LoadState(q.St)
	p := q.Chain.Gen.Mirror
	cur := mirror.CurrentSnapshot(q.St, ms.FinalBlock, p.MaxEntries)
	return &wire.MirrorView{AttestationBlocks: p.AttestationBlocks, Digest: hex.EncodeToString(ms.FinalDigest), Entries: len(cur.Entries),
		FinalBlock: ms.FinalBlock, NetUID: p.NetUID, OpenBlocks: append([]uint64{}, ms.OpenBlocks...), OpenRounds: len(ms.OpenBlocks)}, nil
}

// retired is the not-found note of an item that existed and is gone: only
// retention deletes a task, a submission or an epoch whose id was handed
// out (a truth round's caller also requires retention on, since a round
// that ended without quorum is dropped). It names retention and the export
// that still holds the item; "" when the item never existed.
func (q *View) retired(existed bool, what string) string {
	if !existed {
		return ""
	}
	return fmt.Sprintf(": this %s was %s (chain.retain_state_blocks, %d in force, deletes settled tasks, "+
		"submissions, ended truth rounds and epochs that many blocks after they ended; docs/retention.md); "+
		"`validatord export --height H` rebuilds the state of an earlier height H that still holds it", what, wire.RetiredNote, q.Chain.Gen.Chain.RetainStateBlocks)
}

// taskResults answers "task/<id>/results": the arena task's scored
// submissions evaluated at query time (wire.TaskResultsViewOf), from their
// receipts. It reads the task's submissions, at most one per miner
// (chain.max_uids), and no block work.
func (q *View) taskResults(args []string) (*wire.TaskResultsView, *Error) {
	id, qerr := parseU64("task id", args[0])
	if qerr != nil {
		return nil, qerr
	}
	t, ok := q.St.Task(id)
	if !ok || t.GetArena() == nil {
		return nil, NotFound("no arena task %d%s", id, q.retired(!ok && id < q.St.Counters().NextTaskId, "task and its results"))
	}
	var scored []wire.ScoredArena
	for i := uint64(0); i < t.Submissions; i++ {
		sid := q.St.U64(store.KeyTaskSub(id, i))
		s, ok := q.St.Submission(sid)
		if !ok || s.Status != kernel.StatusScored {
			continue
		}
		rec, err := receipt.ReadArena(s.Receipt)
		if err != nil {
			return nil, Internal("task %d results: submission %d: %v", id, sid, err)
		}
		scored = append(scored, wire.ScoredArena{ID: s.Id, UID: s.Uid, Record: rec})
	}
	at := t.GetArena()
	return wire.TaskResultsViewOf(id, at.Category, at.Difficulty, scored), nil
}

// digest answers "digest": the score digest of the state the query reads
// (store.ScoreDigest over the submissions, windows, gas agents and epochs,
// the digest `validatord replay` prints) with its height and app hash. It
// reads every score entry, so its cost grows with the state; it takes no
// lock block execution holds.
func (q *View) digest(_ []string) (*wire.DigestView, *Error) {
	d := store.NewScoreDigest()
	if q.Snap != nil {
		d = q.Snap.DigestScores()
	}
	return &wire.DigestView{Height: q.Height, AppHash: upperHex(q.AppHash), ScoreDigest: d.Hex(), ScoreEntries: d.Entries()}, nil
}

// upperHex is an app hash as CometBFT prints it (its headers, /block,
// /status): upper-case hex; the app's own bytes (keys, artifact hashes,
// digests) are lower-case (docs/cli.md "Conventions").
func upperHex(b []byte) string { return strings.ToUpper(hex.EncodeToString(b)) }
