package gas

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/retain"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
)

// emptyNote is the receipt note of a prediction for an EVM block whose
// truth is empty.
const emptyNote = "the EVM block had no priced transaction: nothing to predict"

// votePrice is a truth vote's price in the round's median: its min_price,
// or 0 for an empty vote (so an empty block settles only where the
// weighted median and the bracket rule put it, as any price does).
func votePrice(t *subnetv1.MsgTruth) decimal.Decimal {
	if t.Empty {
		return decimal.Zero
	}
	return kernel.Dec(t.MinPrice)
}

// finalEmpty closes an empty EVM block for the chain at once, like
// finalTruth: the last closed block and timestamp advance (so quiet EVM
// chains never stall the track), the last min price stays the last priced
// block's. There is nothing to reveal: the reveal window is empty and the
// close that sweeps the block's predictions falls due at the end of this
// block.
func finalEmpty(env kernel.Env, gc *subnetv1.GasChain, r *subnetv1.TruthRound) []abcitypes.Event {
	gc.LastClosedBlock, gc.HasClosed, gc.LastTimestamp = r.EvmBlock, true, r.Timestamp
	env.St.Save(store.KeyGasChain(gc.EvmChainId), gc)
	r.RevealDeadline = env.Block.Height
	store.Due{St: env.St, Kind: store.DueGasClose}.Add(r.RevealDeadline, r.EvmChainId, r.EvmBlock)
	return []abcitypes.Event{wire.Event(wire.EventGasTruthFinal, "evm_chain_id", kernel.U64s(r.EvmChainId), "evm_block", kernel.U64s(r.EvmBlock),
		"empty", "true", "timestamp", kernel.I64s(r.Timestamp))}
}

// closeEmptyBlock closes an empty EVM block: its predictions, and those of
// earlier open blocks whose truth is not final (skipped), end unscored; no
// agent's window closes (memories and histories see only priced blocks).
// Earlier final blocks keep their predictions for their own close.
func closeEmptyBlock(env kernel.Env, r *subnetv1.TruthRound) []abcitypes.Event {
	st := env.St
	gc := st.GasChain(r.EvmChainId)
	keep := gc.OpenBlocks[:0:0]
	var swept []uint64
	for _, b := range gc.OpenBlocks {
		if b > r.EvmBlock || (b < r.EvmBlock && awaitsClose(env, gc.EvmChainId, b)) {
			keep = append(keep, b)
			continue
		}
		note := emptyNote
		if b < r.EvmBlock {
			note = sweepNote(kernel.StatusUnscored)
		}
		for _, p := range st.Predictions(gc.EvmChainId, b).Items {
			swept = append(swept, p.SubmissionId)
			markPrediction(env, p.SubmissionId, kernel.StatusUnscored, note)
		}
		st.Delete(store.KeyPredictionSet(gc.EvmChainId, b))
	}
	gc.OpenBlocks = keep
	st.Save(store.KeyGasChain(gc.EvmChainId), gc)
	retain.Round(st, env.Block.Height, r.EvmChainId, r.EvmBlock, swept)
	return []abcitypes.Event{wire.Event(wire.EventGasWindowClosed, "evm_chain_id", kernel.U64s(r.EvmChainId), "evm_block", kernel.U64s(r.EvmBlock),
		"empty", "true", "timestamp", kernel.I64s(r.Timestamp), "unscored_predictions", kernel.U64s(uint64(len(swept))))}
}

// awaitsClose reports whether EVM block b has a final truth whose close
// has not run yet (its predictions are still open). One read.
func awaitsClose(env kernel.Env, chain, b uint64) bool {
	env.ChargeWork(budget.UnitsLookup)
	r, ok := env.St.Truth(chain, b)
	return ok && r.Status == kernel.StatusFinal
}
