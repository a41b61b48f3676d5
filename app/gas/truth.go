package gas

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/retain"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/x/quorum"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

func execTruth(env kernel.Env, tx *kernel.Tx, m *subnetv1.MsgTruth) []abcitypes.Event {
	st := env.St
	r, ok := st.Truth(m.EvmChainId, m.EvmBlock)
	if !ok {
		r = &subnetv1.TruthRound{EvmChainId: m.EvmChainId, EvmBlock: m.EvmBlock, OpenedHeight: env.Block.Height,
			Deadline: env.Block.Height + env.Chain.Gen.Chain.TruthReportBlocks, Status: kernel.StatusPending}
		store.Due{St: st, Kind: store.DueTruths}.Add(r.Deadline, m.EvmChainId, m.EvmBlock)
	}
	truth := *m
	if !m.Empty {
		truth.MinPrice = kernel.FmtDec(kernel.Dec(m.MinPrice))
	}
	r.Votes = append(r.Votes, &subnetv1.Vote{Validator: uint32(tx.Validator), Height: env.Block.Height, Truth: &truth})
	open := store.KeyOpenRounds(tx.Validator, m.EvmChainId)
	st.SetU64(open, st.U64(open)+1)
	evs := []abcitypes.Event{wire.Event(wire.EventTruthReceived, "evm_chain_id", kernel.U64s(m.EvmChainId), "evm_block", kernel.U64s(m.EvmBlock),
		"validator", env.Chain.ValidatorName(tx.Validator))}
	return append(evs, settleTruth(env, r, false)...)
}

// settleTruth aggregates a pending truth round (weighted median of price and
// of timestamp; an empty vote's price is 0) and stores the outcome: still
// pending; final, closing that EVM block for every gas agent; final and
// empty, when the median price is 0 (finalEmpty); expired, when the chain closed past the
// block first; contested, at the deadline with a median that is not
// bracketed (a minority could have chosen it: the block never closes on it,
// and a truth for a later block skips it); or, at the deadline with at most
// chain.deadline_quorum of the power reported, dropped — the round goes and
// the EVM block stays open, so the votes of a minority never refuse a later
// honest truth or prediction for it.
func settleTruth(env kernel.Env, r *subnetv1.TruthRound, atDeadline bool) []abcitypes.Event {
	st := env.St
	k := store.KeyTruth(r.EvmChainId, r.EvmBlock)
	gc := st.GasChain(r.EvmChainId)
	if gc.HasClosed && r.EvmBlock <= gc.LastClosedBlock {
		return endRound(env, r, kernel.StatusExpired, nil)
	}
	wv := make([]quorum.Vote, 0, len(r.Votes))
	for _, v := range env.Chain.Counted(r.Votes) { // the power in force at this height decides
		wv = append(wv, quorum.Vote{Validator: env.Chain.Address(int(v.Validator)), Power: env.Chain.Power(int(v.Validator)),
			Values: []decimal.Decimal{votePrice(v.Truth), decimal.NewFromInt(v.Truth.Timestamp)}})
	}
	out, err := quorum.Aggregate(wv, env.Chain.Total, atDeadline, env.Chain.Quorum)
	if err != nil {
		panic("gas: truth aggregation of validated votes: " + err.Error())
	}
	r.ReportedPower, r.TotalPower = out.ReportedPower, env.Chain.Total
	switch out.Status {
	case quorum.StatusPending:
		st.Save(k, r)
		return nil
	case quorum.StatusExpired:
		endRound(env, r, "", nil)
		st.Delete(k)
		return nil
	case quorum.StatusContested:
		return endRound(env, r, kernel.StatusContested, func() []abcitypes.Event { return contestedTruth(env, r, out) })
	}
	ts := out.Values[1].IntPart()
	if gc.HasClosed && ts < gc.LastTimestamp {
		// votes cast before a later block closed the chain can aggregate to
		// a time before that close; agents' times must never go backwards
		return endRound(env, r, kernel.StatusExpired, nil)
	}
	r.Timestamp = ts
	if out.Values[0].IsZero() {
		// the median vote is empty: the block had no priced transaction
		r.Empty = true
		return endRound(env, r, kernel.StatusFinal, func() []abcitypes.Event { return finalEmpty(env, gc, r) })
	}
	r.MinPrice = kernel.FmtDec(out.Values[0])
	return endRound(env, r, kernel.StatusFinal, func() []abcitypes.Event { return finalTruth(env, gc, r) })
}

// finalTruth makes the EVM block closed for the chain at once (no commit
// for it or below is taken from now on, and its truth anchors the next
// rounds) and opens the reveal window of its commits: the close that judges
// the agents with the revealed predictions falls due at the window's end.
func finalTruth(env kernel.Env, gc *subnetv1.GasChain, r *subnetv1.TruthRound) []abcitypes.Event {
	gc.LastClosedBlock, gc.HasClosed = r.EvmBlock, true
	gc.LastMinPrice, gc.LastTimestamp = r.MinPrice, r.Timestamp
	env.St.Save(store.KeyGasChain(gc.EvmChainId), gc)
	r.RevealDeadline = env.Block.Height + env.Chain.CommitParams(genesis.TrackGas).RevealBlocks
	store.Due{St: env.St, Kind: store.DueGasClose}.Add(r.RevealDeadline, r.EvmChainId, r.EvmBlock)
	return []abcitypes.Event{wire.Event(wire.EventGasTruthFinal, "evm_chain_id", kernel.U64s(r.EvmChainId), "evm_block", kernel.U64s(r.EvmBlock),
		"min_price", r.MinPrice, "timestamp", kernel.I64s(r.Timestamp),
		"reveal_from", kernel.I64s(env.Block.Height+1), "reveal_until", kernel.I64s(r.RevealDeadline))}
}

// truthFields names the fields of a truth vote, in the order of its values.
var truthFields = []string{"min_price", "timestamp"}

// contestedTruth is the event of a contested round: which medians were not
// bracketed, and the powers.
func contestedTruth(env kernel.Env, r *subnetv1.TruthRound, out quorum.Outcome) []abcitypes.Event {
	fields := kernel.JoinFields(out.Unbracketed, func(f int) string { return truthFields[f] })
	return []abcitypes.Event{wire.Event(wire.EventGasTruthContested, "evm_chain_id", kernel.U64s(r.EvmChainId), "evm_block", kernel.U64s(r.EvmBlock),
		"fields", fields, "reported_power", kernel.I64s(out.ReportedPower), "total_power", kernel.I64s(out.TotalPower))}
}

// endRound takes r out of pending: every voter's open-round count goes
// down, and with a status r is stored as ended at this height (after close,
// when given, ran).
func endRound(env kernel.Env, r *subnetv1.TruthRound, status string, close func() []abcitypes.Event) []abcitypes.Event {
	st := env.St
	for _, v := range r.Votes {
		open := store.KeyOpenRounds(int(v.Validator), r.EvmChainId)
		st.DecU64(open)
	}
	if status == "" {
		return nil
	}
	r.Status, r.ClosedHeight = status, env.Block.Height
	var evs []abcitypes.Event
	if close != nil {
		evs = close()
	}
	st.Save(store.KeyTruth(r.EvmChainId, r.EvmBlock), r)
	if status != kernel.StatusFinal {
		// a final round is scheduled by its close, which still reads it
		retain.Round(st, env.Block.Height, r.EvmChainId, r.EvmBlock, nil)
	}
	return evs
}
