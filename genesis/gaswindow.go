package genesis

import (
	"cmp"
	"fmt"
	"slices"
)

// GasWindow sets the block window of one EVM chain of the gas track: the
// seed's "range of blocks for which an estimate is guaranteed to land".
// A chain not listed in chain.gas_windows has windows of one block (every
// block is its own window, as on Ethereum).
type GasWindow struct {
	// EvmChainID is one of chain.gas_chains.
	EvmChainID uint64 `json:"evm_chain_id"`
	// WindowBlocks is k: the windows are [n·k, n·k + k − 1], each named by
	// its first block; in [1, chain.max_prediction_ahead], so the window
	// after the last closed one can always be predicted and reported.
	WindowBlocks uint64 `json:"window_blocks"`
}

// WindowBlocks is the window size k of EVM chain id: its entry in
// chain.gas_windows, else 1.
func (c ChainParams) WindowBlocks(id uint64) uint64 {
	i, ok := slices.BinarySearchFunc(c.GasWindows, id, func(w GasWindow, id uint64) int {
		return cmp.Compare(w.EvmChainID, id)
	})
	if !ok {
		return 1
	}
	return c.GasWindows[i].WindowBlocks
}

// validateGasWindows: ascending chain ids, each one of gas_chains, each k in
// [1, max_prediction_ahead].
func (c ChainParams) validateGasWindows() error {
	for i, w := range c.GasWindows {
		field := fmt.Sprintf("chain.gas_windows[%d]", i)
		if i > 0 && c.GasWindows[i-1].EvmChainID >= w.EvmChainID {
			return fieldErr(field+".evm_chain_id", w.EvmChainID, "chain ids must be strictly ascending (no duplicates)")
		}
		if !slices.Contains(c.GasChains, w.EvmChainID) {
			return fieldErr(field+".evm_chain_id", w.EvmChainID, "not one of chain.gas_chains")
		}
		if w.WindowBlocks < 1 || w.WindowBlocks > c.MaxPredictionAhead {
			return fieldErr(field+".window_blocks", w.WindowBlocks,
				fmt.Sprintf("must be in [1, chain.max_prediction_ahead = %d]: the window after the last closed one must be reachable", c.MaxPredictionAhead))
		}
	}
	return nil
}

// checkGasWindows refuses a change of an EVM chain's window size on a
// running chain: its closed blocks and open predictions are aligned to the
// size in force. A chain added by the same upgrade may take any size.
func checkGasWindows(old, next ChainParams) error {
	for _, id := range old.GasChains {
		if o, n := old.WindowBlocks(id), next.WindowBlocks(id); o != n {
			return fieldErr("params.chain.gas_windows", fmt.Sprintf("%d: %d", id, n),
				fmt.Sprintf("the window size of EVM chain %d cannot change on a running chain (in force: %d): its closed blocks and predictions are aligned to it", id, o))
		}
	}
	return nil
}
