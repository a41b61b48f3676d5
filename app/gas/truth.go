package gas

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/track"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/x/quorum"
	"github.com/shopspring/decimal"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

func execTruth(env track.Env, tx *track.Tx, m *subnetv1.MsgTruth) []abcitypes.Event {
	st := env.St
	r, ok := st.Truth(m.EvmChainId, m.EvmBlock)
	if !ok {
		r = &subnetv1.TruthRound{EvmChainId: m.EvmChainId, EvmBlock: m.EvmBlock, OpenedHeight: env.Block.Height,
			Deadline: env.Block.Height + env.Chain.Gen.Chain.TruthReportBlocks, Status: track.StatusPending}
		due := st.Due(r.Deadline)
		due.Truths = append(due.Truths, &subnetv1.TruthRef{EvmChainId: m.EvmChainId, EvmBlock: m.EvmBlock})
		st.Save(store.KeyDue(r.Deadline), due)
	}
	truth := *m
	truth.MinPrice = track.FmtDec(track.Dec(m.MinPrice))
	r.Votes = append(r.Votes, &subnetv1.Vote{Validator: uint32(tx.Validator), Height: env.Block.Height, Truth: &truth})
	evs := []abcitypes.Event{wire.Event(wire.EventTruthReceived, "evm_chain_id", track.U64s(m.EvmChainId), "evm_block", track.U64s(m.EvmBlock),
		"validator", env.Chain.ValidatorName(tx.Validator))}
	evs = append(evs, settleTruth(env, r, false)...)
	st.Save(store.KeyTruth(m.EvmChainId, m.EvmBlock), r)
	return evs
}

// settleTruth aggregates a pending truth round (weighted median of price and
// of timestamp) and, once final, closes that EVM block for every gas agent.
// The caller saves r.
func settleTruth(env track.Env, r *subnetv1.TruthRound, atDeadline bool) []abcitypes.Event {
	st := env.St
	gc := st.GasChain(r.EvmChainId)
	if gc.HasClosed && r.EvmBlock <= gc.LastClosedBlock {
		r.Status, r.ClosedHeight = track.StatusExpired, env.Block.Height
		return nil
	}
	wv := make([]quorum.Vote, len(r.Votes))
	for i, v := range r.Votes {
		wv[i] = quorum.Vote{Validator: env.Chain.Address(int(v.Validator)), Power: env.Chain.Power(int(v.Validator)),
			Values: []decimal.Decimal{track.Dec(v.Truth.MinPrice), decimal.NewFromInt(v.Truth.Timestamp)}}
	}
	out, err := quorum.Aggregate(wv, env.Chain.Total, atDeadline)
	if err != nil {
		panic("gas: truth aggregation of validated votes: " + err.Error())
	}
	r.ReportedPower = out.ReportedPower
	switch out.Status {
	case quorum.StatusPending:
		return nil
	case quorum.StatusExpired:
		r.Status, r.ClosedHeight = track.StatusExpired, env.Block.Height
		return nil
	}
	ts := out.Values[1].IntPart()
	if gc.HasClosed && ts < gc.LastTimestamp {
		// votes cast before a later block closed the chain can aggregate to
		// a time before that close; agents' times must never go backwards
		r.Status, r.ClosedHeight = track.StatusExpired, env.Block.Height
		return nil
	}
	r.Status, r.ClosedHeight = track.StatusFinal, env.Block.Height
	r.MinPrice, r.Timestamp = track.FmtDec(out.Values[0]), ts
	return closeGasBlock(env, gc, r, out.Values[0])
}
