package main

import (
	"flag"

	"github.com/scoringsubnet/validatord/genesis"
)

// retentionFlag sets chain.retain_state_blocks in the genesis that init and
// testnet write. It is on by default (a week of 1 s blocks), so that a
// chain made with the defaults has a bounded state; 0 keeps everything, for
// a chain whose auditors read every receipt from the state (docs/retention.md).
type retentionFlag struct{ blocks *int64 }

func defineRetentionFlag(fs *flag.FlagSet) retentionFlag {
	return retentionFlag{blocks: fs.Int64("retain-state-blocks", genesis.NodeRetainStateBlocks,
		"chain.retain_state_blocks: settled tasks, truth rounds and epochs are deleted this many blocks after they ended (0 keeps everything; docs/retention.md)")}
}

// apply sets the field; genesis validation then checks it against the
// chain's retention horizon and names the bound when it is too short.
func (f retentionFlag) apply(st *genesis.AppState) error {
	st.Chain.RetainStateBlocks = *f.blocks
	return nil
}

// genesisTune applies each of init's or testnet's genesis flags in turn.
func genesisTune(tunes ...func(*genesis.AppState) error) func(*genesis.AppState) error {
	return func(st *genesis.AppState) error {
		for _, t := range tunes {
			if err := t(st); err != nil {
				return err
			}
		}
		return nil
	}
}

// checkGenesisFlags applies tune to the default genesis and validates its
// params, before a home is made: a bad genesis flag leaves nothing behind.
func checkGenesisFlags(tune func(*genesis.AppState) error) error {
	st := genesis.DefaultGenesis()
	if err := tune(&st); err != nil {
		return err
	}
	if err := st.ValidateParams(); err != nil {
		return err
	}
	return nil
}
