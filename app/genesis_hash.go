package app

import (
	"crypto/sha256"
	"fmt"

	abcitypes "github.com/cometbft/cometbft/abci/types"
)

// GenesisHash is the hash the chain pins its genesis by: sha256 of the
// InitChain request's protobuf bytes, which carry everything of
// genesis.json that CometBFT hands the app (chain id, genesis time, initial
// height, consensus params, validators and the app_state bytes). InitChain
// stores it under store.KeyGenesisHash; `validatord start` compares it with
// the request the node's genesis.json makes (internal/replay.InitChainRequest,
// the request CometBFT's handshake builds) and refuses a changed file.
// gogoproto encodes a message without map fields deterministically, so the
// same document always gives the same hash under one CometBFT version (a
// pinned dependency: docs/architecture.md).
func GenesisHash(req *abcitypes.RequestInitChain) ([]byte, error) {
	bz, err := req.Marshal()
	if err != nil {
		return nil, fmt.Errorf("app: genesis hash: %w", err)
	}
	sum := sha256.Sum256(bz)
	return sum[:], nil
}

// StoredGenesisHash is the genesis hash of the committed state (nil before
// InitChain, and on a chain initialised by a version that did not store it).
func (a *App) StoredGenesisHash() []byte {
	a.closeMu.RLock()
	defer a.closeMu.RUnlock()
	if a.db == nil {
		return nil
	}
	q, done := a.committedView()
	defer done()
	return q.GenesisHash()
}
