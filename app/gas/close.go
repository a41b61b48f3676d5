package gas

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/retain"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
	"github.com/scoringsubnet/validatord/x/commit"
	"github.com/scoringsubnet/validatord/x/receipt"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// closeGasBlock closes EVM block r.EvmBlock (final truth r) for the agents,
// at the end of its reveal window. Predictions for earlier open blocks are
// marked unscored (a truth for a later block skipped them); commits for
// this block never revealed are unrevealed; a revealed prediction counts
// only if its commit's block time is at least the gas track's
// commit_margin_seconds before the EVM timestamp, else it is late. Then
// every gas agent of the chain, in uid order, closes the window with its
// counting prediction or nil. (The chain's last closed block moved when the
// truth became final.) An empty block closes by closeEmptyBlock.
func closeGasBlock(env kernel.Env, r *subnetv1.TruthRound) []abcitypes.Event {
	if r.Empty {
		return closeEmptyBlock(env, r)
	}
	st := env.St
	gc := st.GasChain(r.EvmChainId)
	minPrice := kernel.Dec(r.MinPrice)
	counting, swept := sweepPredictions(env, gc, r)
	evs := []abcitypes.Event{wire.Event(wire.EventGasWindowClosed, "evm_chain_id", kernel.U64s(r.EvmChainId), "evm_block", kernel.U64s(r.EvmBlock),
		"min_price", r.MinPrice, "timestamp", kernel.I64s(r.Timestamp), "counting_predictions", kernel.U64s(uint64(len(counting))))}
	miners := st.Counters().Miners
	env.ChargeWork(budget.UnitsAgent * int64(miners))
	for n := uint32(0); n < miners; n++ {
		uid := env.Chain.UIDAt(n)
		evs = append(evs, closeAgent(env, r, uid, counting[uid], minPrice)...)
	}
	st.Save(store.KeyGasChain(gc.EvmChainId), gc)
	retain.Round(st, env.Block.Height, r.EvmChainId, r.EvmBlock, swept)
	return evs
}

// sweepPredictions removes every open block ≤ the closed one and returns
// the counting predictions of the closed block by uid (lookups only) and
// the submission ids of every swept prediction, in sweep order (what
// retention later deletes with the round).
func sweepPredictions(env kernel.Env, gc *subnetv1.GasChain, r *subnetv1.TruthRound) (map[uint32]*subnetv1.Prediction, []uint64) {
	st := env.St
	counting := make(map[uint32]*subnetv1.Prediction)
	margin := env.Chain.CommitParams(genesis.TrackGas).CommitMarginSeconds
	keep := gc.OpenBlocks[:0:0]
	var swept []uint64
	for _, b := range gc.OpenBlocks {
		if b > r.EvmBlock {
			keep = append(keep, b)
			continue
		}
		for _, p := range st.Predictions(gc.EvmChainId, b).Items {
			swept = append(swept, p.SubmissionId)
			switch {
			case b < r.EvmBlock:
				markPrediction(env, p.SubmissionId, kernel.StatusUnscored, sweepNote(kernel.StatusUnscored))
			case p.Price == "":
				markPrediction(env, p.SubmissionId, kernel.StatusUnrevealed, sweepNote(kernel.StatusUnrevealed))
			case previousOwner(env, p):
				markPrediction(env, p.SubmissionId, kernel.StatusFailed, kernel.ErrPreviousOwner.Error())
			case commit.GasCounts(p.BlockTime, r.Timestamp, margin):
				counting[p.Uid] = p
			default:
				markPrediction(env, p.SubmissionId, kernel.StatusLate, sweepNote(kernel.StatusLate))
			}
		}
		st.Delete(store.KeyPredictionSet(gc.EvmChainId, b))
	}
	gc.OpenBlocks = keep
	return counting, swept
}

// previousOwner reports whether p was made by an earlier owner of its uid
// (replaced or deregistered since, docs/membership.md §8): it is never
// closed into the agent of the uid's new owner. One read.
func previousOwner(env kernel.Env, p *subnetv1.Prediction) bool {
	env.ChargeWork(budget.UnitsLookup)
	return kernel.PreviousOwner(env.St, &subnetv1.Submission{Uid: p.Uid, Id: p.SubmissionId})
}

// sweepNote is the receipt note of a prediction a close does not judge.
func sweepNote(status string) string {
	switch status {
	case kernel.StatusUnscored:
		return "a truth for a later EVM block closed the chain first"
	case kernel.StatusUnrevealed:
		return "not revealed in its window: counts as no prediction"
	}
	return "committed less than commit_margin_seconds before the EVM timestamp"
}

func markPrediction(env kernel.Env, id uint64, status, note string) {
	st := env.St
	sub, _ := st.Submission(id)
	kernel.SetStatus(st, sub, status)
	kernel.Attach(sub, &subnetv1.Receipt{Height: env.Block.Height, Track: genesis.TrackGas, Status: status, Note: note})
	st.Save(store.KeySubmission(id), sub)
}

// closeAgent closes one agent's window; agents that never predicted on this
// chain have no record and are skipped.
func closeAgent(env kernel.Env, r *subnetv1.TruthRound, uid uint32, pred *subnetv1.Prediction, minPrice decimal.Decimal) []abcitypes.Event {
	st := env.St
	k := store.KeyGasAgent(r.EvmChainId, uid)
	pa := &subnetv1.GasAgent{}
	if !st.Load(k, pa) {
		return nil
	}
	prevClosed := pa.Closed
	var estimate *decimal.Decimal
	if pred != nil {
		d := kernel.Dec(pred.Price)
		estimate = &d
	}
	gp := env.Chain.Gen.Gas
	rec := gasReceipt(gp, r, pred, env.Block.Height)
	next, res, err := kernel.GasAgentFromProto(pa).CloseCapped(gp, env.Chain.Gen.Window.GasHistoryMax, r.Timestamp, estimate, minPrice)
	if err != nil {
		// the agent keeps its state; the prediction (if any) records why
		if pred != nil {
			markPrediction(env, pred.SubmissionId, kernel.StatusFailed, "gas close: "+err.Error())
		}
		return nil
	}
	// judged: the memory (and history) this close judged, for the prediction's
	// receipt only; the agent record already holds them beside its last receipt.
	var judged []*subnetv1.Field
	if next.Closed > prevClosed {
		rec.Values = append(rec.Values, receipt.GasSlot(next.Memory[len(next.Memory)-1])...)
		judged = receipt.GasMemory(next.Memory)
	}
	kernel.GasAgentIntoProto(next, pa)
	if pred != nil {
		pa.LastFreshHeight = env.Block.Height
	}
	var evs []abcitypes.Event
	if res != nil {
		judged = append(judged, receipt.GasHistory(next.History)...)
		rec.Values = append(rec.Values, receipt.GasValues(*res)...)
		rec.Score, rec.Status = kernel.FmtDec(res.Score), kernel.StatusScored
		pa.Score, pa.HasScore = rec.Score, true
		evs = append(evs, wire.Event(wire.EventWindowUpdated, "uid", kernel.U64s(uint64(uid)), "track", genesis.TrackGas,
			"evm_chain_id", kernel.U64s(r.EvmChainId), "aggregate", rec.Score))
	}
	if next.Closed > prevClosed || res != nil || pred != nil {
		pa.LastReceipt = rec
	}
	st.Save(k, pa)
	if pred != nil {
		evs = append(evs, scorePrediction(env, pred, rec, judged, res)...)
	}
	return evs
}

// scorePrediction records a counting prediction's receipt (rec with the
// agent's memory and history appended to its inputs): scored when the
// agent's memory is full, else counted. Only a scored prediction gets a
// submission_scored event: a counted one has no score (absent, not 0).
func scorePrediction(env kernel.Env, pred *subnetv1.Prediction, rec *subnetv1.Receipt, agent []*subnetv1.Field, res *scoring.GasResult) []abcitypes.Event {
	st := env.St
	sub, _ := st.Submission(pred.SubmissionId)
	sub.Status = kernel.StatusCounted
	if res != nil {
		sub.Status = kernel.StatusScored
	}
	c := *rec
	c.Inputs = append(append(make([]*subnetv1.Field, 0, len(rec.Inputs)+len(agent)), rec.Inputs...), agent...)
	c.Status = sub.Status
	kernel.Attach(sub, &c)
	st.Save(store.KeySubmission(sub.Id), sub)
	if res == nil {
		return nil
	}
	return []abcitypes.Event{kernel.ScoredEvent(sub, res.Score)}
}

func gasReceipt(gp scoring.GasParams, r *subnetv1.TruthRound, pred *subnetv1.Prediction, height int64) *subnetv1.Receipt {
	return &subnetv1.Receipt{Height: height, Track: genesis.TrackGas, Status: kernel.StatusCounted, ReportedPower: r.ReportedPower,
		TotalPower: r.TotalPower, Inputs: receipt.GasInputs(r, pred), Params: receipt.GasParams(gp)}
}
