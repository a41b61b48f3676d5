package genesis

import (
	"fmt"

	cmttypes "github.com/cometbft/cometbft/types"
)

// Consensus params of genesis.json that the app's block budget relies on
// (docs/codes.md, "Block bound"). `validatord init` and `testnet` write them;
// `validatord start` refuses a genesis whose params break CheckConsensusParams.
// The app never changes consensus params, so the genesis values hold for the
// life of the chain.
const (
	// ConsensusBlockMaxBytes is block.max_bytes: 4 MiB, the most a proposal
	// makes every validator receive, decode and hash (CometBFT's default is
	// 21 MiB). A block executes at most 3,750 transactions
	// (budget.Limits.TxWork / budget.UnitsTx = 600,000 / 160), each at most
	// chain.max_tx_bytes (16 KiB by default); a transaction past the work
	// budget gets code 40 before its signature is verified and makes
	// ProcessProposal reject the proposal, but only once it was received and
	// decoded. 4 MiB holds 3,750 transactions of 1.1 KiB (256 of 16 KiB), so
	// the work budget, not the byte bound, fills a block of ordinary
	// transactions, while what a proposer can make every validator take in,
	// executed or not, stays at 4 MiB instead of 21.
	ConsensusBlockMaxBytes int64 = 4 << 20
	// ConsensusBlockMaxGas is block.max_gas: -1, no gas limit. The app
	// reports no gas (gas_wanted 0) and bounds a block by units of work
	// (x/budget), so a gas limit would bound nothing.
	ConsensusBlockMaxGas int64 = -1
)

// blockBoundDoc names the rule in errors.
const blockBoundDoc = `the app's block budget, docs/codes.md "Block bound"`

// CheckConsensusParams is the one rule for genesis.json's consensus params:
// block.max_bytes in [1, ConsensusBlockMaxBytes] (-1, unlimited in CometBFT,
// is refused) and block.max_gas = ConsensusBlockMaxGas. The error is a
// *FieldError naming consensus_params.block.<field>.
func CheckConsensusParams(maxBytes, maxGas int64) error {
	if maxBytes < 1 || maxBytes > ConsensusBlockMaxBytes {
		return fieldErr("consensus_params.block.max_bytes", maxBytes,
			fmt.Sprintf("must be in [1, %d] (%s)", ConsensusBlockMaxBytes, blockBoundDoc))
	}
	if maxGas != ConsensusBlockMaxGas {
		return fieldErr("consensus_params.block.max_gas", maxGas,
			fmt.Sprintf("must be %d: the app bounds a block by units of work, not gas (%s)", ConsensusBlockMaxGas, blockBoundDoc))
	}
	return nil
}

// ConsensusParams are the consensus params a chain of this app is created
// with: CometBFT's defaults with the block bounded as CheckConsensusParams
// requires.
func ConsensusParams() (*cmttypes.ConsensusParams, error) {
	p := cmttypes.DefaultConsensusParams()
	p.Block.MaxBytes = ConsensusBlockMaxBytes
	p.Block.MaxGas = ConsensusBlockMaxGas
	if err := CheckConsensusParams(p.Block.MaxBytes, p.Block.MaxGas); err != nil {
		return nil, err
	}
	return p, nil
}
