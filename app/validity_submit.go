package app

import (
	"fmt"

	"github.com/scoringsubnet/validatord/app/wire"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

func (a *App) checkSubmit(st state, ct *checkedTx, m *subnetv1.MsgSubmit, bc blockCtx) *wire.TxError {
	if !ct.account.Miner {
		return wire.Reject(wire.CodeNotMiner, fmt.Sprintf("submit: sender %x is not a registered miner", ct.Body.Sender))
	}
	uid := ct.account.Uid
	switch k := m.Kind.(type) {
	case *subnetv1.MsgSubmit_Workflow:
		if k.Workflow == nil {
			return wire.Reject(wire.CodeEmptyMsg, "submit.workflow is empty")
		}
		w := k.Workflow
		return wire.FirstErr(
			a.checkTaskOpen(st, w.TaskId, uid, genesis.TrackWorkflow, bc),
			wire.Count("declared_retry_budget", w.DeclaredRetryBudget, false),
			checkArtifact(w.ArtifactHash))
	case *subnetv1.MsgSubmit_Arena:
		if k.Arena == nil {
			return wire.Reject(wire.CodeEmptyMsg, "submit.arena is empty")
		}
		return wire.FirstErr(
			a.checkTaskOpen(st, k.Arena.TaskId, uid, genesis.TrackArena, bc),
			checkArtifact(k.Arena.ArtifactHash))
	case *subnetv1.MsgSubmit_Gas:
		if k.Gas == nil {
			return wire.Reject(wire.CodeEmptyMsg, "submit.gas is empty")
		}
		return a.checkPrediction(st, k.Gas, uid)
	}
	return wire.Reject(wire.CodeEmptyMsg, "submit has no content")
}

func checkArtifact(h []byte) *wire.TxError {
	if len(h) != wire.ArtifactHashSize {
		return wire.Reject(wire.CodeBadArtifactHash, fmt.Sprintf("artifact_hash has %d bytes, want %d", len(h), wire.ArtifactHashSize))
	}
	return nil
}

// taskTrack names the track of a task.
func taskTrack(t *subnetv1.Task) string {
	if t.GetArena() != nil {
		return genesis.TrackArena
	}
	return genesis.TrackWorkflow
}

// checkTaskOpen: the task exists, is of the track, is open for submissions
// at this height, and the miner has not submitted to it yet.
func (a *App) checkTaskOpen(st state, id uint64, uid uint32, track string, bc blockCtx) *wire.TxError {
	if terr := a.requireTrack(track); terr != nil {
		return terr
	}
	t, ok := st.task(id)
	if !ok {
		return wire.Reject(wire.CodeUnknownTask, fmt.Sprintf("task_id = %d: no such task", id))
	}
	if got := taskTrack(t); got != track {
		return wire.Reject(wire.CodeWrongKind, fmt.Sprintf("task_id = %d is a %s task, not %s", id, got, track))
	}
	if bc.height > t.SubmitDeadline {
		return wire.Reject(wire.CodeSubmissionDeadline, fmt.Sprintf("task_id = %d: submissions closed at height %d (now %d)", id, t.SubmitDeadline, bc.height))
	}
	if sub, dup := st.taskMiner(id, uid); dup {
		return wire.Reject(wire.CodeDuplicateSubmission, fmt.Sprintf("uid %d already submitted %d for task %d", uid, sub, id))
	}
	return nil
}

// checkPrediction: gas track on, known EVM chain, positive price, a chain
// anchored by a closed block, a block whose window is still open and not too
// far ahead, one prediction per agent per block.
func (a *App) checkPrediction(st state, g *subnetv1.GasPredict, uid uint32) *wire.TxError {
	if terr := a.requireTrack(genesis.TrackGas); terr != nil {
		return terr
	}
	if !a.chain.hasGasChain(g.EvmChainId) {
		return wire.Reject(wire.CodeUnknownEVMChain, fmt.Sprintf("evm_chain_id = %d: not in chain.gas_chains", g.EvmChainId))
	}
	if _, terr := wire.PositiveAmount("price", g.Price); terr != nil {
		return terr
	}
	gc := st.gasChain(g.EvmChainId)
	if !gc.HasClosed {
		return wire.Reject(wire.CodeEVMChainUnanchored, fmt.Sprintf("evm_chain_id = %d: no EVM block closed yet; predictions open once validators' truth closes the first one", g.EvmChainId))
	}
	if g.EvmBlock <= gc.LastClosedBlock {
		return wire.Reject(wire.CodeEVMBlockClosed, fmt.Sprintf("evm_block = %d: chain %d is closed up to block %d", g.EvmBlock, g.EvmChainId, gc.LastClosedBlock))
	}
	// Every open prediction lies in (last closed, last closed + ahead], so a
	// close sweeps at most ahead × max_uids of them (genesis.GasCloseBytes).
	ahead := a.chain.gen.Chain.MaxPredictionAhead
	if g.EvmBlock-gc.LastClosedBlock > ahead {
		return wire.Reject(wire.CodePredictionTooFar, fmt.Sprintf("evm_block = %d: more than %d blocks past the last closed block %d", g.EvmBlock, ahead, gc.LastClosedBlock))
	}
	if r, ok := st.truth(g.EvmChainId, g.EvmBlock); ok && r.Status != statusPending {
		return wire.Reject(wire.CodeEVMBlockClosed, fmt.Sprintf("evm_block = %d: its truth round is %s", g.EvmBlock, r.Status))
	}
	for _, p := range st.predictions(g.EvmChainId, g.EvmBlock).Items {
		if p.Uid == uid {
			return wire.Reject(wire.CodeDuplicateSubmission, fmt.Sprintf("uid %d already predicted block %d of chain %d (submission %d)", uid, g.EvmBlock, g.EvmChainId, p.SubmissionId))
		}
	}
	return nil
}
