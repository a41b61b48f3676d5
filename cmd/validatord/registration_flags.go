package main

import (
	"flag"
	"fmt"

	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/x/membership"
)

// registrationFlags set the genesis membership section of init and testnet:
// the floor difficulty of a registration and the registrations a block
// takes. A chain meant for production keeps membership.DefaultParams (init's
// defaults); a local test network (testnet's defaults) makes registration
// instant so that demo, load and e2e runs spend no CPU on it.
//
// --registration mirror makes the chain follow the parent chain's uids
// instead (docs/mirror.md): the mirror section at x/mirror's defaults, with
// the subnet's netuid and the parent block it starts from.
type registrationFlags struct {
	difficulty *uint64
	perBlock   *uint
	mode       *string
	netuid     *uint
	startBlock *uint64
}

// Testnet's registration defaults: 256 hashes (microseconds), and every
// miner of a load run may register in one block.
const (
	testnetDifficulty = 256
	testnetPerBlock   = 256
)

func defineRegistrationFlags(fs *flag.FlagSet, difficulty uint64, perBlock uint) registrationFlags {
	return registrationFlags{
		difficulty: fs.Uint64("registration-difficulty", difficulty,
			"initial and minimum registration difficulty: the expected hashes a uid costs (docs/membership.md §5)"),
		perBlock: fs.Uint("registrations-per-block", perBlock, "membership.max_registrations_per_block"),
		mode: fs.String("registration", genesis.RegistrationPoW,
			"chain.registration: pow (uids for work, docs/membership.md) or mirror (the parent chain's uids, docs/mirror.md)"),
		netuid:     fs.Uint("mirror-netuid", 1, "mirror mode: the subnet's netuid on the parent chain (mirror.netuid)"),
		startBlock: fs.Uint64("mirror-start-block", 0, "mirror mode: the parent block taken as final before the first attestation, a multiple of mirror.attestation_blocks"),
	}
}

// apply sets the membership section: initial = min = the difficulty, the
// ceiling 8 doublings above it (as the defaults), or the default ceiling
// when the floor is already within 8 doublings of it.
func (f registrationFlags) apply(st *genesis.AppState) error {
	d := *f.difficulty
	if d < 1 {
		return fmt.Errorf("--registration-difficulty: %d, want at least 1", d)
	}
	p := &st.Membership
	p.InitialDifficulty, p.MinDifficulty = d, d
	if d > membership.DefaultMaxDifficulty>>8 {
		p.MaxDifficulty = max(d, membership.DefaultMaxDifficulty)
	} else {
		p.MaxDifficulty = d << 8
	}
	p.MaxRegistrationsPerBlock = uint32(min(*f.perBlock, uint(st.Chain.MaxUIDs)))
	return f.applyMode(st)
}

// applyMode sets chain.registration and, in mirror mode, the mirror
// section (pow leaves the field out, as the default genesis does).
func (f registrationFlags) applyMode(st *genesis.AppState) error {
	switch *f.mode {
	case genesis.RegistrationPoW:
		return nil
	case genesis.RegistrationMirror:
	default:
		return fmt.Errorf("--registration: %q, want %s or %s", *f.mode, genesis.RegistrationPoW, genesis.RegistrationMirror)
	}
	if *f.netuid > 1<<16-1 {
		return fmt.Errorf("--mirror-netuid: %d, want a u16", *f.netuid)
	}
	m := genesis.DefaultMirrorParams(st.Chain.MaxUIDs)
	m.NetUID, m.StartBlock = uint16(*f.netuid), *f.startBlock
	st.Chain.Registration, st.Mirror = genesis.RegistrationMirror, &m
	return nil
}
