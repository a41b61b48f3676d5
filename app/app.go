package app

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	cmtlog "github.com/cometbft/cometbft/libs/log"
	"github.com/dgraph-io/badger/v4"

	"github.com/scoringsubnet/validatord/app/governance"
	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/snapshot"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
)

// AppVersion is the application protocol version reported by Info.
const AppVersion uint64 = 1

// Version is the software version reported by Info.
const Version = "validatord/app v1"

// memTableSize sizes badger's memtable: the largest transaction badger
// accepts is 15% of it (budget.MaxTxnBytes, 19.2 MiB), which bounds a
// block's writes (docs/codes.md, "Block bound").
const memTableSize = 128 << 20

// valueCacheEntries and valueCacheBytes bound the committed values kept
// for block execution (store.ValueCache): the accounts and tasks a block
// reads, read again by the next blocks — a block of 2,000 commits reads
// about 2,000 accounts. An account is ~300 bytes counted, so the entry
// bound is the one reached (a few MB); the byte bound holds if the values
// are large ones.
const (
	valueCacheEntries = 1 << 14
	valueCacheBytes   = 64 << 20
)

// detectConflicts is off for the state: Commit's Persist is the only
// writing transaction and never overlaps another, so there is nothing to
// detect, while badger in managed mode with detection on keeps every
// committed transaction's set of written-key fingerprints until
// SetDiscardTs passes its version — with keep_versions 14,400 the sets of
// the last 14,400 blocks (about 12,000 fingerprints for a block of 2,000
// commits), with keep_versions 0 every block's, for the life of the
// process. It changes no stored byte.
const detectConflicts = false

// App is the ABCI application. CheckTx holds checkMu alone, so it may run
// beside block execution (when CometBFT gives each ABCI connection its own
// lock: validatord start does with app.toml's concurrent_check_tx, through
// mempoolconn.PerConnection; by default one lock serialises the
// connections, which measured faster on a busy machine); every other
// ABCI method holds mu, and those that move the committed state (InitChain,
// Commit, state sync, Close) hold mu and then checkMu, so CheckTx never sees
// a half-moved state. What CheckTx shares with block execution is read-only
// while both run (the committed snapshot, the rules in force) or has its
// own lock (the signature caches).
type App struct {
	abcitypes.BaseApplication

	mu      sync.Mutex
	checkMu sync.Mutex   // CheckTx's state: check, and the committed fields it reads
	closeMu sync.RWMutex // Query holds it shared, Close exclusively
	view    atomic.Pointer[committed]
	db      *badger.DB
	logger  cmtlog.Logger
	crash   CrashPoint
	limits  budget.Limits

	// Committed state.
	height  int64
	time    int64 // the committed block's time (unix seconds)
	appHash []byte
	lanes   store.Lanes
	snap    *badger.Txn      // the store at the committed height, or (top set) the one before
	top     []*store.Overlay // pipelined: the committed block's sealed writes, read over snap until they land

	chain         *kernel.Chain  // nil until InitChain (or a committed genesis)
	genesis       *store.Overlay // InitChain's writes until the first Commit
	genesisLanes  store.Lanes
	initialHeight int64 // InitChain's initial height: the first block's height

	pending    *blockResult            // FinalizeBlock's result awaiting Commit
	proposals  map[string]*blockResult // ProcessProposal results by block hash
	check      *store.Overlay          // CheckTx state, reset on Commit
	sigs       *sigCache               // signatures verified by CheckTx (or Prefetch)
	suspects   suspects                // CheckTxs: senders kept out of batches after a bad signature; checkMu
	checkStats CheckRunStats           // CheckTxs's counts (CheckRuns); checkMu
	ahead      *ahead                  // a later block's signatures being checked (Prefetch)
	chains     governance.ChainCache   // the last chain in force built

	keepVersions int64 // Config.KeepVersions
	snapshots    SnapshotConfig
	retainBlocks int64
	evidenceAge  int64
	snapWriter   *snapshot.Writer  // writes snapshots after Commit, in the background
	restore      *restoring        // a state-sync restore in progress
	firstHeight  atomic.Int64      // the first height whose version the store holds (0: none yet)
	durable      durable           // the disk sync of the last committed block (durable.go)
	values       *store.ValueCache // committed values block execution read, kept across blocks
}

var _ abcitypes.Application = (*App)(nil)

// New opens (or creates) the state at cfg.DataDir and loads the committed
// height, app hash and genesis.
func New(cfg Config) (*App, error) {
	crash, err := ParseCrashPoint(cfg.CrashPoint)
	if err != nil {
		return nil, err
	}
	limits := cfg.Limits.OrDefault()
	if err := limits.Validate(); err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	logger := cfg.Logger
	if logger == nil {
		logger = cmtlog.NewNopLogger()
	}
	opts := badger.DefaultOptions(cfg.DataDir).WithSyncWrites(!cfg.NoSync && cfg.Durability == DurableEveryBlock).WithMemTableSize(memTableSize).
		WithDetectConflicts(detectConflicts).WithLogger(badgerLogger{logger})
	if cfg.DataDir == "" {
		opts = opts.WithInMemory(true)
	}
	db, err := badger.OpenManaged(opts)
	if err != nil {
		return nil, fmt.Errorf("app: open state %q: %w", cfg.DataDir, err)
	}
	if cfg.KeepVersions < 0 {
		_ = db.Close()
		return nil, fmt.Errorf("app: keep_versions = %d: must be ≥ 0 (0 keeps every version)", cfg.KeepVersions)
	}
	a := &App{db: db, logger: logger, crash: crash, limits: limits, sigs: newSigCache(), keepVersions: cfg.KeepVersions,
		snapshots: cfg.Snapshots, retainBlocks: cfg.RetainBlocks, evidenceAge: cfg.EvidenceMaxAgeBlocks,
		values: store.NewValueCache(valueCacheEntries, valueCacheBytes)}
	a.durable = durable{mode: cfg.Durability, noSync: cfg.NoSync || cfg.DataDir == "", sync: db.Sync} // in memory: no disk to sync
	if a.snapshots.KeepRecent < 1 {
		a.snapshots.KeepRecent = 1
	}
	a.snapWriter = &snapshot.Writer{Dir: a.snapshots.Dir, KeepRecent: a.snapshots.KeepRecent,
		Log: func(msg string, kv ...any) { logger.Info(msg, kv...) }}
	if err := a.load(); err != nil {
		_ = db.Close()
		return nil, err
	}
	a.publish()
	return a, nil
}

// load reads the committed meta and genesis, and opens the read snapshot.
func (a *App) load() error {
	a.values.Clear()
	a.top = nil
	a.snap = a.db.NewTransactionAt(store.Latest, false)
	st := store.State{O: store.NewOverlay(store.Snapshot{Txn: a.snap})}
	meta := &subnetv1.Meta{}
	if st.Load(store.KeyMeta, meta) {
		l, err := store.DecodeLanes(meta.Lanes)
		if err != nil {
			return err
		}
		a.height, a.time, a.appHash, a.lanes = meta.Height, meta.Time, meta.AppHash, l
		a.firstHeight.Store(meta.FirstHeight)
		a.discardVersions()
	}
	raw, ok := st.O.Get(store.KeyGenesis)
	if !ok {
		a.resetCheck()
		return nil
	}
	if _, err := genesis.Decode(raw); err != nil {
		return fmt.Errorf("app: stored genesis: %w", err)
	}
	if err := a.refreshChain(); err != nil {
		return err
	}
	a.resetCheck()
	return nil
}

// Close releases the database.
func (a *App) Close() error {
	a.snapWriter.Wait() // the snapshot writer reads through its own transaction
	a.lockAll()
	defer a.unlockAll()
	if a.ahead != nil {
		a.ahead.checks.Close()
		a.ahead = nil
	}
	a.abortRestore()
	a.closeMu.Lock()
	defer a.closeMu.Unlock()
	if a.snap != nil {
		a.snap.Discard()
		a.snap = nil
	}
	if a.db == nil {
		return nil
	}
	syncErr := a.durable.wait()
	err := a.db.Close()
	a.db = nil
	if syncErr != nil {
		return fmt.Errorf("app: the last block's disk sync: %w", syncErr)
	}
	return err
}

// base is the state blocks build on: committed state, plus InitChain's
// writes before the first Commit. With a block's write in flight
// (pipelined durability) that is the block's writes over the version
// before it.
func (a *App) base() (store.Reader, store.Lanes) {
	if a.genesis != nil {
		return a.genesis, a.genesisLanes
	}
	snap := store.Snapshot{Txn: a.snap}
	if a.top != nil {
		return store.Layer{Tops: a.top, Base: snap}, a.lanes
	}
	return snap, a.lanes
}

// refreshChain sets a.chain to the rules in force at the next height, from
// the committed state (or InitChain's): what CheckTx and queries use.
func (a *App) refreshChain() error {
	b, _ := a.base()
	st := store.State{O: store.NewOverlay(b)}
	chainID, _ := st.O.Get(store.KeyChainID)
	c, err := a.chains.At(st, string(chainID), a.nextHeight())
	if err != nil {
		return err
	}
	a.chain = c
	return nil
}

// discardVersions lets badger drop the versions older than the kept ones.
func (a *App) discardVersions() {
	if a.keepVersions > 0 && a.height > a.keepVersions {
		a.db.SetDiscardTs(uint64(a.height - a.keepVersions))
	}
}

// oldestKept is the oldest height whose state queries may read.
func (a *App) oldestKept(latest int64) int64 {
	first := a.firstHeight.Load()
	if a.keepVersions > 0 {
		first = max(first, latest-a.keepVersions+1)
	}
	return first
}

func (a *App) resetCheck() {
	b, _ := a.base()
	a.check = store.NewOverlay(b)
}

// Height and AppHash report the committed position (for tools and tests).
func (a *App) Height() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.height
}

// AppHash returns the last committed app hash.
func (a *App) AppHash() []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]byte(nil), a.appHash...)
}

var errNotInitialised = errors.New("app: chain not initialised (no InitChain yet)")

// badgerLogger forwards badger's errors and warnings; info and debug are dropped.
type badgerLogger struct{ l cmtlog.Logger }

func (b badgerLogger) Errorf(f string, args ...any) {
	b.l.Error(fmt.Sprintf(f, args...), "module", "badger")
}
func (b badgerLogger) Warningf(f string, args ...any) {
	b.l.Info(fmt.Sprintf(f, args...), "module", "badger")
}
func (b badgerLogger) Infof(string, ...any)  {}
func (b badgerLogger) Debugf(string, ...any) {}

// lockAll takes both locks, in the one order used everywhere (mu, then
// checkMu): for the methods that move the committed state CheckTx reads.
func (a *App) lockAll() {
	a.mu.Lock()
	a.checkMu.Lock()
}

func (a *App) unlockAll() {
	a.checkMu.Unlock()
	a.mu.Unlock()
}
