package genesis

import (
	"cmp"
	"fmt"
	"slices"
)

// GasPause is governance's pause of one EVM chain of the gas track
// (docs/governance.md §4, docs/scoring.md "Paused chains"). With
// ResumeBlock 0 the chain is paused: no gas commit, reveal or truth for it
// is taken, and nothing is owed for the EVM blocks it produces meanwhile. A
// later params proposal resumes it by setting ResumeBlock: the first EVM
// block owed a truth again. A chain paused for good (retired) keeps its
// entry at 0; its closed state stays queryable and its id is never reused.
type GasPause struct {
	// EvmChainID is one of chain.gas_chains.
	EvmChainID uint64 `json:"evm_chain_id"`
	// ResumeBlock is 0 while the chain is paused; else the EVM block the
	// chain restarted from: the first block of a window (a multiple of the
	// chain's window_blocks), so the chain is closed up to the window before
	// it when the resume comes into force.
	ResumeBlock uint64 `json:"resume_block,omitempty"`
}

// GasPauseOf is EVM chain id's entry in chain.gas_paused, if any: a chain
// with an entry was paused at some time, and is paused now while its
// ResumeBlock is 0.
func (c ChainParams) GasPauseOf(id uint64) (GasPause, bool) {
	i, ok := slices.BinarySearchFunc(c.GasPaused, id, func(p GasPause, id uint64) int {
		return cmp.Compare(p.EvmChainID, id)
	})
	if !ok {
		return GasPause{}, false
	}
	return c.GasPaused[i], true
}

// IsGasPaused reports whether governance has paused EVM chain id.
func (c ChainParams) IsGasPaused(id uint64) bool {
	p, ok := c.GasPauseOf(id)
	return ok && p.ResumeBlock == 0
}

// validateGasPaused: ascending chain ids, each one of gas_chains, and a
// resume block that names the first block of one of the chain's windows.
func (c ChainParams) validateGasPaused() error {
	for i, p := range c.GasPaused {
		field := fmt.Sprintf("chain.gas_paused[%d]", i)
		if i > 0 && c.GasPaused[i-1].EvmChainID >= p.EvmChainID {
			return fieldErr(field+".evm_chain_id", p.EvmChainID, "chain ids must be strictly ascending (no duplicates)")
		}
		if !slices.Contains(c.GasChains, p.EvmChainID) {
			return fieldErr(field+".evm_chain_id", p.EvmChainID, "not one of chain.gas_chains: only a chain the gas track follows can be paused")
		}
		if k := c.WindowBlocks(p.EvmChainID); p.ResumeBlock%k != 0 {
			return fieldErr(field+".resume_block", p.ResumeBlock,
				fmt.Sprintf("must be the first block of a window of EVM chain %d (a multiple of its window_blocks = %d)", p.EvmChainID, k))
		}
	}
	return nil
}

// checkGasPaused applies the transition rules of pauses: an entry is never
// dropped (a chain once paused keeps its record, and a retired chain's id
// is never reused); a chain newly listed is listed paused (resume_block 0);
// a paused chain resumes by a resume_block > 0; and a running chain's
// resume block cannot change (it was applied when the resume came into
// force), only be set back to 0 to pause the chain again.
func checkGasPaused(old, next ChainParams) error {
	for _, o := range old.GasPaused {
		n, ok := next.GasPauseOf(o.EvmChainID)
		switch {
		case !ok:
			return fieldErr("params.chain.gas_paused", fmt.Sprint(o.EvmChainID),
				fmt.Sprintf("drops EVM chain %d: an entry stays for good (set resume_block to resume a paused chain, 0 to pause it again)", o.EvmChainID))
		case o.ResumeBlock > 0 && n.ResumeBlock > 0 && n.ResumeBlock != o.ResumeBlock:
			return fieldErr("params.chain.gas_paused", fmt.Sprintf("%d: resume_block %d", o.EvmChainID, n.ResumeBlock),
				fmt.Sprintf("EVM chain %d already resumed at block %d; a resume block cannot change (pause the chain, resume_block 0, then resume it)", o.EvmChainID, o.ResumeBlock))
		}
	}
	for _, n := range next.GasPaused {
		if _, ok := old.GasPauseOf(n.EvmChainID); !ok && n.ResumeBlock != 0 {
			return fieldErr("params.chain.gas_paused", fmt.Sprintf("%d: resume_block %d", n.EvmChainID, n.ResumeBlock),
				fmt.Sprintf("EVM chain %d is not paused: a new entry pauses a chain (resume_block 0 or absent), a later proposal resumes it", n.EvmChainID))
		}
	}
	return nil
}
