package main

import (
	cfg "github.com/cometbft/cometbft/config"

	"github.com/scoringsubnet/validatord/internal/replay"
)

// checkGenesisPinned refuses, before the node runs, a genesis.json that is
// not the genesis the chain began with (replay.CheckGenesis): CometBFT
// would run on from the copy in its state database and ignore the edit.
// The state database is opened and closed here; the node opens it again.
func checkGenesisPinned(files *nodeFiles, storedHash []byte) error {
	db, err := cfg.DefaultDBProvider(&cfg.DBContext{ID: "state", Config: files.conf})
	if err != nil {
		return oneLine(err)
	}
	stored, err := replay.StoredGenesis(db)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return oneLine(err)
	}
	return oneLine(replay.CheckGenesis(files.conf.GenesisFile(), stored, files.genDoc, storedHash))
}
