package app

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/shopspring/decimal"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/quorum"
)

func (a *App) execTruth(st state, ct *checkedTx, m *subnetv1.MsgTruth, bs *blockState) []abcitypes.Event {
	r, ok := st.truth(m.EvmChainId, m.EvmBlock)
	if !ok {
		r = &subnetv1.TruthRound{EvmChainId: m.EvmChainId, EvmBlock: m.EvmBlock, OpenedHeight: bs.height,
			Deadline: bs.height + a.chain.gen.Chain.TruthReportBlocks, Status: statusPending}
		due := st.due(r.Deadline)
		due.Truths = append(due.Truths, &subnetv1.TruthRef{EvmChainId: m.EvmChainId, EvmBlock: m.EvmBlock})
		st.save(keyDue(r.Deadline), due)
	}
	truth := *m
	truth.MinPrice = fmtDec(mustDec(m.MinPrice))
	r.Votes = append(r.Votes, &subnetv1.Vote{Validator: uint32(ct.validator), Height: bs.height, Truth: &truth})
	evs := []abcitypes.Event{wire.Event(wire.EventTruthReceived, "evm_chain_id", u64s(m.EvmChainId), "evm_block", u64s(m.EvmBlock),
		"validator", a.chain.gen.Validators[ct.validator].Name)}
	evs = append(evs, a.settleTruth(st, r, false, bs)...)
	st.save(keyTruth(m.EvmChainId, m.EvmBlock), r)
	return evs
}

// settleTruth aggregates a pending truth round (weighted median of price and
// of timestamp) and, once final, closes that EVM block for every gas agent.
// The caller saves r.
func (a *App) settleTruth(st state, r *subnetv1.TruthRound, atDeadline bool, bs *blockState) []abcitypes.Event {
	gc := st.gasChain(r.EvmChainId)
	if gc.HasClosed && r.EvmBlock <= gc.LastClosedBlock {
		r.Status, r.ClosedHeight = statusExpired, bs.height
		return nil
	}
	wv := make([]quorum.Vote, len(r.Votes))
	for i, v := range r.Votes {
		wv[i] = quorum.Vote{Validator: a.chain.addresses[v.Validator], Power: a.chain.gen.Validators[v.Validator].Power,
			Values: []decimal.Decimal{mustDec(v.Truth.MinPrice), decimal.NewFromInt(v.Truth.Timestamp)}}
	}
	out, err := quorum.Aggregate(wv, a.chain.total, atDeadline)
	if err != nil {
		panic("app: truth aggregation of validated votes: " + err.Error())
	}
	r.ReportedPower = out.ReportedPower
	switch out.Status {
	case quorum.StatusPending:
		return nil
	case quorum.StatusExpired:
		r.Status, r.ClosedHeight = statusExpired, bs.height
		return nil
	}
	ts := out.Values[1].IntPart()
	if gc.HasClosed && ts < gc.LastTimestamp {
		// votes cast before a later block closed the chain can aggregate to
		// a time before that close; agents' times must never go backwards
		r.Status, r.ClosedHeight = statusExpired, bs.height
		return nil
	}
	r.Status, r.ClosedHeight = statusFinal, bs.height
	r.MinPrice, r.Timestamp = fmtDec(out.Values[0]), ts
	return a.closeGasBlock(st, gc, r, out.Values[0], bs)
}
