package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"

	dbm "github.com/cometbft/cometbft-db"
	abcitypes "github.com/cometbft/cometbft/abci/types"
	cfg "github.com/cometbft/cometbft/config"
	cmtflags "github.com/cometbft/cometbft/libs/cli/flags"
	cmtjson "github.com/cometbft/cometbft/libs/json"
	cmtlog "github.com/cometbft/cometbft/libs/log"
	"github.com/cometbft/cometbft/node"
	"github.com/cometbft/cometbft/p2p"
	"github.com/cometbft/cometbft/privval"
	sm "github.com/cometbft/cometbft/state"
	"github.com/cometbft/cometbft/types"

	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/node/mempoolconn"
)

// nodeFiles is everything a node needs from its home, read and checked before
// anything starts, so that a bad file gives one line and no half-started node.
type nodeFiles struct {
	conf     *cfg.Config
	genDoc   *types.GenesisDoc
	appState genesis.AppState
	pv       *privval.FilePV
	nodeKey  *p2p.NodeKey
}

// loadNodeFiles reads and checks config.toml, genesis.json (CometBFT's part
// and the app_state), the priv validator files and the node key of home.
func loadNodeFiles(home string) (*nodeFiles, error) {
	conf, err := loadConfig(home)
	if err != nil {
		return nil, err
	}
	genDoc, appState, err := loadGenesis(conf.GenesisFile())
	if err != nil {
		return nil, err
	}
	if err := checkMempoolConfig(configFile(home), conf, appState); err != nil {
		return nil, err
	}
	pv, err := loadPrivValidator(conf)
	if err != nil {
		return nil, err
	}
	nodeKey, err := p2p.LoadNodeKey(conf.NodeKeyFile())
	if err != nil {
		return nil, oneLine(fmt.Errorf("node key %s: %w", conf.NodeKeyFile(), err))
	}
	return &nodeFiles{conf: conf, genDoc: genDoc, appState: appState, pv: pv, nodeKey: nodeKey}, nil
}

// loadGenesis reads CometBFT's genesis document, checks its consensus params
// against the app's block bound (genesis.CheckConsensusParams, the rule init
// and testnet write by) and decodes its app_state strictly; the app's
// validators must be CometBFT's validators.
func loadGenesis(path string) (*types.GenesisDoc, genesis.AppState, error) {
	if bz, err := os.ReadFile(path); err == nil {
		if err := genesis.CheckSyntax(bz); err != nil {
			return nil, genesis.AppState{}, oneLine(fmt.Errorf("genesis %s: %w", path, err))
		}
	}
	genDoc, err := types.GenesisDocFromFile(path)
	if err != nil {
		return nil, genesis.AppState{}, oneLine(fmt.Errorf("genesis %s: %w", path, err))
	}
	block := genDoc.ConsensusParams.Block
	if err := genesis.CheckConsensusParams(block.MaxBytes, block.MaxGas); err != nil {
		return nil, genesis.AppState{}, fmt.Errorf("%s: %w", path, err)
	}
	appState, err := genesis.Decode(genDoc.AppState)
	if err != nil {
		return nil, genesis.AppState{}, oneLine(fmt.Errorf("genesis %s: app_state: %w", path, err))
	}
	if err := checkValidatorsAgree(genDoc, appState); err != nil {
		return nil, genesis.AppState{}, fmt.Errorf("genesis %s: %w", path, err)
	}
	return genDoc, appState, nil
}

// checkStoredParams applies genesis.CheckConsensusParams to the consensus
// params in force on a node that has run: CometBFT then loads them from its
// state database, not from genesis.json, so a home whose chain began with
// wider params (an older init: 21 MiB) is refused even when genesis.json was
// edited since. The app never updates consensus params. A fresh node runs
// genesis.json, which loadGenesis checked.
func checkStoredParams(conf *cfg.Config) error {
	db, err := cfg.DefaultDBProvider(&cfg.DBContext{ID: "state", Config: conf})
	if err != nil {
		return oneLine(fmt.Errorf("state database in %s: %w", conf.DBDir(), err))
	}
	defer db.Close()
	st, err := sm.NewStore(db, sm.StoreOptions{}).Load()
	if err != nil {
		return oneLine(fmt.Errorf("state database in %s: %w", conf.DBDir(), err))
	}
	if st.IsEmpty() {
		return nil
	}
	block := st.ConsensusParams.Block
	if err := genesis.CheckConsensusParams(block.MaxBytes, block.MaxGas); err != nil {
		return fmt.Errorf("state database in %s at height %d (the chain's params, whatever genesis.json says now; create the chain anew): %w", conf.DBDir(), st.LastBlockHeight, err)
	}
	return nil
}

// checkValidatorsAgree applies genesis.MatchValidators, the one rule the app
// applies at InitChain too: the same consensus keys with the same powers.
func checkValidatorsAgree(genDoc *types.GenesisDoc, st genesis.AppState) error {
	cons := make([]genesis.ConsensusValidator, len(genDoc.Validators))
	for i, v := range genDoc.Validators {
		cons[i] = genesis.ConsensusValidator{PubKey: v.PubKey.Bytes(), Power: v.Power}
	}
	return st.MatchValidators(cons)
}

// checkMempoolConfig refuses a mempool that would accept transactions larger
// than the app's chain.max_tx_bytes (the app refuses them anyway; the mempool
// should not even hold them), and a mempool the app cannot work with: the
// app's check state holds every pending transaction and is rebuilt after
// each block by CometBFT's recheck of the flood mempool (docs/performance.md,
// "Mempool settings"), so without recheck a sender's second pending
// transaction would be refused as nonce_future; the "nop" mempool runs no
// CheckTx, and the "app" mempool needs ABCI methods the app does not serve.
func checkMempoolConfig(file string, conf *cfg.Config, st genesis.AppState) error {
	if int64(conf.Mempool.MaxTxBytes) > st.Chain.MaxTxBytes {
		return &ConfigError{File: file, Field: "mempool.max_tx_bytes", Reason: fmt.Sprintf("%d exceeds the genesis chain.max_tx_bytes %d", conf.Mempool.MaxTxBytes, st.Chain.MaxTxBytes)}
	}
	if conf.Mempool.Type != cfg.MempoolTypeFlood {
		return &ConfigError{File: file, Field: "mempool.type", Reason: fmt.Sprintf("%q: validatord runs with the %q mempool only", conf.Mempool.Type, cfg.MempoolTypeFlood)}
	}
	if !conf.Mempool.Recheck {
		return &ConfigError{File: file, Field: "mempool.recheck", Reason: "false: the app rebuilds its check state from the mempool's recheck after every block; set it to true"}
	}
	return nil
}

// loadPrivValidator parses the priv validator files first, because
// privval.LoadFilePV exits the process on a bad file.
func loadPrivValidator(conf *cfg.Config) (*privval.FilePV, error) {
	keyPath, statePath := conf.PrivValidatorKeyFile(), conf.PrivValidatorStateFile()
	var key privval.FilePVKey
	if err := unmarshalFile(keyPath, &key); err != nil {
		return nil, err
	}
	if key.PrivKey == nil {
		return nil, fmt.Errorf("priv validator key %s: priv_key: missing", keyPath)
	}
	var state privval.FilePVLastSignState
	if err := unmarshalFile(statePath, &state); err != nil {
		return nil, err
	}
	return privval.LoadFilePV(keyPath, statePath), nil
}

func unmarshalFile(path string, v any) error {
	bz, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := cmtjson.Unmarshal(bytes.TrimSpace(bz), v); err != nil {
		return oneLine(fmt.Errorf("%s: %w", path, err))
	}
	return nil
}

// newLogger builds CometBFT's logger from config.toml's log_format and log_level.
func newLogger(conf *cfg.Config, w io.Writer) (cmtlog.Logger, error) {
	sw := cmtlog.NewSyncWriter(w)
	logger := cmtlog.NewTMLogger(sw)
	if conf.LogFormat == cfg.LogFormatJSON {
		logger = cmtlog.NewTMJSONLogger(sw)
	}
	logger, err := cmtflags.ParseLogLevel(conf.LogLevel, logger, cfg.DefaultLogLevel)
	if err != nil {
		return nil, &ConfigError{File: configFile(conf.RootDir), Field: "log_level", Reason: err.Error()}
	}
	return logger, nil
}

// newNode wires CometBFT around the in-process application, through
// mempoolconn's clients. The returned dbs must be closed after the node
// stopped. With concurrentCheckTx each ABCI connection has its own lock, so
// CheckTx (mempool) runs beside block execution (consensus), which the app
// allows (app.App orders what they share); without it, one lock serialises
// them. With checkTxRuns the mempool's CheckTx requests are queued and
// answered in runs; without it, one at a time as they come (app.toml
// [abci]). Either way CometBFT's /check_tx RPC keeps nothing.
func newNode(files *nodeFiles, application abcitypes.Application, logger cmtlog.Logger, concurrentCheckTx, checkTxRuns bool) (*node.Node, *openDBs, error) {
	locking := mempoolconn.SharedLock
	if concurrentCheckTx {
		locking = mempoolconn.PerConnection
	}
	creator := mempoolconn.NewClientCreator(application, locking, checkTxRuns)
	genDoc := files.genDoc
	dbs := &openDBs{}
	n, err := node.NewNode(
		files.conf,
		files.pv,
		files.nodeKey,
		creator,
		func() (*types.GenesisDoc, error) { return genDoc, nil },
		dbs.provider,
		node.DefaultMetricsProvider(files.conf.Instrumentation),
		logger,
	)
	if err != nil {
		dbs.closeAll()
		return nil, nil, err
	}
	return n, dbs, nil
}

// openDBs remembers every database CometBFT opens. Node.OnStop closes the
// block store, state and evidence databases but not the tx indexer's, whose
// lock would then outlive the node (an in-process restart, as in the tests,
// fails with "resource temporarily unavailable").
type openDBs struct {
	mu  sync.Mutex
	dbs []dbm.DB
}

func (o *openDBs) provider(ctx *cfg.DBContext) (dbm.DB, error) {
	db, err := cfg.DefaultDBProvider(ctx)
	if err != nil {
		return nil, err
	}
	o.mu.Lock()
	o.dbs = append(o.dbs, db)
	o.mu.Unlock()
	return db, nil
}

// closeAll closes every database; closing one the node already closed is
// harmless, so its error is ignored.
func (o *openDBs) closeAll() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, db := range o.dbs {
		_ = db.Close()
	}
	o.dbs = nil
}
