package client_test

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net"
	"testing"
	"time"

	cfg "github.com/cometbft/cometbft/config"
	"github.com/cometbft/cometbft/libs/log"
	nm "github.com/cometbft/cometbft/node"
	"github.com/cometbft/cometbft/p2p"
	"github.com/cometbft/cometbft/privval"
	"github.com/cometbft/cometbft/proxy"
	"github.com/cometbft/cometbft/types"
	cmttime "github.com/cometbft/cometbft/types/time"

	"github.com/scoringsubnet/validatord/app"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
)

const testChainID = "client-test"

// testRevealBlocks is every track's reveal window on the test node.
const testRevealBlocks = 10

// testNode is a single-validator CometBFT node running the real app in this
// process, its RPC on a free loopback port.
type testNode struct {
	addr      string
	reportKey ed25519.PrivateKey
	gen       genesis.AppState
}

// key derives a fixed ed25519 key from a label.
func key(label string) ed25519.PrivateKey {
	seed := sha256.Sum256([]byte(label))
	return ed25519.NewKeyFromSeed(seed[:])
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return "tcp://" + l.Addr().String()
}

// startNode writes a home, starts the node and stops it when the test ends.
func startNode(t *testing.T) *testNode {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a CometBFT node")
	}
	root := t.TempDir()
	cfg.EnsureRoot(root)
	conf := cfg.DefaultConfig()
	conf.Consensus = cfg.TestConsensusConfig()
	// blocks every ~50 ms, not as fast as they can be made: a reveal
	// window of testRevealBlocks then lasts long enough to be polled
	conf.Consensus.TimeoutCommit = 50 * time.Millisecond
	conf.Consensus.SkipTimeoutCommit = false
	conf.SetRoot(root) // after replacing Consensus, or its WAL lands in the package directory
	conf.RPC.ListenAddress = freeAddr(t)
	conf.P2P.ListenAddress = freeAddr(t)
	pv := privval.LoadOrGenFilePV(conf.PrivValidatorKeyFile(), conf.PrivValidatorStateFile())
	nodeKey, err := p2p.LoadOrGenNodeKey(conf.NodeKeyFile())
	if err != nil {
		t.Fatal(err)
	}
	pub, err := pv.GetPubKey()
	if err != nil {
		t.Fatal(err)
	}
	n := &testNode{addr: conf.RPC.ListenAddress, reportKey: key("report"), gen: genesis.DefaultGenesis()}
	n.gen.Window.EpochBlocks = 5
	// Registration costs 16 hashes here (RegisterWork finds them at once).
	n.gen.Membership.InitialDifficulty, n.gen.Membership.MinDifficulty = 16, 16
	for i := range n.gen.Tracks {
		n.gen.Tracks[i].RevealBlocks = testRevealBlocks
	}
	n.gen.Validators = []genesis.Validator{{Name: "val0", Address: hex.EncodeToString(pub.Address()),
		PubKey: base64.StdEncoding.EncodeToString(pub.Bytes()), Power: 10,
		ReportKey: hex.EncodeToString(n.reportKey.Public().(ed25519.PublicKey))}}
	state, err := n.gen.Encode()
	if err != nil {
		t.Fatal(err)
	}
	params, err := genesis.ConsensusParams()
	if err != nil {
		t.Fatal(err)
	}
	doc := types.GenesisDoc{ChainID: testChainID, GenesisTime: cmttime.Now(), ConsensusParams: params,
		Validators: []types.GenesisValidator{{Address: pub.Address(), PubKey: pub, Power: 10, Name: "val0"}},
		AppState:   json.RawMessage(state)}
	if err := doc.SaveAs(conf.GenesisFile()); err != nil {
		t.Fatal(err)
	}
	a, err := app.New(app.Config{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	node, err := nm.NewNode(conf, pv, nodeKey, proxy.NewConnSyncLocalClientCreator(a), nm.DefaultGenesisDocProviderFunc(conf),
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
	c := dial(t, n.addr)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.WaitHeight(ctx, 1, 50*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	return n
}

func dial(t *testing.T, addr string) *client.Client {
	t.Helper()
	c, err := client.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
