package oracle_test

import (
	"context"
	"testing"
	"time"

	cfg "github.com/cometbft/cometbft/config"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/testnode"
	"github.com/scoringsubnet/validatord/oracle"
)

// TestOracleWaitsForNode: an oracle started before its node's RPC listens
// waits for it (one line when the node does not answer, one when it does)
// instead of failing, reads the node's chain id once it is up, and then
// reports: its first truth (block 4 of the fake EVM chain 10) is taken by
// the real node.
func TestOracleWaitsForNode(t *testing.T) {
	addr := testnode.FreeAddr(t)
	c, err := client.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	logs := newLogLines()
	conf := oracle.Config{EvmChainID: 10, Confirmations: 1, StartBlock: 4, HasStart: true, Poll: 10 * time.Millisecond,
		BackoffMin: 5 * time.Millisecond, BackoffMax: 50 * time.Millisecond, Logf: logs.logf}
	got := make(chan string, 1)
	go func() {
		id, err := oracle.NodeChainID(ctx, conf, func(ctx context.Context) (string, error) {
			st, err := c.NodeStatus(ctx)
			return st.ChainID, err
		})
		if err != nil {
			id = "error: " + err.Error()
		}
		got <- id
	}()
	logs.wait(ctx, t, "node down", 1)
	const chainID = "oracle-start"
	n := testnode.Start(t, testnode.Options{ChainID: chainID,
		Config: func(c *cfg.Config) { c.RPC.ListenAddress = addr },
		Edit:   func(g *genesis.AppState) { g.Chain.GasChains = []uint64{10} }})
	var id string
	select {
	case id = <-got:
	case <-ctx.Done():
		t.Fatal("the oracle never read the node's chain id")
	}
	if id != chainID {
		t.Fatalf("chain id %q, want %q", id, chainID)
	}
	if d, u := logs.count("node down"), logs.count("node up again"); d != 1 || u != 1 {
		t.Fatalf("%d down lines and %d up lines while the node started, want one each", d, u)
	}
	srv := fakeRPC(t, 6, map[uint64]string{4: fakeBlock(4, 100), 5: fakeBlock(5, 101)})
	reports := make(chan oracle.Report, 1)
	conf.OnReport = func(r oracle.Report) {
		select {
		case reports <- r:
		default:
		}
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	go func() { _ = oracle.New(conf, dialFake(t, srv), c, client.NewSigner(c, id, n.ReportKey)).Run(runCtx) }()
	select {
	case r := <-reports:
		if r.Outcome != oracle.Sent || r.Truth.Window.First != 4 {
			t.Fatalf("first report %+v, want block 4 sent", r)
		}
	case <-ctx.Done():
		t.Fatal("no report")
	}
}
