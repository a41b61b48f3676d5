package mempoolconn_test

import (
	"bytes"
	"context"
	"sync"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	rpchttp "github.com/cometbft/cometbft/rpc/client/http"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/testnode"
	"github.com/scoringsubnet/validatord/node/mempoolconn"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// gated holds the app's next run of CheckTx requests until the test lets
// it go, so that the requests sent meanwhile queue behind it.
type gated struct {
	abcitypes.Application
	mu      sync.Mutex
	armed   bool
	entered chan struct{}
	release chan struct{}
}

func (g *gated) arm() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.armed, g.entered, g.release = true, make(chan struct{}), make(chan struct{})
}

func (g *gated) CheckTxs(ctx context.Context, reqs []*abcitypes.RequestCheckTx) ([]*abcitypes.ResponseCheckTx, error) {
	g.mu.Lock()
	armed, entered, release := g.armed, g.entered, g.release
	g.armed = false
	g.mu.Unlock()
	if armed {
		close(entered)
		<-release
	}
	return g.Application.(mempoolconn.Checker).CheckTxs(ctx, reqs)
}

// TestRunsOnANode: on a real node, transactions broadcast while the app is
// busy queue and reach it as one run; their signatures are checked in one
// batch; every answer is the one CheckTx gives alone (a broken signature
// is refused, the sender's next nonces are not), and every valid tx
// commits in nonce order.
func TestRunsOnANode(t *testing.T) {
	g := &gated{}
	n := testnode.Start(t, testnode.Options{ChainID: "mempoolconn-test",
		Wrap: func(a abcitypes.Application) abcitypes.Application { g.Application = a; return g }})
	ctx := testnode.Ctx(t)
	rpc, err := rpchttp.New(n.Addr, "/websocket")
	if err != nil {
		t.Fatal(err)
	}
	task := func() *subnetv1.Msg {
		return client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: 4, MaxBudget: "2", MaxLatencySeconds: "60",
			SubmissionBlocks: 6, ReportBlocks: 100})
	}
	// Two txs checked alone: the validator's key is now one the node holds
	// expanded.
	for i := 0; i < 2; i++ {
		if _, err := n.Validator.SendWait(ctx, task(), testnode.WaitFor); err != nil {
			t.Fatal(err)
		}
	}
	nonce, err := n.Client.NextNonce(ctx, n.Validator.PubKey())
	if err != nil {
		t.Fatal(err)
	}
	sign := func() []byte {
		tx, err := wire.SignTx(n.ChainID, n.ReportKey, nonce, task())
		if err != nil {
			t.Fatal(err)
		}
		nonce++
		return tx
	}
	var committed, refused [][]byte
	waitLast := func() {
		if _, err := n.Client.WaitTx(ctx, client.TxHash(committed[len(committed)-1]), testnode.WaitFor); err != nil {
			t.Fatal(err)
		}
	}
	// phase sends a tx that the app holds, then txs that queue behind it,
	// then lets the app go; broken, if >= 0, puts a copy of that queued tx
	// with a broken signature just before it.
	phase := func(queued int, broken int) {
		g.arm()
		first := sign()
		if _, err := rpc.BroadcastTxAsync(ctx, first); err != nil {
			t.Fatal(err)
		}
		<-g.entered
		committed = append(committed, first)
		for i := 0; i < queued; i++ {
			tx := sign()
			if i == broken {
				bad := append(bytes.Clone(tx[:len(tx)-1]), tx[len(tx)-1]^1)
				if _, err := rpc.BroadcastTxAsync(ctx, bad); err != nil {
					t.Fatal(err)
				}
				refused = append(refused, bad)
			}
			if _, err := rpc.BroadcastTxAsync(ctx, tx); err != nil {
				t.Fatal(err)
			}
			committed = append(committed, tx)
		}
		close(g.release)
	}

	phase(40, -1)
	waitLast()
	if st := n.App.CheckRuns(); st.Batches != 1 || st.Batched != 40 || st.Failed != 0 {
		t.Fatalf("a run of 40 valid txs: %+v, want one batch of 40", st)
	}
	if st := n.Conns.Stats(); st.Largest < 40 {
		t.Fatalf("the client's runs: %+v, want one of 40", st)
	}
	phase(20, 7)
	waitLast()
	if st := n.App.CheckRuns(); st.Batches != 2 || st.Failed != 1 {
		t.Fatalf("a run with a broken signature: %+v, want its batch failed", st)
	}
	for i, tx := range committed {
		res, err := n.Client.WaitTx(ctx, client.TxHash(tx), testnode.WaitFor)
		if err != nil || res.Code != wire.CodeOK {
			t.Fatalf("tx %d of %d: %+v %v", i, len(committed), res, err)
		}
	}
	next, err := n.Client.NextNonce(ctx, n.Validator.PubKey())
	if err != nil || next != nonce {
		t.Fatalf("next nonce %d %v, want %d: a tx was lost or run twice", next, err, nonce)
	}
	for _, tx := range refused {
		if res, err := n.Client.Tx(ctx, client.TxHash(tx)); err == nil {
			t.Fatalf("the tx with a broken signature is in block %d", res.Height)
		}
	}
}

// TestCheckTxRPCKeepsNothing: CometBFT's /check_tx RPC answers as CheckTx
// would, but a tx it accepted does not count as pending: the same bytes
// broadcast after it are accepted and commit (with the app's own CheckTx
// behind /check_tx they were refused as nonce_used on this node). With and
// without runs.
func TestCheckTxRPCKeepsNothing(t *testing.T) {
	for _, noRuns := range []bool{false, true} {
		t.Run(map[bool]string{false: "runs", true: "one-at-a-time"}[noRuns], func(t *testing.T) {
			n := testnode.Start(t, testnode.Options{ChainID: "mempoolconn-checktx", NoCheckTxRuns: noRuns})
			ctx := testnode.Ctx(t)
			rpc, err := rpchttp.New(n.Addr, "/websocket")
			if err != nil {
				t.Fatal(err)
			}
			nonce, err := n.Client.NextNonce(ctx, n.Validator.PubKey())
			if err != nil {
				t.Fatal(err)
			}
			tx, err := wire.SignTx(n.ChainID, n.ReportKey, nonce, client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: 4,
				MaxBudget: "2", MaxLatencySeconds: "60", SubmissionBlocks: 6, ReportBlocks: 100}))
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 2; i++ { // twice: the second answer is the first's, nothing was kept
				res, err := rpc.CheckTx(ctx, tx)
				if err != nil || res.Code != wire.CodeOK {
					t.Fatalf("/check_tx %d: %+v %v", i, res, err)
				}
			}
			bad, err := rpc.CheckTx(ctx, []byte("not a transaction"))
			if err != nil || bad.Code == wire.CodeOK {
				t.Fatalf("/check_tx of garbage: %+v %v", bad, err)
			}
			res, err := n.Client.Broadcast(ctx, tx)
			if err != nil || res.Code != wire.CodeOK {
				t.Fatalf("the tx broadcast after /check_tx: %+v %v", res, err)
			}
			if res, err := n.Client.WaitTx(ctx, client.TxHash(tx), testnode.WaitFor); err != nil || res.Code != wire.CodeOK {
				t.Fatalf("the tx's block: %+v %v", res, err)
			}
		})
	}
}
