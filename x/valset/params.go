package valset

import "fmt"

// Params are the chain's rules for proposals, meant for genesis (and, once
// parameter upgrades exist, for them too).
type Params struct {
	// MaxProposalBlocks bounds a proposal's life: its expiry height is in
	// (proposed height, proposed height + MaxProposalBlocks].
	MaxProposalBlocks int64
	// MinUpgradeDelayBlocks: a params proposal activates at least this many
	// blocks after its expiry height, so every node learns of an approved
	// upgrade at least this long before it applies, however late the
	// approval came (min_upgrade_delay_blocks).
	MinUpgradeDelayBlocks int64
	// MaxChanges bounds the changes of one proposal.
	MaxChanges int
	// MaxValidators bounds the set a proposal may leave.
	MaxValidators int
}

// Bounds of the params.
const (
	MaxBlocksLimit        = 1_000_000 // genesis.MaxBlocksLimit, every deadline in blocks
	MaxChangesLimit       = 256
	MaxValidatorsLimit    = 10_000
	DefaultProposalBlocks = 50_000 // about 14 hours at one block a second
	DefaultUpgradeDelay   = 1_000  // about 17 minutes at one block a second
	DefaultMaxChanges     = 32
	DefaultMaxValidators  = 100 // the size docs/performance.md measures quorum work at
)

// DefaultParams: proposals live up to 50,000 blocks, upgrades activate at
// least 1,000 blocks after their expiry, at most 32 changes per proposal and
// 100 validators.
func DefaultParams() Params {
	return Params{
		MaxProposalBlocks:     DefaultProposalBlocks,
		MinUpgradeDelayBlocks: DefaultUpgradeDelay,
		MaxChanges:            DefaultMaxChanges,
		MaxValidators:         DefaultMaxValidators,
	}
}

// Validate checks each field.
func (p Params) Validate() error {
	fields := []struct {
		name  string
		value int64
		max   int64
	}{
		{"max_proposal_blocks", p.MaxProposalBlocks, MaxBlocksLimit},
		{"min_upgrade_delay_blocks", p.MinUpgradeDelayBlocks, MaxBlocksLimit},
		{"max_changes", int64(p.MaxChanges), MaxChangesLimit},
		{"max_validators", int64(p.MaxValidators), MaxValidatorsLimit},
	}
	for _, f := range fields {
		if f.value < 1 || f.value > f.max {
			return inputErr(ErrInvalidParams, f.name, f.value, fmt.Sprintf("must be in [1, %d]", f.max))
		}
	}
	return nil
}
