package app

import (
	"fmt"

	"github.com/scoringsubnet/validatord/app/wire"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// checkTruth: a validator, gas track on, known EVM chain, a block not yet
// closed whose round is not expired, one truth per validator, a positive
// price and a timestamp not before the last closed block's.
func (a *App) checkTruth(st state, ct *checkedTx, m *subnetv1.MsgTruth) *wire.TxError {
	if terr := a.requireValidator(ct, "truth"); terr != nil {
		return terr
	}
	if terr := a.requireTrack(genesis.TrackGas); terr != nil {
		return terr
	}
	if !a.chain.hasGasChain(m.EvmChainId) {
		return wire.Reject(wire.CodeUnknownEVMChain, fmt.Sprintf("evm_chain_id = %d: not in chain.gas_chains", m.EvmChainId))
	}
	gc := st.gasChain(m.EvmChainId)
	if gc.HasClosed && m.EvmBlock <= gc.LastClosedBlock {
		return wire.Reject(wire.CodeEVMBlockClosed, fmt.Sprintf("evm_block = %d: chain %d is closed up to block %d", m.EvmBlock, m.EvmChainId, gc.LastClosedBlock))
	}
	if r, ok := st.truth(m.EvmChainId, m.EvmBlock); ok {
		if r.Status != statusPending {
			return wire.Reject(wire.CodeEVMBlockClosed, fmt.Sprintf("evm_block = %d: its truth round is %s", m.EvmBlock, r.Status))
		}
		for _, v := range r.Votes {
			if int(v.Validator) == ct.validator {
				return wire.Reject(wire.CodeDuplicateTruth, fmt.Sprintf("validator %q already reported the truth of block %d of chain %d", a.chain.gen.Validators[ct.validator].Name, m.EvmBlock, m.EvmChainId))
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
	return nil
}
