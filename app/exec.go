package app

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/scoringsubnet/validatord/app/wire"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// blockState is what one block's execution carries from its transactions to
// its end: the arena submissions that became final in this block.
type blockState struct {
	blockCtx
	arenaBatch []uint64
}

// execute applies a valid transaction to st: the nonce first, then the message.
func (a *App) execute(st state, ct *checkedTx, bs *blockState) []abcitypes.Event {
	ct.account.NextNonce++
	st.save(keyAccount(ct.Body.Sender), ct.account)
	switch m := ct.Body.Msg.Sum.(type) {
	case *subnetv1.Msg_RegisterMiner:
		return a.execRegister(st, ct, bs)
	case *subnetv1.Msg_PostTask:
		return a.execPostTask(st, ct, m.PostTask, bs)
	case *subnetv1.Msg_Submit:
		return a.execSubmit(st, ct, m.Submit, bs)
	case *subnetv1.Msg_Report:
		return a.execReport(st, ct, m.Report, bs)
	case *subnetv1.Msg_Truth:
		return a.execTruth(st, ct, m.Truth, bs)
	}
	panic("app: execute called on a message that validity did not check")
}

func (a *App) execRegister(st state, ct *checkedTx, bs *blockState) []abcitypes.Event {
	c := st.counters()
	uid := uidAt(c.Miners, a.chain.gen.Window.BurnUID)
	c.Miners++
	st.save(keyCounters, c)
	ct.account.Miner, ct.account.Uid = true, uid
	st.save(keyAccount(ct.Body.Sender), ct.account)
	st.save(keyMiner(uid), &subnetv1.Miner{Uid: uid, Pubkey: ct.Body.Sender, RegisteredHeight: bs.height})
	return []abcitypes.Event{wire.Event(wire.EventMinerRegistered, "uid", u64s(uint64(uid)), "pubkey", hexs(ct.Body.Sender))}
}

func (a *App) execPostTask(st state, ct *checkedTx, m *subnetv1.MsgPostTask, bs *blockState) []abcitypes.Event {
	c := st.counters()
	t := &subnetv1.Task{Id: c.NextTaskId, Poster: ct.Body.Sender, PostedHeight: bs.height}
	c.NextTaskId++
	st.save(keyCounters, c)
	var sb, rb int64
	if w := m.GetWorkflow(); w != nil {
		cw := *w
		cw.MaxBudget = fmtDec(mustDec(w.MaxBudget))
		cw.MaxLatencySeconds = fmtDec(mustDec(w.MaxLatencySeconds))
		t.Spec = &subnetv1.Task_Workflow{Workflow: &cw}
		sb, rb = w.SubmissionBlocks, w.ReportBlocks
	} else {
		ar := *m.GetArena()
		ar.DefaultBaseline = canonicalBaseline(ar.DefaultBaseline)
		t.Spec = &subnetv1.Task_Arena{Arena: &ar}
		sb, rb = ar.SubmissionBlocks, ar.ReportBlocks
	}
	t.SubmitDeadline = bs.height + sb
	t.ReportDeadline = t.SubmitDeadline + rb
	st.save(keyTask(t.Id), t)
	due := st.due(t.ReportDeadline)
	due.Tasks = append(due.Tasks, t.Id)
	st.save(keyDue(t.ReportDeadline), due)
	return []abcitypes.Event{wire.Event(wire.EventTaskPosted, "task_id", u64s(t.Id), "track", taskTrack(t),
		"submit_deadline", i64s(t.SubmitDeadline), "report_deadline", i64s(t.ReportDeadline))}
}

// canonicalBaseline returns the baseline with every decimal in canonical
// form, the scoring default when none was given.
func canonicalBaseline(b *subnetv1.ArenaBaseline) *subnetv1.ArenaBaseline {
	if b == nil {
		return baselineToProto(defaultArenaBaseline())
	}
	out := &subnetv1.ArenaBaseline{SubmissionCount: b.SubmissionCount}
	src := baselineFields(b)
	for i, dst := range baselineFields(out) {
		*dst = fmtDec(mustDec(*src[i]))
	}
	return out
}

func (a *App) newSubmission(st state, track string, uid uint32, bs *blockState) *subnetv1.Submission {
	c := st.counters()
	sub := &subnetv1.Submission{Id: c.NextSubmissionId, Track: track, Uid: uid, Height: bs.height, BlockTime: bs.time, Status: statusPending}
	c.NextSubmissionId++
	st.save(keyCounters, c)
	return sub
}

func (a *App) execSubmit(st state, ct *checkedTx, m *subnetv1.MsgSubmit, bs *blockState) []abcitypes.Event {
	uid := ct.account.Uid
	if g := m.GetGas(); g != nil {
		return a.execPrediction(st, g, uid, bs)
	}
	var sub *subnetv1.Submission
	if w := m.GetWorkflow(); w != nil {
		sub = a.newSubmission(st, genesis.TrackWorkflow, uid, bs)
		sub.TaskId, sub.DeclaredRetryBudget, sub.ArtifactHash = w.TaskId, w.DeclaredRetryBudget, w.ArtifactHash
	} else {
		ar := m.GetArena()
		sub = a.newSubmission(st, genesis.TrackArena, uid, bs)
		sub.TaskId, sub.ArtifactHash = ar.TaskId, ar.ArtifactHash
	}
	t, _ := st.task(sub.TaskId)
	sub.ReportDeadline = t.ReportDeadline
	st.save(keySubmission(sub.Id), sub)
	st.o.set(keyTaskMiner(t.Id, uid), u64Bytes(sub.Id))
	t.Submissions++
	st.save(keyTask(t.Id), t)
	return []abcitypes.Event{wire.Event(wire.EventSubmissionAdded, "submission_id", u64s(sub.Id), "uid", u64s(uint64(uid)),
		"track", sub.Track, "task_id", u64s(sub.TaskId))}
}

func (a *App) execPrediction(st state, g *subnetv1.GasPredict, uid uint32, bs *blockState) []abcitypes.Event {
	sub := a.newSubmission(st, genesis.TrackGas, uid, bs)
	price := fmtDec(mustDec(g.Price))
	sub.Gas = &subnetv1.GasPredict{EvmChainId: g.EvmChainId, EvmBlock: g.EvmBlock, Price: price}
	st.save(keySubmission(sub.Id), sub)
	set := st.predictions(g.EvmChainId, g.EvmBlock)
	if len(set.Items) == 0 {
		gc := st.gasChain(g.EvmChainId)
		gc.OpenBlocks = insertSorted(gc.OpenBlocks, g.EvmBlock)
		st.save(keyGasChain(g.EvmChainId), gc)
	}
	set.Items = append(set.Items, &subnetv1.Prediction{Uid: uid, SubmissionId: sub.Id, BlockTime: bs.time, Price: price})
	st.save(keyPredictionSet(g.EvmChainId, g.EvmBlock), set)
	if !st.has(keyGasAgent(g.EvmChainId, uid)) {
		st.save(keyGasAgent(g.EvmChainId, uid), &subnetv1.GasAgent{Uid: uid, EvmChainId: g.EvmChainId})
	}
	return []abcitypes.Event{wire.Event(wire.EventSubmissionAdded, "submission_id", u64s(sub.Id), "uid", u64s(uint64(uid)),
		"track", genesis.TrackGas, "evm_chain_id", u64s(g.EvmChainId), "evm_block", u64s(g.EvmBlock))}
}

// insertSorted inserts v into the ascending slice xs (v not yet present).
func insertSorted(xs []uint64, v uint64) []uint64 {
	i := len(xs)
	for i > 0 && xs[i-1] > v {
		i--
	}
	xs = append(xs, 0)
	copy(xs[i+1:], xs[i:])
	xs[i] = v
	return xs
}
