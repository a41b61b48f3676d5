package oracle_test

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

// chainNode is a one-validator validatord node in this process whose gas
// track follows EVM chain simChainID with windows of k blocks.
type chainNode struct {
	c      *client.Client
	signer *client.Signer
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func startChain(t *testing.T, evmChainID, k uint64) *chainNode {
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
	conf.SetRoot(root)
	conf.RPC.ListenAddress = "tcp://" + freePort(t)
	conf.P2P.ListenAddress = "tcp://" + freePort(t)
	pv := privval.LoadOrGenFilePV(conf.PrivValidatorKeyFile(), conf.PrivValidatorStateFile())
	nodeKey, err := p2p.LoadOrGenNodeKey(conf.NodeKeyFile())
	if err != nil {
		t.Fatal(err)
	}
	pub, err := pv.GetPubKey()
	if err != nil {
		t.Fatal(err)
	}
	seed := sha256.Sum256([]byte("oracle report key"))
	reportKey := ed25519.NewKeyFromSeed(seed[:])
	gen := genesis.DefaultGenesis()
	gen.Chain.GasChains = []uint64{evmChainID}
	if k > 1 {
		gen.Chain.GasWindows = []genesis.GasWindow{{EvmChainID: evmChainID, WindowBlocks: k}}
	}
	gen.Validators = []genesis.Validator{{Name: "val0", Address: hex.EncodeToString(pub.Address()),
		PubKey: base64.StdEncoding.EncodeToString(pub.Bytes()), Power: 10,
		ReportKey: hex.EncodeToString(reportKey.Public().(ed25519.PublicKey))}}
	state, err := gen.Encode()
	if err != nil {
		t.Fatal(err)
	}
	params, err := genesis.ConsensusParams()
	if err != nil {
		t.Fatal(err)
	}
	const chainID = "oracle-test"
	doc := types.GenesisDoc{ChainID: chainID, GenesisTime: cmttime.Now(), ConsensusParams: params,
		Validators: []types.GenesisValidator{{Address: pub.Address(), PubKey: pub, Power: 10, Name: "val0"}},
		AppState:   json.RawMessage(state)}
	if err := doc.SaveAs(conf.GenesisFile()); err != nil {
		t.Fatal(err)
	}
	a, err := app.New(app.Config{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	node, err := nm.NewNode(conf, pv, nodeKey, proxy.NewLocalClientCreator(a), nm.DefaultGenesisDocProviderFunc(conf),
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
	c, err := client.Dial(conf.RPC.ListenAddress)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.WaitAppHeight(ctx, 1, 50*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	return &chainNode{c: c, signer: client.NewSigner(c, chainID, reportKey)}
}
