package replay

import (
	"errors"
	"fmt"

	dbm "github.com/cometbft/cometbft-db"
	cfg "github.com/cometbft/cometbft/config"
	sm "github.com/cometbft/cometbft/state"
	"github.com/cometbft/cometbft/store"
	"github.com/cometbft/cometbft/types"
	"github.com/syndtr/goleveldb/leveldb/opt"
)

// Source is what a stopped node's home holds for a replay: its genesis, its block store and
// its state store (for validator sets and the last app hash), all opened read-only.
type Source struct {
	Genesis *types.GenesisDoc
	Blocks  *store.BlockStore
	States  sm.Store
	// State is the node's last saved consensus state.
	State sm.State
	// Stored is the genesis document CometBFT saved when the node first
	// started (StoredGenesis): the one the chain began with.
	Stored *types.GenesisDoc

	dbs []dbm.DB
}

// ErrNodeRunning says that the node's stores are locked by a running process.
var ErrNodeRunning = errors.New("the node's stores are in use: stop the node before replaying it")

// OpenSource opens the genesis file, block store and state store of the node configured by
// conf (conf.RootDir set). Only the goleveldb backend, CometBFT's default, can be opened
// read-only; other backends are refused rather than opened for writing.
func OpenSource(conf *cfg.Config) (*Source, error) {
	gen, err := types.GenesisDocFromFile(conf.GenesisFile())
	if err != nil {
		return nil, fmt.Errorf("genesis %s: %w", conf.GenesisFile(), err)
	}
	if conf.DBBackend != string(dbm.GoLevelDBBackend) {
		return nil, fmt.Errorf("db_backend %q: replay reads only goleveldb stores read-only", conf.DBBackend)
	}
	src := &Source{Genesis: gen}
	blockDB, err := openReadOnly("blockstore", conf.DBDir())
	if err != nil {
		return nil, err
	}
	src.dbs = append(src.dbs, blockDB)
	stateDB, err := openReadOnly("state", conf.DBDir())
	if err != nil {
		src.Close()
		return nil, err
	}
	src.dbs = append(src.dbs, stateDB)
	if src.Stored, err = StoredGenesis(stateDB); err != nil {
		src.Close()
		return nil, err
	}
	src.Blocks = store.NewBlockStore(blockDB)
	src.States = sm.NewStore(stateDB, sm.StoreOptions{DiscardABCIResponses: true})
	st, err := src.States.Load()
	if err != nil {
		src.Close()
		return nil, fmt.Errorf("load state: %w", err)
	}
	src.State = st
	return src, nil
}

// openReadOnly opens one goleveldb database of a node without writing to it.
func openReadOnly(name, dir string) (dbm.DB, error) {
	db, err := dbm.NewGoLevelDBWithOpts(name, dir, &opt.Options{ReadOnly: true, ErrorIfMissing: true})
	if err != nil {
		if isLockError(err) {
			return nil, fmt.Errorf("%s/%s.db: %w", dir, name, ErrNodeRunning)
		}
		return nil, fmt.Errorf("open %s/%s.db read-only: %w", dir, name, err)
	}
	return db, nil
}

// Close closes the stores.
func (s *Source) Close() error {
	var errs []error
	for _, db := range s.dbs {
		errs = append(errs, db.Close())
	}
	s.dbs = nil
	return errors.Join(errs...)
}

// LastHeight is the highest height whose app hash can be checked: the block store's height
// when the state store has applied it, else one less.
func (s *Source) LastHeight() int64 {
	h := s.Blocks.Height()
	if s.State.LastBlockHeight < h {
		h = s.State.LastBlockHeight
	}
	return h
}

// ExpectedAppHash is the app hash the chain committed to after executing block h: the
// AppHash of block h+1's header, or for the state's last height (no block h+1 stored) the
// state store's AppHash. byState reports which one was used.
func (s *Source) ExpectedAppHash(h int64) (hash []byte, byState bool, err error) {
	if meta := s.Blocks.LoadBlockMeta(h + 1); meta != nil {
		return meta.Header.AppHash, false, nil
	}
	if h == s.State.LastBlockHeight {
		return s.State.AppHash, true, nil
	}
	return nil, false, fmt.Errorf("height %d: no block %d in the store and the state is at %d", h, h+1, s.State.LastBlockHeight)
}
