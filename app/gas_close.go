package app

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// closeGasBlock closes EVM block r.EvmBlock of chain gc with the aggregated
// truth. Predictions for earlier open blocks are marked unscored (a truth for
// a later block skipped them); predictions for this block count only if they
// were included at a block time strictly before the EVM timestamp, else they
// are late. Then every gas agent of the chain, in uid order, closes the
// window with its counting prediction or nil.
func (a *App) closeGasBlock(st state, gc *subnetv1.GasChain, r *subnetv1.TruthRound, minPrice decimal.Decimal, bs *blockState) []abcitypes.Event {
	counting := a.sweepPredictions(st, gc, r, bs)
	evs := []abcitypes.Event{wire.Event(wire.EventGasWindowClosed, "evm_chain_id", u64s(r.EvmChainId), "evm_block", u64s(r.EvmBlock),
		"min_price", r.MinPrice, "timestamp", i64s(r.Timestamp), "counting_predictions", u64s(uint64(len(counting))))}
	miners := st.counters().Miners
	for n := uint32(0); n < miners; n++ {
		uid := uidAt(n, a.chain.gen.Window.BurnUID)
		evs = append(evs, a.closeAgent(st, r, uid, counting[uid], minPrice, bs)...)
	}
	gc.LastClosedBlock, gc.HasClosed = r.EvmBlock, true
	gc.LastMinPrice, gc.LastTimestamp = r.MinPrice, r.Timestamp
	st.save(keyGasChain(gc.EvmChainId), gc)
	return evs
}

// sweepPredictions removes every open block ≤ the closed one and returns
// the counting predictions of the closed block by uid (lookups only).
func (a *App) sweepPredictions(st state, gc *subnetv1.GasChain, r *subnetv1.TruthRound, bs *blockState) map[uint32]*subnetv1.Prediction {
	counting := make(map[uint32]*subnetv1.Prediction)
	keep := gc.OpenBlocks[:0:0]
	for _, b := range gc.OpenBlocks {
		if b > r.EvmBlock {
			keep = append(keep, b)
			continue
		}
		for _, p := range st.predictions(gc.EvmChainId, b).Items {
			switch {
			case b < r.EvmBlock:
				a.markPrediction(st, p.SubmissionId, statusUnscored, "a truth for a later EVM block closed the chain first", bs)
			case p.BlockTime < r.Timestamp:
				counting[p.Uid] = p
			default:
				a.markPrediction(st, p.SubmissionId, statusLate, "included at or after the EVM block's timestamp", bs)
			}
		}
		st.o.del(keyPredictionSet(gc.EvmChainId, b))
	}
	gc.OpenBlocks = keep
	return counting
}

func (a *App) markPrediction(st state, id uint64, status, note string, bs *blockState) {
	sub, _ := st.submission(id)
	sub.Status = status
	sub.Receipt = &subnetv1.Receipt{Height: bs.height, Track: genesis.TrackGas, Status: status, Note: note}
	st.save(keySubmission(id), sub)
}

// closeAgent closes one agent's window; agents that never predicted on this
// chain have no record and are skipped.
func (a *App) closeAgent(st state, r *subnetv1.TruthRound, uid uint32, pred *subnetv1.Prediction, minPrice decimal.Decimal, bs *blockState) []abcitypes.Event {
	k := keyGasAgent(r.EvmChainId, uid)
	pa := &subnetv1.GasAgent{}
	if !st.load(k, pa) {
		return nil
	}
	prevClosed := pa.Closed
	var estimate *decimal.Decimal
	if pred != nil {
		d := mustDec(pred.Price)
		estimate = &d
	}
	gp := a.chain.gen.Gas
	rec := gasReceipt(gp, r, pred, bs)
	next, res, err := a.closeGasWindow(pa, gp, r.Timestamp, estimate, minPrice)
	if err != nil {
		// the agent keeps its state; the prediction (if any) records why
		if pred != nil {
			a.markPrediction(st, pred.SubmissionId, statusFailed, "gas close: "+err.Error(), bs)
		}
		return nil
	}
	// judged: the memory (and history) this close judged, for the prediction's
	// receipt only; the agent record already holds them beside its last receipt.
	var judged fields
	if next.Closed > prevClosed {
		slot := next.Memory[len(next.Memory)-1]
		rec.Values = append(rec.Values, &subnetv1.Field{Name: "slot.included", Value: boolStr(slot.Included)},
			&subnetv1.Field{Name: "slot.overpayment", Value: fmtDec(slot.Overpayment)},
			&subnetv1.Field{Name: "slot.fresh", Value: boolStr(slot.Fresh)})
		judged = gasMemoryFields(next.Memory)
	}
	gasAgentIntoProto(next, pa)
	var evs []abcitypes.Event
	if res != nil {
		judged = append(judged, gasHistoryFields(next.History)...)
		rec.Values = append(rec.Values, gasResultFields(*res)...)
		rec.Score, rec.Status = fmtDec(res.Score), statusScored
		pa.Score, pa.HasScore = rec.Score, true
		evs = append(evs, wire.Event(wire.EventWindowUpdated, "uid", u64s(uint64(uid)), "track", genesis.TrackGas,
			"evm_chain_id", u64s(r.EvmChainId), "aggregate", rec.Score))
	}
	if next.Closed > prevClosed || res != nil || pred != nil {
		pa.LastReceipt = rec
	}
	st.save(k, pa)
	if pred != nil {
		evs = append(evs, a.scorePrediction(st, pred, rec, judged, res)...)
	}
	return evs
}

// scorePrediction records a counting prediction's receipt (rec with the
// agent's memory and history appended to its inputs): scored when the
// agent's memory is full, else counted. Only a scored prediction gets a
// submission_scored event: a counted one has no score (absent, not 0).
func (a *App) scorePrediction(st state, pred *subnetv1.Prediction, rec *subnetv1.Receipt, agent fields, res *scoring.GasResult) []abcitypes.Event {
	sub, _ := st.submission(pred.SubmissionId)
	sub.Status = statusCounted
	if res != nil {
		sub.Status = statusScored
	}
	c := *rec
	c.Inputs = append(append(make([]*subnetv1.Field, 0, len(rec.Inputs)+len(agent)), rec.Inputs...), agent...)
	c.Status = sub.Status
	sub.Receipt = &c
	st.save(keySubmission(sub.Id), sub)
	if res == nil {
		return nil
	}
	return []abcitypes.Event{scoredEvent(sub, res.Score)}
}

func gasReceipt(gp scoring.GasParams, r *subnetv1.TruthRound, pred *subnetv1.Prediction, bs *blockState) *subnetv1.Receipt {
	rec := &subnetv1.Receipt{Height: bs.height, Track: genesis.TrackGas, Status: statusCounted, ReportedPower: r.ReportedPower}
	var in fields
	in.str("evm_chain_id", u64s(r.EvmChainId))
	in.str("evm_block", u64s(r.EvmBlock))
	in.str("min_price", r.MinPrice)
	in.int("evm_timestamp", r.Timestamp)
	if pred != nil {
		in.str("prediction", pred.Price)
		in.int("included_at", pred.BlockTime)
		in.str("prediction_submission_id", u64s(pred.SubmissionId))
	}
	var p fields
	p.int("memory_size", int64(gp.MemorySize))
	p.int("horizon_seconds", gp.HorizonSeconds)
	p.dec("beta", gp.Beta)
	p.dec("w_inclusion", gp.WInclusion)
	p.dec("w_inclusion_stability", gp.WInclusionStability)
	p.dec("w_overpayment", gp.WOverpayment)
	p.dec("w_overpayment_stability", gp.WOverpaymentStability)
	p.dec("w_liveliness", gp.WLiveliness)
	rec.Inputs, rec.Params = in, p
	return rec
}

func gasResultFields(r scoring.GasResult) fields {
	var f fields
	f.dec("inclusion_mean", r.InclusionMean)
	f.dec("inclusion_std", r.InclusionStd)
	f.dec("inclusion_cov", r.InclusionCOV)
	f.dec("overpayment_mean", r.OverpaymentMean)
	f.dec("overpayment_std", r.OverpaymentStd)
	f.dec("overpayment_cov", r.OverpaymentCOV)
	f.dec("liveliness", r.Liveliness)
	for i, u := range r.Utilities {
		f.dec("u"+i64s(int64(i)), u)
	}
	f.int("points", int64(r.Points))
	f.dec("total_score", r.Score)
	return f
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
