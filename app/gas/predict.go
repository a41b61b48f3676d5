package gas

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/track"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

func execPrediction(env track.Env, g *subnetv1.GasPredict, uid uint32) []abcitypes.Event {
	st := env.St
	sub := env.NewSubmission(genesis.TrackGas, uid)
	price := track.FmtDec(track.Dec(g.Price))
	sub.Gas = &subnetv1.GasPredict{EvmChainId: g.EvmChainId, EvmBlock: g.EvmBlock, Price: price}
	st.Save(store.KeySubmission(sub.Id), sub)
	set := st.Predictions(g.EvmChainId, g.EvmBlock)
	if len(set.Items) == 0 {
		gc := st.GasChain(g.EvmChainId)
		gc.OpenBlocks = insertSorted(gc.OpenBlocks, g.EvmBlock)
		st.Save(store.KeyGasChain(g.EvmChainId), gc)
	}
	set.Items = append(set.Items, &subnetv1.Prediction{Uid: uid, SubmissionId: sub.Id, BlockTime: env.Block.Time, Price: price})
	st.Save(store.KeyPredictionSet(g.EvmChainId, g.EvmBlock), set)
	if !st.Has(store.KeyGasAgent(g.EvmChainId, uid)) {
		st.Save(store.KeyGasAgent(g.EvmChainId, uid), &subnetv1.GasAgent{Uid: uid, EvmChainId: g.EvmChainId})
	}
	return []abcitypes.Event{wire.Event(wire.EventSubmissionAdded, "submission_id", track.U64s(sub.Id), "uid", track.U64s(uint64(uid)),
		"track", genesis.TrackGas, "evm_chain_id", track.U64s(g.EvmChainId), "evm_block", track.U64s(g.EvmBlock))}
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
