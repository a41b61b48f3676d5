// Package testnode starts, for a test, a one-validator CometBFT node that
// runs the real app in the test's process, its RPC on a free loopback
// port, and stops it when the test ends. Tests of client/ and oracle/ use
// it, and (drive.go) those of metrics/ and leaderboard/, which Drive a miner
// through it; the e2e and CLI tests run `validatord start` instead.
//
//	n := testnode.Start(t, testnode.Options{ChainID: "x", Edit: func(g *genesis.AppState) { g.Window.EpochBlocks = 5 }})
//	c, _ := client.Dial(n.Addr)
package testnode

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	cfg "github.com/cometbft/cometbft/config"
	"github.com/cometbft/cometbft/libs/log"
	nm "github.com/cometbft/cometbft/node"
	"github.com/cometbft/cometbft/p2p"
	"github.com/cometbft/cometbft/privval"
	"github.com/cometbft/cometbft/types"
	cmttime "github.com/cometbft/cometbft/types/time"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/node/mempoolconn"
)

// Options shape the node: its chain id and edits to the default genesis
// (whose validators the node sets).
type Options struct {
	ChainID string
	Edit    func(*genesis.AppState)
	// Prometheus turns on CometBFT's instrumentation endpoint
	// (Node.MetricsAddr). Only one node per process may have it: CometBFT
	// registers its own series on prometheus' default registry.
	Prometheus bool
	// Wrap, if set, is what CometBFT calls instead of the app (metrics.Wrap).
	Wrap func(abcitypes.Application) abcitypes.Application
	// Config, if set, edits CometBFT's config before the node starts
	// (e.g. rpc.unsafe for unsafe_flush_mempool, a longer timeout_commit).
	Config func(*cfg.Config)
	// NoCheckTxRuns answers the mempool's CheckTx requests one at a time
	// as they come (app.toml check_tx_runs = false); by default they are
	// queued and answered in runs, as validatord start does.
	NoCheckTxRuns bool
}

// Node is a started node: its RPC address, the validator's report key
// (Key("report")) and the genesis it runs, the app, a client and the
// validator's signer.
type Node struct {
	Addr        string
	ReportKey   ed25519.PrivateKey
	Gen         genesis.AppState
	ChainID     string
	App         *app.App
	MetricsAddr string // host:port of the Prometheus endpoint ("" without Options.Prometheus)
	Client      *client.Client
	Validator   *client.Signer
	Conns       *mempoolconn.Creator // the ABCI clients
}

// Key derives a fixed ed25519 key from a label.
func Key(label string) ed25519.PrivateKey {
	seed := sha256.Sum256([]byte(label))
	return ed25519.NewKeyFromSeed(seed[:])
}

// FreeAddr is a loopback tcp://127.0.0.1:port that was free a moment ago.
func FreeAddr(t testing.TB) string {
	t.Helper()
	handedMu.Lock()
	defer handedMu.Unlock()
	for {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		// The kernel may give a port just closed again: two calls in a row
		// once returned the same one (rpc = p2p); never hand a port out twice.
		if !handed[addr] {
			handed[addr] = true
			return "tcp://" + addr
		}
	}
}

var (
	handedMu sync.Mutex
	handed   = map[string]bool{}
)

// Start writes a home, starts the node, waits for its app's first block
// and stops it when the test ends. Blocks come every ~50 ms, not as fast
// as they can be made, so that a window of a few blocks can be polled.
// Skipped under -short.
func Start(t testing.TB, o Options) *Node {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a CometBFT node")
	}
	root := t.TempDir()
	cfg.EnsureRoot(root)
	conf := cfg.DefaultConfig()
	conf.Consensus = cfg.TestConsensusConfig()
	conf.Consensus.TimeoutCommit = 50 * time.Millisecond
	conf.Consensus.SkipTimeoutCommit = false
	conf.SetRoot(root) // after replacing Consensus, or its WAL lands in the package directory
	conf.RPC.ListenAddress = FreeAddr(t)
	conf.P2P.ListenAddress = FreeAddr(t)
	if o.Config != nil {
		o.Config(conf)
	}
	pv := privval.LoadOrGenFilePV(conf.PrivValidatorKeyFile(), conf.PrivValidatorStateFile())
	nodeKey, err := p2p.LoadOrGenNodeKey(conf.NodeKeyFile())
	if err != nil {
		t.Fatal(err)
	}
	pub, err := pv.GetPubKey()
	if err != nil {
		t.Fatal(err)
	}
	n := &Node{Addr: conf.RPC.ListenAddress, ReportKey: Key("report"), Gen: genesis.DefaultGenesis(), ChainID: o.ChainID}
	if o.Prometheus {
		n.MetricsAddr = strings.TrimPrefix(FreeAddr(t), "tcp://")
		conf.Instrumentation.Prometheus = true
		conf.Instrumentation.PrometheusListenAddr = n.MetricsAddr
	}
	if o.Edit != nil {
		o.Edit(&n.Gen)
	}
	n.Gen.Validators = []genesis.Validator{{Name: "val0", Address: hex.EncodeToString(pub.Address()),
		PubKey: base64.StdEncoding.EncodeToString(pub.Bytes()), Power: 10,
		ReportKey: hex.EncodeToString(n.ReportKey.Public().(ed25519.PublicKey))}}
	state, err := n.Gen.Encode()
	if err != nil {
		t.Fatal(err)
	}
	params, err := genesis.ConsensusParams()
	if err != nil {
		t.Fatal(err)
	}
	doc := types.GenesisDoc{ChainID: o.ChainID, GenesisTime: cmttime.Now(), ConsensusParams: params,
		Validators: []types.GenesisValidator{{Address: pub.Address(), PubKey: pub, Power: 10, Name: "val0"}},
		AppState:   json.RawMessage(state)}
	if err := doc.SaveAs(conf.GenesisFile()); err != nil {
		t.Fatal(err)
	}
	a, err := app.New(app.Config{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	n.App = a
	var abci abcitypes.Application = a
	if o.Wrap != nil {
		abci = o.Wrap(a)
	}
	n.Conns = mempoolconn.NewClientCreator(abci, mempoolconn.SharedLock, !o.NoCheckTxRuns)
	node, err := nm.NewNode(conf, pv, nodeKey, n.Conns, nm.DefaultGenesisDocProviderFunc(conf),
		cfg.DefaultDBProvider, nm.DefaultMetricsProvider(conf.Instrumentation), log.NewNopLogger())
	if err != nil {
		t.Fatal(err)
	}
	if err := node.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = node.Stop()
		node.Wait()
		_ = a.Close()
	})
	c, err := client.Dial(n.Addr)
	if err != nil {
		t.Fatal(err)
	}
	n.Client, n.Validator = c, client.NewSigner(c, o.ChainID, n.ReportKey)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.WaitAppHeight(ctx, 1, 50*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	return n
}
