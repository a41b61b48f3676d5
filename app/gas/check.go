package gas

import (
	"fmt"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/x/commit"
)

// checkCommit: gas track on, known EVM chain not paused, a chain anchored by a closed
// block, a block whose truth is not final and not too far ahead, a 32-byte
// commitment, one commit per agent per block. The price is in the reveal.
func checkCommit(env kernel.Env, g *subnetv1.GasTarget, commitment []byte, uid uint32) *wire.TxError {
	st := env.St
	if terr := env.RequireTrack(genesis.TrackGas); terr != nil {
		return terr
	}
	if !env.Chain.HasGasChain(g.EvmChainId) {
		return wire.Reject(wire.CodeUnknownEVMChain, fmt.Sprintf("evm_chain_id = %d: not in chain.gas_chains", g.EvmChainId))
	}
	if terr := checkPaused(env, g.EvmChainId); terr != nil {
		return terr
	}
	if terr := checkWindow(env, g.EvmChainId, g.EvmBlock); terr != nil {
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
	if r, ok := st.Truth(g.EvmChainId, g.EvmBlock); ok && r.Status != kernel.StatusPending {
		return wire.Reject(wire.CodeEVMBlockClosed, fmt.Sprintf("evm_block = %d: its truth round is %s", g.EvmBlock, r.Status))
	}
	if terr := kernel.CheckCommitment(commitment); terr != nil {
		return terr
	}
	if p := findPrediction(st, g.EvmChainId, g.EvmBlock, uid); p != nil {
		return wire.Reject(wire.CodeDuplicateSubmission, fmt.Sprintf("uid %d already committed to block %d of chain %d (submission %d)", uid, g.EvmBlock, g.EvmChainId, p.SubmissionId))
	}
	return nil
}

// findPrediction is uid's committed prediction for the EVM block, or nil.
func findPrediction(st store.State, chain, block uint64, uid uint32) *subnetv1.Prediction {
	for _, p := range st.Predictions(chain, block).Items {
		if p.Uid == uid {
			return p
		}
	}
	return nil
}

// RevealWindow is the reveal window of an EVM block's commits: from the
// block after its truth became final to the round's reveal deadline; ok is
// false while the truth is not final (the window has not opened).
func RevealWindow(r *subnetv1.TruthRound) (w commit.Window, ok bool) {
	if r == nil || r.Status != kernel.StatusFinal {
		return commit.Window{}, false
	}
	return commit.Window{First: r.ClosedHeight + 1, Last: r.RevealDeadline}, true
}

// checkReveal, in order: track and EVM chain (24, 32), not paused (80),
// the price (14–16),
// the salt (47), an empty block or a window already closed (49: the close
// swept the block's commits), the sender's commit for the block (48), the window open (49),
// not yet revealed (28), and last the opening (50).
func checkReveal(env kernel.Env, tx *kernel.Tx, m *subnetv1.MsgReveal) *wire.TxError {
	st, g := env.St, m.Submit.GetGas()
	if terr := env.RequireTrack(genesis.TrackGas); terr != nil {
		return terr
	}
	if !env.Chain.HasGasChain(g.EvmChainId) {
		return wire.Reject(wire.CodeUnknownEVMChain, fmt.Sprintf("evm_chain_id = %d: not in chain.gas_chains", g.EvmChainId))
	}
	if terr := checkPaused(env, g.EvmChainId); terr != nil {
		return terr
	}
	if terr := checkWindow(env, g.EvmChainId, g.EvmBlock); terr != nil {
		return terr
	}
	if _, terr := wire.PositiveAmount("price", g.Price); terr != nil {
		return terr
	}
	if terr := kernel.CheckSalt(m.Salt); terr != nil {
		return terr
	}
	r, _ := st.Truth(g.EvmChainId, g.EvmBlock)
	what := fmt.Sprintf("block %d of chain %d", g.EvmBlock, g.EvmChainId)
	w, final := RevealWindow(r)
	if final && r.Empty {
		return wire.Reject(wire.CodeRevealWindow, what+": its truth is empty (no priced transaction): nothing to predict, its commits end unscored")
	}
	if final && env.Block.Height > w.Last {
		return env.CheckWindow(w, what)
	}
	uid := tx.Account.Uid
	p := findPrediction(st, g.EvmChainId, g.EvmBlock, uid)
	if p == nil {
		return wire.Reject(wire.CodeNoCommit, fmt.Sprintf("uid %d has no open commit for block %d of chain %d", uid, g.EvmBlock, g.EvmChainId))
	}
	if !final {
		return wire.Reject(wire.CodeRevealWindow, what+": reveals open the block after its truth is final, and it is not")
	}
	if terr := env.CheckWindow(w, what); terr != nil {
		return terr
	}
	if p.Price != "" {
		return wire.Reject(wire.CodeDuplicateSubmission, fmt.Sprintf("submission %d of uid %d for block %d of chain %d is already revealed", p.SubmissionId, uid, g.EvmBlock, g.EvmChainId))
	}
	sub, _ := st.Submission(p.SubmissionId)
	return env.CheckOpens(tx, sub, m.Submit, m.Salt)
}

// checkTruth: a validator, gas track on, known EVM chain not paused, a block not yet
// closed and, once the chain has a closed block, at most
// max_prediction_ahead past it; a round still pending, one truth per
// validator; a positive price, or none for an empty truth; a timestamp not before the last closed
// block's and not past the block time + max_truth_drift_seconds; and fewer
// than max_prediction_ahead pending rounds of the chain holding the
// validator's vote. So one validator can open only a bounded number of
// rounds, each of which, at or below chain.deadline_quorum of the power, is
// dropped at its deadline and refuses nobody.
func checkTruth(env kernel.Env, tx *kernel.Tx, m *subnetv1.MsgTruth) *wire.TxError {
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
	if terr := checkPaused(env, m.EvmChainId); terr != nil {
		return terr
	}
	if terr := checkWindow(env, m.EvmChainId, m.EvmBlock); terr != nil {
		return terr
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
		if r.Status == kernel.StatusContested {
			return wire.Reject(wire.CodeContested, fmt.Sprintf("evm_block = %d: its truth round was contested at its deadline; a truth for a later block closes the chain past it", m.EvmBlock))
		}
		if r.Status != kernel.StatusPending {
			return wire.Reject(wire.CodeEVMBlockClosed, fmt.Sprintf("evm_block = %d: its truth round is %s", m.EvmBlock, r.Status))
		}
		for _, v := range r.Votes {
			if int(v.Validator) == tx.Validator {
				return wire.Reject(wire.CodeDuplicateTruth, fmt.Sprintf("validator %q already reported the truth of block %d of chain %d", env.Chain.ValidatorName(tx.Validator), m.EvmBlock, m.EvmChainId))
			}
		}
	}
	if terr := checkTruthPrice(m); terr != nil {
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

// checkTruthPrice: a priced truth carries a positive min_price; an empty
// one (the EVM block had no priced transaction) carries none.
func checkTruthPrice(m *subnetv1.MsgTruth) *wire.TxError {
	if !m.Empty {
		_, terr := wire.PositiveAmount("min_price", m.MinPrice)
		return terr
	}
	if m.MinPrice != "" {
		return wire.Reject(wire.CodeEmptyTruthPriced, fmt.Sprintf("min_price = %q: an empty truth (no priced transaction in the EVM block) has no price", m.MinPrice))
	}
	return nil
}

// checkPaused: governance has not paused the EVM chain (chain.gas_paused).
// A paused chain takes no commit, reveal or truth: its open predictions
// ended unscored when the pause came into force, and nothing is owed for
// the EVM blocks it produces until a params proposal resumes it.
func checkPaused(env kernel.Env, chain uint64) *wire.TxError {
	if env.Chain.Gen.Chain.IsGasPaused(chain) {
		return wire.Reject(wire.CodeEVMChainPaused, fmt.Sprintf("evm_chain_id = %d: paused by governance (chain.gas_paused); a params proposal that sets its resume_block resumes it", chain))
	}
	return nil
}

// checkWindow: evm_block names a window of its EVM chain, i.e. is a
// multiple of the chain's window_blocks (always so with windows of one
// block). The chain cannot see the EVM chain, so this is all it checks of
// the window itself; the truth's price and timestamp are the validators'
// (docs/scoring.md, block windows).
func checkWindow(env kernel.Env, chain, block uint64) *wire.TxError {
	k := env.Chain.Gen.Chain.WindowBlocks(chain)
	if block%k != 0 {
		return wire.Reject(wire.CodeEVMWindowMisaligned, fmt.Sprintf("evm_block = %d: chain %d has windows of %d blocks, named by their first block (a multiple of %d): this one is in window %d",
			block, chain, k, k, block-block%k))
	}
	return nil
}
