package gas

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// execCommit records uid's commit to a prediction for the EVM block: its
// submission (status committed, the commit's block time) and its entry in
// the block's prediction set, with no price until the reveal.
func execCommit(env kernel.Env, g *subnetv1.GasTarget, commitment []byte, uid uint32) []abcitypes.Event {
	st := env.St
	sub := env.NewSubmission(genesis.TrackGas, uid, commitment)
	sub.Gas = &subnetv1.GasPredict{EvmChainId: g.EvmChainId, EvmBlock: g.EvmBlock}
	st.Create(store.KeySubmission(sub.Id), sub) // a new id (store.Overlay.Create)
	set := st.Predictions(g.EvmChainId, g.EvmBlock)
	if len(set.Items) == 0 {
		gc := st.GasChain(g.EvmChainId)
		gc.OpenBlocks = insertSorted(gc.OpenBlocks, g.EvmBlock)
		st.Save(store.KeyGasChain(g.EvmChainId), gc)
	}
	set.Items = append(set.Items, &subnetv1.Prediction{Uid: uid, SubmissionId: sub.Id, BlockTime: env.Block.Time})
	st.Save(store.KeyPredictionSet(g.EvmChainId, g.EvmBlock), set)
	if !st.Has(store.KeyGasAgent(g.EvmChainId, uid)) {
		st.Save(store.KeyGasAgent(g.EvmChainId, uid), &subnetv1.GasAgent{Uid: uid, EvmChainId: g.EvmChainId})
	}
	return []abcitypes.Event{wire.Event(wire.EventSubmissionAdded, "submission_id", kernel.U64s(sub.Id), "uid", kernel.U64s(uint64(uid)),
		"track", genesis.TrackGas, "evm_chain_id", kernel.U64s(g.EvmChainId), "evm_block", kernel.U64s(g.EvmBlock), "status", sub.Status)}
}

// execReveal fills the committed prediction's price: status pending until
// the close at the end of the reveal window judges it.
func execReveal(env kernel.Env, g *subnetv1.GasPredict, uid uint32) []abcitypes.Event {
	st := env.St
	price := kernel.FmtDec(kernel.Dec(g.Price))
	set := st.Predictions(g.EvmChainId, g.EvmBlock)
	var id uint64
	for _, p := range set.Items {
		if p.Uid == uid {
			p.Price, id = price, p.SubmissionId
		}
	}
	st.Save(store.KeyPredictionSet(g.EvmChainId, g.EvmBlock), set)
	sub, _ := st.Submission(id)
	sub.Gas.Price, sub.RevealHeight = price, env.Block.Height
	kernel.SetStatus(st, sub, kernel.StatusPending)
	st.Save(store.KeySubmission(id), sub)
	return []abcitypes.Event{wire.Event(wire.EventSubmissionRevealed, "submission_id", kernel.U64s(id), "uid", kernel.U64s(uint64(uid)),
		"track", genesis.TrackGas, "evm_chain_id", kernel.U64s(g.EvmChainId), "evm_block", kernel.U64s(g.EvmBlock))}
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
