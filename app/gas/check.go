package gas

import (
	"fmt"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/track"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
)

// checkPrediction: gas track on, known EVM chain, positive price, a chain
// anchored by a closed block, a block whose window is still open and not too
// far ahead, one prediction per agent per block.
func checkPrediction(env track.Env, g *subnetv1.GasPredict, uid uint32) *wire.TxError {
	st := env.St
	if terr := env.RequireTrack(genesis.TrackGas); terr != nil {
		return terr
	}
	if !env.Chain.HasGasChain(g.EvmChainId) {
		return wire.Reject(wire.CodeUnknownEVMChain, fmt.Sprintf("evm_chain_id = %d: not in chain.gas_chains", g.EvmChainId))
	}
	if _, terr := wire.PositiveAmount("price", g.Price); terr != nil {
		return terr
	}
	gc := st.GasChain(g.EvmChainId)
	if !gc.HasClosed {
		return wire.Reject(wire.CodeEVMChainUnanchored, fmt.Sprintf("evm_chain_id = %d: no EVM block closed yet; predictions open once validators' truth closes the first one", g.EvmChainId))
	}
	if g.EvmBlock <= gc.LastClosedBlock {
		return wire.Reject(wire.CodeEVMBlockClosed, fmt.Sprintf("evm_block = %d: chain %d is closed up to block %d", g.EvmBlock, g.EvmChainId, gc.LastClosedBlock))
	}
	// Every open prediction lies in (last closed, last closed + ahead], so a
	// close sweeps at most ahead × max_uids of them (genesis.GasCloseBytes).
	ahead := env.Chain.Gen.Chain.MaxPredictionAhead
	if g.EvmBlock-gc.LastClosedBlock > ahead {
		return wire.Reject(wire.CodePredictionTooFar, fmt.Sprintf("evm_block = %d: more than %d blocks past the last closed block %d", g.EvmBlock, ahead, gc.LastClosedBlock))
	}
	if r, ok := st.Truth(g.EvmChainId, g.EvmBlock); ok && r.Status != track.StatusPending {
		return wire.Reject(wire.CodeEVMBlockClosed, fmt.Sprintf("evm_block = %d: its truth round is %s", g.EvmBlock, r.Status))
	}
	for _, p := range st.Predictions(g.EvmChainId, g.EvmBlock).Items {
		if p.Uid == uid {
			return wire.Reject(wire.CodeDuplicateSubmission, fmt.Sprintf("uid %d already predicted block %d of chain %d (submission %d)", uid, g.EvmBlock, g.EvmChainId, p.SubmissionId))
		}
	}
	return nil
}

// checkTruth: a validator, gas track on, known EVM chain, a block not yet
// closed and, once the chain has a closed block, at most
// max_prediction_ahead past it; a round still pending, one truth per
// validator; a positive price; a timestamp not before the last closed
// block's and not past the block time + max_truth_drift_seconds; and fewer
// than max_prediction_ahead pending rounds of the chain holding the
// validator's vote. So one validator can open only a bounded number of
// rounds, each of which, at or below chain.deadline_quorum of the power, is
// dropped at its deadline and refuses nobody.
func checkTruth(env track.Env, tx *track.Tx, m *subnetv1.MsgTruth) *wire.TxError {
	st := env.St
	if terr := env.RequireValidator(tx, "truth"); terr != nil {
		return terr
	}
	if terr := env.RequireTrack(genesis.TrackGas); terr != nil {
		return terr
	}
	if !env.Chain.HasGasChain(m.EvmChainId) {
		return wire.Reject(wire.CodeUnknownEVMChain, fmt.Sprintf("evm_chain_id = %d: not in chain.gas_chains", m.EvmChainId))
	}
	gc := st.GasChain(m.EvmChainId)
	if gc.HasClosed && m.EvmBlock <= gc.LastClosedBlock {
		return wire.Reject(wire.CodeEVMBlockClosed, fmt.Sprintf("evm_block = %d: chain %d is closed up to block %d", m.EvmBlock, m.EvmChainId, gc.LastClosedBlock))
	}
	ahead := env.Chain.Gen.Chain.MaxPredictionAhead
	if gc.HasClosed && m.EvmBlock-gc.LastClosedBlock > ahead {
		return wire.Reject(wire.CodeTruthTooFar, fmt.Sprintf("evm_block = %d: more than %d blocks past the last closed block %d", m.EvmBlock, ahead, gc.LastClosedBlock))
	}
	if r, ok := st.Truth(m.EvmChainId, m.EvmBlock); ok {
		if r.Status != track.StatusPending {
			return wire.Reject(wire.CodeEVMBlockClosed, fmt.Sprintf("evm_block = %d: its truth round is %s", m.EvmBlock, r.Status))
		}
		for _, v := range r.Votes {
			if int(v.Validator) == tx.Validator {
				return wire.Reject(wire.CodeDuplicateTruth, fmt.Sprintf("validator %q already reported the truth of block %d of chain %d", env.Chain.ValidatorName(tx.Validator), m.EvmBlock, m.EvmChainId))
			}
		}
	}
	if _, terr := wire.PositiveAmount("min_price", m.MinPrice); terr != nil {
		return terr
	}
	if m.Timestamp <= 0 {
		return wire.Reject(wire.CodeCountRange, fmt.Sprintf("timestamp = %d: must be positive unix seconds", m.Timestamp))
	}
	if gc.HasClosed && m.Timestamp < gc.LastTimestamp {
		return wire.Reject(wire.CodeTruthTimeBackwards, fmt.Sprintf("timestamp = %d: before the last closed block's %d", m.Timestamp, gc.LastTimestamp))
	}
	if limit := env.Block.Time + env.Chain.Gen.Chain.MaxTruthDriftSeconds; m.Timestamp > limit {
		return wire.Reject(wire.CodeTruthTimeFuture, fmt.Sprintf("timestamp = %d: later than the block time %d + max_truth_drift_seconds %d",
			m.Timestamp, env.Block.Time, env.Chain.Gen.Chain.MaxTruthDriftSeconds))
	}
	if open := st.U64(store.KeyOpenRounds(tx.Validator, m.EvmChainId)); open >= ahead {
		return wire.Reject(wire.CodeTooManyOpenRounds, fmt.Sprintf("validator %q votes in %d pending rounds of chain %d; max_prediction_ahead is %d",
			env.Chain.ValidatorName(tx.Validator), open, m.EvmChainId, ahead))
	}
	return nil
}
