package replay

import (
	"bytes"
	"encoding/hex"
	"fmt"

	dbm "github.com/cometbft/cometbft-db"
	cmtjson "github.com/cometbft/cometbft/libs/json"
	"github.com/cometbft/cometbft/types"

	"github.com/scoringsubnet/validatord/app"
	"github.com/scoringsubnet/validatord/genesis"
)

// genesisDocKey is where CometBFT's node saves the genesis document in its
// state database the first time it starts (node/setup.go); from then on it
// runs from that copy and never reads genesis.json again.
var genesisDocKey = []byte("genesisDoc")

// StoredGenesis is the genesis document a node's CometBFT state database
// holds: the one the chain began with (nil when the node never started).
func StoredGenesis(stateDB dbm.DB) (*types.GenesisDoc, error) {
	bz, err := stateDB.Get(genesisDocKey)
	if err != nil {
		return nil, fmt.Errorf("read the stored genesis: %w", err)
	}
	if len(bz) == 0 {
		return nil, nil
	}
	var doc *types.GenesisDoc
	if err := cmtjson.Unmarshal(bz, &doc); err != nil {
		return nil, fmt.Errorf("decode the stored genesis: %w", err)
	}
	return doc, nil
}

// CheckGenesis refuses a genesis.json (file, read from path) that is not the
// genesis its chain began with: a *genesis.ChangedError naming every field
// that differs from stored (CometBFT's saved copy; nil when the node never
// started), or, when there is no stored copy to compare, the two hashes when
// storedHash (app.GenesisHash as the app's InitChain stored it; nil when
// unknown) differs from the file's. The stored document decides when
// present: it is what CometBFT runs from, and its fields name the change.
func CheckGenesis(path string, stored, file *types.GenesisDoc, storedHash []byte) error {
	if stored != nil {
		changes, err := GenesisChanges(stored, file)
		if err != nil {
			return err
		}
		if len(changes) > 0 {
			return &genesis.ChangedError{File: path, Changes: changes}
		}
		return nil
	}
	if storedHash == nil {
		return nil
	}
	fileHash, err := app.GenesisHash(InitChainRequest(file))
	if err != nil {
		return err
	}
	if !bytes.Equal(fileHash, storedHash) {
		return &genesis.ChangedError{File: path, StoredHash: hex.EncodeToString(storedHash), FileHash: hex.EncodeToString(fileHash)}
	}
	return nil
}

// GenesisChanges lists the fields of the genesis document that differ
// between old and new, app_state included ("app_state.window.cap").
func GenesisChanges(old, new *types.GenesisDoc) ([]genesis.Change, error) {
	a, err := cmtjson.Marshal(old)
	if err != nil {
		return nil, fmt.Errorf("encode the stored genesis: %w", err)
	}
	b, err := cmtjson.Marshal(new)
	if err != nil {
		return nil, fmt.Errorf("encode genesis.json: %w", err)
	}
	return genesis.Diff(a, b)
}
