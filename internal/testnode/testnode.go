// Package testnode starts a single-validator CometBFT node with the real
// app in the test's process and drives it through the client package, for
// the tests of packages that watch a running node (metrics, leaderboard).
//
//	n := testnode.Start(t, testnode.Options{Prometheus: true})
//	d := n.Drive(t) // a miner, a scored workflow and arena task, a final truth, an epoch
package testnode

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

	abcitypes "github.com/cometbft/cometbft/abci/types"
	cfg "github.com/cometbft/cometbft/config"
	"github.com/cometbft/cometbft/libs/log"
	nm "github.com/cometbft/cometbft/node"
	"github.com/cometbft/cometbft/p2p"
	"github.com/cometbft/cometbft/privval"
	"github.com/cometbft/cometbft/proxy"
	"github.com/cometbft/cometbft/types"
	cmttime "github.com/cometbft/cometbft/types/time"

	"github.com/scoringsubnet/validatord/app"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// ChainID is the test chain's id.
const ChainID = "testnode"

// RevealBlocks is every track's reveal window on the test node.
const RevealBlocks = 4

// EpochBlocks is the test chain's epoch length.
const EpochBlocks = 5

// WaitFor bounds each wait of a test.
const WaitFor = 30 * time.Second

// Options choose what the node runs with.
type Options struct {
	// Prometheus turns on CometBFT's instrumentation endpoint
	// (Node.MetricsAddr). Only one node per process may have it: CometBFT
	// registers its own series on prometheus' default registry.
	Prometheus bool
	// Wrap, if set, is what CometBFT calls instead of the app (metrics.Wrap).
	Wrap func(abcitypes.Application) abcitypes.Application
}

// Node is a running test node.
type Node struct {
	App         *app.App
	RPC         string // tcp://127.0.0.1:port
	MetricsAddr string // host:port of the Prometheus endpoint ("" without Options.Prometheus)
	Gen         genesis.AppState
	Client      *client.Client
	Validator   *client.Signer
}

// Key derives a fixed ed25519 key from a label.
func Key(label string) ed25519.PrivateKey {
	seed := sha256.Sum256([]byte(label))
	return ed25519.NewKeyFromSeed(seed[:])
}

// FreeAddr is a free loopback host:port.
func FreeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// Ctx is a context that ends with the test (or after a minute).
func Ctx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// Start writes a home, starts the node, waits for its first block and stops
// it when the test ends. It skips under -short.
func Start(t *testing.T, opts Options) *Node {
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
	conf.RPC.ListenAddress = "tcp://" + FreeAddr(t)
	conf.P2P.ListenAddress = "tcp://" + FreeAddr(t)
	n := &Node{RPC: conf.RPC.ListenAddress}
	if opts.Prometheus {
		n.MetricsAddr = FreeAddr(t)
		conf.Instrumentation.Prometheus = true
		conf.Instrumentation.PrometheusListenAddr = n.MetricsAddr
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
	reportKey := Key("report")
	n.Gen = genesis.DefaultGenesis()
	n.Gen.Window.EpochBlocks = EpochBlocks
	n.Gen.Membership.InitialDifficulty, n.Gen.Membership.MinDifficulty = 16, 16
	for i := range n.Gen.Tracks {
		n.Gen.Tracks[i].RevealBlocks = RevealBlocks
	}
	n.Gen.Validators = []genesis.Validator{{Name: "val0", Address: hex.EncodeToString(pub.Address()),
		PubKey: base64.StdEncoding.EncodeToString(pub.Bytes()), Power: 10,
		ReportKey: hex.EncodeToString(reportKey.Public().(ed25519.PublicKey))}}
	state, err := n.Gen.Encode()
	if err != nil {
		t.Fatal(err)
	}
	params, err := genesis.ConsensusParams()
	if err != nil {
		t.Fatal(err)
	}
	doc := types.GenesisDoc{ChainID: ChainID, GenesisTime: cmttime.Now(), ConsensusParams: params,
		Validators: []types.GenesisValidator{{Address: pub.Address(), PubKey: pub, Power: 10, Name: "val0"}},
		AppState:   json.RawMessage(state)}
	if err := doc.SaveAs(conf.GenesisFile()); err != nil {
		t.Fatal(err)
	}
	n.App, err = app.New(app.Config{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var abci abcitypes.Application = n.App
	if opts.Wrap != nil {
		abci = opts.Wrap(n.App)
	}
	node, err := nm.NewNode(conf, pv, nodeKey, proxy.NewLocalClientCreator(abci), nm.DefaultGenesisDocProviderFunc(conf),
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
		_ = n.App.Close()
	})
	if n.Client, err = client.Dial(n.RPC); err != nil {
		t.Fatal(err)
	}
	n.Validator = client.NewSigner(n.Client, ChainID, reportKey)
	n.WaitHeight(t, 1)
	return n
}

// WaitHeight waits until the app committed height h.
func (n *Node) WaitHeight(t testing.TB, h int64) {
	t.Helper()
	if _, err := n.Client.WaitAppHeight(Ctx(t), h, 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
}

// SendWait sends msg with s and returns the value of attribute key of event typ.
func SendWait(t testing.TB, s *client.Signer, msg *subnetv1.Msg, typ, key string) uint64 {
	t.Helper()
	res, err := s.SendWait(Ctx(t), msg, WaitFor)
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	v, err := res.AttrU64(typ, key)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Driven is what Drive put on chain.
type Driven struct {
	UID          uint32
	WorkflowTask uint64
	ArenaTask    uint64
	EVMChain     uint64
	EVMBlock     uint64
	Submissions  []uint64 // workflow, arena
}

// Drive registers a miner, has it submit to a workflow and an arena task
// that the validator then measures (both scored), sends a truth for the
// first gas chain, and waits past the next epoch.
func (n *Node) Drive(t *testing.T) Driven {
	t.Helper()
	ctx := Ctx(t)
	miner := client.NewSigner(n.Client, ChainID, Key("miner"))
	miner.Poll = 10 * time.Millisecond
	reg, err := client.RegisterWork(ctx, n.Client, ChainID, miner.PubKey(), nil)
	if err != nil {
		t.Fatal(err)
	}
	d := Driven{UID: uint32(SendWait(t, miner, reg, wire.EventMinerRegistered, "uid"))}
	salts, err := client.NewSaltStore(t.TempDir(), ChainID, miner.PubKey())
	if err != nil {
		t.Fatal(err)
	}
	d.WorkflowTask = SendWait(t, n.Validator, client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: 4, MaxBudget: "2",
		MaxLatencySeconds: "60", SubmissionBlocks: 6, ReportBlocks: 100}), wire.EventTaskPosted, "task_id")
	arena := n.Gen.Arena
	d.ArenaTask = SendWait(t, n.Validator, client.PostArenaTask(&subnetv1.ArenaTask{Category: arena.Categories[0].Name,
		Difficulty: arena.Difficulties[0].Name, CriteriaTotal: 10, SubmissionBlocks: 6, ReportBlocks: 100}), wire.EventTaskPosted, "task_id")
	wp := n.commit(t, miner, salts, d.UID, client.WorkflowPayload(d.WorkflowTask, client.ArtifactHash("workflow", d.WorkflowTask)))
	ap := n.commit(t, miner, salts, d.UID, client.ArenaPayload(d.ArenaTask, client.ArtifactHash("arena", d.ArenaTask)))
	for _, p := range []client.PendingReveal{wp, ap} {
		if err := client.WaitRevealWindow(ctx, n.Client, p, 20*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if _, err := miner.RevealPending(ctx, salts, p.Target); err != nil {
			t.Fatal(err)
		}
	}
	wsub, asub := *wp.SubmissionID, *ap.SubmissionID
	d.Submissions = []uint64{wsub, asub}
	for _, id := range []uint64{d.WorkflowTask, d.ArenaTask} {
		tv, err := n.Client.Task(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		n.WaitHeight(t, tv.RevealDeadline) // reports open after the reveal window
	}
	SendWait(t, n.Validator, client.ReportWorkflow(wsub, &subnetv1.WorkflowMeasurement{OutputQuality: "0.9", StepsCompleted: 3,
		Cost: "0.5", LatencySeconds: "30", Retries: 2, DeclaredRetryBudget: 1, Timeouts: 1}), wire.EventReportReceived, "submission_id")
	SendWait(t, n.Validator, client.ReportArena(asub, &subnetv1.ArenaMeasurement{TotalTokens: 2500, ToolCalls: 8, Iterations: 3,
		ExecutionTime: "42", EstimatedCost: "0.05", CriteriaPassed: 9}), wire.EventReportReceived, "submission_id")
	d.EVMChain, d.EVMBlock = n.Gen.Chain.GasChains[0], 99
	res, err := n.Validator.SendWait(ctx, client.Truth(d.EVMChain, d.EVMBlock, "20", time.Now().Unix()-30), WaitFor)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range d.Submissions {
		n.waitStatus(t, id, "scored")
	}
	n.WaitHeight(t, (res.Height/EpochBlocks+2)*EpochBlocks) // an epoch after the scores
	return d
}

// commit commits p; its reveal waits in salts.
func (n *Node) commit(t *testing.T, s *client.Signer, salts *client.SaltStore, uid uint32, p *subnetv1.MsgSubmit) client.PendingReveal {
	t.Helper()
	pr, _, err := s.CommitPayload(Ctx(t), salts, uid, p)
	if err != nil || pr.SubmissionID == nil {
		t.Fatalf("commit: %+v %v", pr, err)
	}
	return pr
}

func (n *Node) waitStatus(t *testing.T, id uint64, status string) {
	t.Helper()
	deadline := time.Now().Add(WaitFor)
	for {
		sub, err := n.Client.Submission(Ctx(t), id)
		if err == nil && sub.Status == status {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("submission %d: %+v %v; want status %s", id, sub, err, status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
