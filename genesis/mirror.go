package genesis

import (
	"errors"
	"fmt"

	"github.com/scoringsubnet/validatord/x/budget"
	"github.com/scoringsubnet/validatord/x/mirror"
)

// Registration modes (chain.registration).
const (
	// RegistrationPoW: this chain hands out its own uids for work
	// (docs/membership.md). The default; an empty field means it.
	RegistrationPoW = "pow"
	// RegistrationMirror: uids are the parent chain's, attested by the
	// validators and bound by the hotkeys' signatures (docs/mirror.md).
	RegistrationMirror = "mirror"
)

// MirrorEnvelopeBytes bounds what a MsgAttestMetagraph transaction adds to
// its snapshot's encoding: the signed envelope (signature, sender, nonce, a
// chain id of at most CometBFT's 50 bytes) and the message's other fields
// and tags. app/mirror_test.go checks it against a real transaction.
const MirrorEnvelopeBytes = 256

// MirrorMaxOpenAttestations is how many open attestation rounds (parent
// blocks above the last final one) one validator may vote in: a stuck round
// and the next ones while a lagging parent node catches up.
const MirrorMaxOpenAttestations = 4

// Bytes a newly final snapshot may write per reset uid, counted as the app
// counts a block's writes (key + value + 100 per entry): its entry, its
// binding's deletion, its holder's account, its Miner record and its two
// windows' deletions (MirrorUIDBytes), and one gas agent's deletion per
// gas chain (MirrorAgentBytes). app/mirror_test.go checks them against a
// reset of every uid.
const (
	MirrorUIDBytes   = 800
	MirrorAgentBytes = 120
	// MaxMirrorFinalBytes bounds what one final snapshot writes, so that the
	// worst block (docs/codes.md, "Block bound") stays inside one badger
	// transaction with it.
	MaxMirrorFinalBytes = 2 << 20
)

// MirrorUIDUnits is the work of one reset uid: its entry rewritten and
// its binding deleted (budget.UnitsMirrorUID), its holder's account, Miner
// record, two windows and gasChains gas agents (budget.UnitsDueItem each).
func MirrorUIDUnits(gasChains int) int64 {
	return budget.UnitsMirrorUID + budget.UnitsDueItem*int64(3+gasChains)
}

// MirrorFinalWork is the most a newly final snapshot costs the end of
// block: every entry read, every uid reset.
func (s AppState) MirrorFinalWork() int64 {
	return int64(s.Chain.MaxUIDs) * (budget.UnitsLookup + MirrorUIDUnits(len(s.Chain.GasChains)))
}

// MirrorFinalBytes is the most a newly final snapshot writes: every uid reset.
func (s AppState) MirrorFinalBytes() int64 {
	return int64(s.Chain.MaxUIDs) * (MirrorUIDBytes + MirrorAgentBytes*int64(len(s.Chain.GasChains)))
}

// MirrorParams is genesis' mirror section: mirror.Params, the parent block
// treated as final before the first attestation, and the subnet's netuid on
// the parent chain (for the validators' readers and the events; the rules
// do not read it).
type MirrorParams struct {
	MaxEntries        uint32 `json:"max_entries"`
	MaxBlocksBehind   uint64 `json:"max_blocks_behind"`
	AttestationBlocks uint64 `json:"attestation_blocks"`
	StartBlock        uint64 `json:"start_block"`
	NetUID            uint16 `json:"netuid"`
}

// DefaultMirrorParams are x/mirror's defaults for a chain of maxUIDs uids,
// starting at parent block 0 on netuid 1.
func DefaultMirrorParams(maxUIDs int) MirrorParams {
	p := mirror.DefaultParams()
	return MirrorParams{MaxEntries: uint32(maxUIDs), MaxBlocksBehind: p.MaxBlocksBehind,
		AttestationBlocks: p.AttestationBlocks, NetUID: 1}
}

// Params is the section's mirror.Params.
func (m MirrorParams) Params() mirror.Params {
	return mirror.Params{MaxEntries: m.MaxEntries, MaxBlocksBehind: m.MaxBlocksBehind, AttestationBlocks: m.AttestationBlocks}
}

// IsMirror reports whether chain.registration = mirror.
func (s AppState) IsMirror() bool { return s.Chain.Registration == RegistrationMirror }

// MirrorParams returns the mirror section's rules (zero in pow mode).
func (s AppState) MirrorParams() mirror.Params {
	if s.Mirror == nil {
		return mirror.Params{}
	}
	return s.Mirror.Params()
}

// validateMirror checks chain.registration and, in mirror mode, the mirror
// section: mirror.Params.Validate, then the cross-checks of docs/mirror.md
// §4 (max_entries = chain.max_uids, start_block on the cadence, a full
// snapshot fits one transaction, the burn uid is a parent uid).
func (s AppState) validateMirror() error {
	switch s.Chain.Registration {
	case "", RegistrationPoW:
		if s.Mirror != nil {
			return fieldErr("mirror", "(set)", "only chain.registration = mirror reads it; remove it")
		}
		return nil
	case RegistrationMirror:
	default:
		return fieldErr("chain.registration", fmt.Sprintf("%q", s.Chain.Registration), `must be "pow" or "mirror"`)
	}
	if s.Mirror == nil {
		return fieldErr("mirror", "(absent)", "chain.registration = mirror needs the mirror section")
	}
	return s.validateMirrorSection(*s.Mirror)
}

func (s AppState) validateMirrorSection(m MirrorParams) error {
	if err := m.Params().Validate(); err != nil {
		var ie *mirror.InputError
		if errors.As(err, &ie) {
			return fieldErr("mirror."+ie.Field, ie.Value, ie.Rule)
		}
		return wrapParams("mirror", err)
	}
	if int(m.MaxEntries) != s.Chain.MaxUIDs {
		return fieldErr("mirror.max_entries", m.MaxEntries, fmt.Sprintf("must equal chain.max_uids (%d): epoch weights cover the parent's uids one to one", s.Chain.MaxUIDs))
	}
	if m.StartBlock%m.AttestationBlocks != 0 {
		return fieldErr("mirror.start_block", m.StartBlock, fmt.Sprintf("must be a multiple of attestation_blocks (%d)", m.AttestationBlocks))
	}
	if n := int64(mirror.EncodedSize(s.Chain.MaxUIDs)) + MirrorEnvelopeBytes; n > s.Chain.MaxTxBytes {
		return fieldErr("chain.max_tx_bytes", s.Chain.MaxTxBytes, fmt.Sprintf(
			"a snapshot of max_uids %d entries takes a %d-byte transaction (%d + %d of envelope): raise max_tx_bytes or lower max_uids",
			s.Chain.MaxUIDs, n, mirror.EncodedSize(s.Chain.MaxUIDs), MirrorEnvelopeBytes))
	}
	if uint32(s.Window.BurnUID) >= m.MaxEntries {
		return fieldErr("window.burn_uid", s.Window.BurnUID, fmt.Sprintf("must be a parent uid, below mirror.max_entries (%d): the uid the subnet owner holds", m.MaxEntries))
	}
	return s.validateMirrorBound()
}

// validateMirrorBound: a final snapshot is applied whole, never split, in
// a block that may also run an epoch, so both fit the end of block's work
// budget together, and its writes fit MaxMirrorFinalBytes.
func (s AppState) validateMirrorBound() error {
	if w, limit := s.EpochWork()+s.MirrorFinalWork(), budget.DefaultLimits().EndWork; w > limit {
		return fieldErr("chain.max_uids", s.Chain.MaxUIDs, fmt.Sprintf(
			"an epoch (%d units) and a final snapshot resetting every uid (%d units) take %d units, more than the end of block's %d",
			s.EpochWork(), s.MirrorFinalWork(), w, limit))
	}
	if b := s.MirrorFinalBytes(); b > MaxMirrorFinalBytes {
		return fieldErr("chain.max_uids", s.Chain.MaxUIDs, fmt.Sprintf(
			"a final snapshot resetting every uid writes %d bytes (max_uids × (%d + %d × gas chains)), more than %d",
			b, MirrorUIDBytes, MirrorAgentBytes, MaxMirrorFinalBytes))
	}
	return nil
}
