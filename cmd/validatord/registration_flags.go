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
type registrationFlags struct {
	difficulty *uint64
	perBlock   *uint
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
	return nil
}
