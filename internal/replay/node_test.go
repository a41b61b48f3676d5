package replay

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	dbm "github.com/cometbft/cometbft-db"
	"github.com/cometbft/cometbft/abci/example/kvstore"
	abci "github.com/cometbft/cometbft/abci/types"
	cfg "github.com/cometbft/cometbft/config"
	"github.com/cometbft/cometbft/libs/log"
	nm "github.com/cometbft/cometbft/node"
	"github.com/cometbft/cometbft/p2p"
	"github.com/cometbft/cometbft/privval"
	"github.com/cometbft/cometbft/proxy"
	"github.com/cometbft/cometbft/rpc/client/local"
	"github.com/cometbft/cometbft/types"
	cmttime "github.com/cometbft/cometbft/types/time"
)

// recordingApp is a kvstore that remembers the InitChain request the node sent.
type recordingApp struct {
	*kvstore.Application
	mu   sync.Mutex
	init *abci.RequestInitChain
}

func (a *recordingApp) InitChain(ctx context.Context, req *abci.RequestInitChain) (*abci.ResponseInitChain, error) {
	a.mu.Lock()
	a.init = req
	a.mu.Unlock()
	return a.Application.InitChain(ctx, req)
}

// chain is a stopped single-validator node home with committed blocks.
type chain struct {
	conf *cfg.Config
	init *abci.RequestInitChain
	// txHeight maps a committed tx ("k<i>=v<i>") to its height.
	txHeight map[string]int64
}

// newTestHome writes a CometBFT home with a fresh single-validator genesis.
func newTestHome(t *testing.T) *cfg.Config {
	t.Helper()
	root := t.TempDir()
	cfg.EnsureRoot(root)
	conf := cfg.DefaultConfig()
	conf.Consensus = cfg.TestConsensusConfig()
	conf.SetRoot(root) // after replacing Consensus, or its WAL lands in the package directory
	conf.RPC.ListenAddress = ""
	conf.P2P.ListenAddress = "tcp://127.0.0.1:0"
	conf.ProxyApp = "kvstore"
	pv := privval.LoadOrGenFilePV(conf.PrivValidatorKeyFile(), conf.PrivValidatorStateFile())
	if _, err := p2p.LoadOrGenNodeKey(conf.NodeKeyFile()); err != nil {
		t.Fatal(err)
	}
	pub, err := pv.GetPubKey()
	if err != nil {
		t.Fatal(err)
	}
	gen := types.GenesisDoc{
		ChainID:         "replay-test",
		GenesisTime:     cmttime.Now(),
		ConsensusParams: types.DefaultConsensusParams(),
		Validators:      []types.GenesisValidator{{Address: pub.Address(), PubKey: pub, Power: 10, Name: "v0"}},
	}
	if err := gen.SaveAs(conf.GenesisFile()); err != nil {
		t.Fatal(err)
	}
	return conf
}

// runChain runs a kvstore node on conf until txs transactions are committed (one per
// BroadcastTxCommit), then lets it reach minHeight and stops it. During the run, check is
// called with the node running.
func runChain(t *testing.T, conf *cfg.Config, txs int, minHeight int64, check func()) *chain {
	t.Helper()
	app := &recordingApp{Application: kvstore.NewPersistentApplication(filepath.Join(conf.RootDir, "data", "kv"))}
	defer app.Close()
	pv := privval.LoadFilePV(conf.PrivValidatorKeyFile(), conf.PrivValidatorStateFile())
	nodeKey, err := p2p.LoadNodeKey(conf.NodeKeyFile())
	if err != nil {
		t.Fatal(err)
	}
	n, err := nm.NewNode(conf, pv, nodeKey, proxy.NewLocalClientCreator(app), nm.DefaultGenesisDocProviderFunc(conf),
		cfg.DefaultDBProvider, nm.DefaultMetricsProvider(conf.Instrumentation), log.NewNopLogger())
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = n.Stop(); n.Wait() }()
	c := &chain{conf: conf, txHeight: map[string]int64{}}
	cl := local.New(n)
	ctx := context.Background()
	for i := 0; i < txs; i++ {
		tx := fmt.Sprintf("k%d=v%d", i, i)
		res, err := cl.BroadcastTxCommit(ctx, types.Tx(tx))
		if err != nil || res.CheckTx.Code != 0 || res.TxResult.Code != 0 {
			t.Fatalf("tx %s: %v %+v", tx, err, res)
		}
		c.txHeight[tx] = res.Height
	}
	for i := 0; i < 200 && n.BlockStore().Height() < minHeight; i++ {
		time.Sleep(25 * time.Millisecond)
	}
	if n.BlockStore().Height() < minHeight {
		t.Fatalf("node stuck at height %d", n.BlockStore().Height())
	}
	if check != nil {
		check()
	}
	app.mu.Lock()
	c.init = app.init
	app.mu.Unlock()
	return c
}

// kvTarget opens kvstore applications in replay directories.
func kvTarget(hashAt int64) Target {
	return Target{
		Open: func(dir string) (abci.Application, func() error, error) {
			app := kvstore.NewPersistentApplication(dir)
			if hashAt != 0 {
				return &faultyApp{Application: app, at: hashAt}, app.Close, nil
			}
			return app, app.Close, nil
		},
		Dump: dumpKV,
	}
}

// faultyApp flips the app hash it returns at one height, as a non-deterministic app would.
type faultyApp struct {
	*kvstore.Application
	at int64
}

func (a *faultyApp) InitChain(ctx context.Context, req *abci.RequestInitChain) (*abci.ResponseInitChain, error) {
	resp, err := a.Application.InitChain(ctx, req)
	if err == nil && a.at == initChainFault {
		resp.AppHash = []byte("not the genesis app hash")
	}
	return resp, err
}

// initChainFault as faultyApp.at makes InitChain return a wrong app hash.
const initChainFault = -1

func (a *faultyApp) FinalizeBlock(ctx context.Context, req *abci.RequestFinalizeBlock) (*abci.ResponseFinalizeBlock, error) {
	resp, err := a.Application.FinalizeBlock(ctx, req)
	if err == nil && req.Height == a.at {
		resp.AppHash = append([]byte{0xff}, resp.AppHash...)
	}
	return resp, err
}

// dumpKV lists the kvstore's goleveldb entries under dir.
func dumpKV(dir string) ([]Entry, error) {
	if _, err := os.Stat(filepath.Join(dir, "kvstore.db")); err != nil {
		return nil, err
	}
	db, err := dbm.NewGoLevelDB("kvstore", dir)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	it, err := db.Iterator(nil, nil)
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var es []Entry
	for ; it.Valid(); it.Next() {
		es = append(es, Entry{Key: append([]byte{}, it.Key()...), Value: append([]byte{}, it.Value()...)})
	}
	return es, it.Error()
}
