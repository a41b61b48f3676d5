package mirror

import "fmt"

// Params are the mirror-mode parameters of the chain, from genesis
// (mirror.*, read only when chain.registration = mirror).
type Params struct {
	// MaxEntries bounds a snapshot: at most MaxEntries entries, every uid
	// below it. It must equal the chain's max_uids, so that epoch weights
	// indexed by uid cover the parent chain's uids one to one.
	MaxEntries uint32
	// MaxBlocksBehind is how stale (or how far ahead) a binding's parent
	// block may be, in parent-chain blocks, measured from the parent block
	// of the final snapshot (CheckBinding). It bounds how long a leaked
	// binding signature stays usable.
	MaxBlocksBehind uint64
	// AttestationBlocks is the attestation cadence, in parent-chain blocks:
	// validators attest only parent blocks that are multiples of it
	// (CheckAttestation), so honest validators that each follow the parent
	// chain's finalised head pick the same block.
	AttestationBlocks uint64
}

// Bounds of the parameters.
const (
	// MaxEntriesLimit: Bittensor's uids are u16, so no subnet has more.
	MaxEntriesLimit = 1 << 16
	// MaxBlocksLimit bounds both durations: 10^6 parent blocks is about
	// 139 days at Bittensor's 12 s blocks.
	MaxBlocksLimit = 1_000_000
)

// Defaults. Bittensor's parent chain makes a block every 12 s.
//
//   - DefaultMaxEntries = 256: Bittensor's default max_allowed_uids and
//     this chain's default max_uids.
//   - DefaultAttestationBlocks = 360: Bittensor's default tempo (72
//     minutes), the cadence at which the parent chain itself runs epochs
//     and reads set_weights; a metagraph fresher than that changes nothing
//     the parent acts on.
//   - DefaultMaxBlocksBehind = 7200: one day of parent blocks, 20
//     attestations; a miner's signed binding is good for about a day around
//     the final snapshot, long enough to be included, short enough that a
//     leaked one expires.
const (
	DefaultMaxEntries        = 256
	DefaultAttestationBlocks = 360
	DefaultMaxBlocksBehind   = 7200
)

// DefaultParams returns the defaults above.
func DefaultParams() Params {
	return Params{
		MaxEntries:        DefaultMaxEntries,
		MaxBlocksBehind:   DefaultMaxBlocksBehind,
		AttestationBlocks: DefaultAttestationBlocks,
	}
}

// Validate checks each field, then the one cross-field rule:
// MaxBlocksBehind ≥ 2 × AttestationBlocks, so that a binding signed at the
// parent chain's head (up to one cadence past the final snapshot, plus the
// time the next attestation takes) is still accepted when it lands.
func (p Params) Validate() error {
	if p.MaxEntries < 1 || p.MaxEntries > MaxEntriesLimit {
		return &InputError{Field: "max_entries", Value: p.MaxEntries, Rule: fmt.Sprintf("must be in [1, %d]", MaxEntriesLimit)}
	}
	if p.AttestationBlocks < 1 || p.AttestationBlocks > MaxBlocksLimit {
		return &InputError{Field: "attestation_blocks", Value: p.AttestationBlocks, Rule: fmt.Sprintf("must be in [1, %d]", MaxBlocksLimit)}
	}
	if p.MaxBlocksBehind < 1 || p.MaxBlocksBehind > MaxBlocksLimit {
		return &InputError{Field: "max_blocks_behind", Value: p.MaxBlocksBehind, Rule: fmt.Sprintf("must be in [1, %d]", MaxBlocksLimit)}
	}
	if p.MaxBlocksBehind < 2*p.AttestationBlocks {
		return &InputError{Field: "max_blocks_behind", Value: p.MaxBlocksBehind, Rule: fmt.Sprintf("must be at least 2 × attestation_blocks (%d)", 2*p.AttestationBlocks)}
	}
	return nil
}
