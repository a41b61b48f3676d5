package oracle_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/oracle"
	"github.com/scoringsubnet/validatord/oracle/oracletest"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

const simChainID = oracletest.ChainID

// runOracle runs an oracle until the test ends; it returns its stop.
func runOracle(t testing.TB, s *oracletest.Sim, n *chainNode, conf oracle.Config, edits ...func(*oracle.EVM)) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	evm, err := oracle.DialEVM(ctx, s.URL)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		e(evm)
	}
	conf.EvmChainID = simChainID
	if conf.Poll == 0 {
		conf.Poll = 20 * time.Millisecond
	}
	conf.BackoffMin, conf.BackoffMax = 20*time.Millisecond, 200*time.Millisecond
	conf.Logf = t.Logf
	done := make(chan error, 1)
	go func() { done <- oracle.New(conf, evm, n.c, n.signer).Run(ctx) }()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			t.Errorf("oracle: %v", err)
		}
		evm.Close()
	}
	t.Cleanup(stop)
	return stop
}

// waitClosed waits until the chain has closed EVM window first.
func waitClosed(t testing.TB, n *chainNode, first uint64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		gc, err := n.c.GasChain(ctx, simChainID)
		if err == nil && gc.LastClosedBlock != nil && *gc.LastClosedBlock >= first {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the chain did not close window %d: last %v, %v", first, gc, err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// checkTruths: every window of k blocks from first to last has a final
// truth with exactly one vote, equal to the test's own computation.
func checkTruths(t *testing.T, s *oracletest.Sim, n *chainNode, first, last, k uint64) {
	t.Helper()
	ctx := context.Background()
	for w := first; w <= last; w += k {
		r, err := n.c.Truth(ctx, simChainID, w)
		if err != nil {
			t.Fatalf("window %d: %v (a gap)", w, err)
		}
		price, ts := s.WindowWant(w, k)
		if r.Status != "final" || len(r.Votes) != 1 || r.MinPrice == nil || r.Timestamp == nil {
			t.Fatalf("window %d: status %s, %d votes; want final with one vote", w, r.Status, len(r.Votes))
		}
		if !decimal.RequireFromString(*r.MinPrice).Equal(price) || uint64(*r.Timestamp) != ts {
			t.Fatalf("window %d: chain says %s gwei at %d, the test computed %s at %d", w, *r.MinPrice, *r.Timestamp, price, ts)
		}
	}
	if first >= k {
		if r, err := n.c.Truth(ctx, simChainID, first-k); err == nil {
			t.Fatalf("window %d, before the start, has a truth: %+v", first-k, r)
		}
	}
}

// TestOracleSimulatedChain: legacy and EIP-1559 transactions on the
// simulated backend, the oracle with 1 confirmation and a real node: every
// window's truth on chain equals the test's own computation, for windows
// of one block and of three, with prices from the receipts (the simulated
// endpoint serves eth_getBlockReceipts) and from the fee fields.
func TestOracleSimulatedChain(t *testing.T) {
	for _, c := range []struct {
		k     uint64
		perTx bool
	}{{1, false}, {3, false}, {1, true}} {
		k := c.k
		t.Run(fmt.Sprintf("window_blocks=%d,per_tx=%v", k, c.perTx), func(t *testing.T) {
			s := oracletest.NewSim(t)
			n := startChain(t, simChainID, k)
			var edits []func(*oracle.EVM)
			if c.perTx {
				edits = append(edits, (*oracle.EVM).ForcePerTx)
			}
			first := uint64(0)
			for i := range 3 {
				first = s.Mine(i)
			}
			first = first - first%k + k // a whole window after what was mined
			var lags []time.Duration
			runOracle(t, s, n, oracle.Config{Confirmations: 1, StartBlock: first, HasStart: true}, edits...)
			last := first + 4*k - 1
			for i := 3; ; i++ {
				b := s.Mine(i)
				if b%k == 0 && b >= first+k { // window b−k's last block is now 1 deep
					t0 := time.Now()
					waitClosed(t, n, b-k)
					lags = append(lags, time.Since(t0))
				}
				if b >= last+1 {
					break
				}
			}
			checkTruths(t, s, n, first, last, k)
			t.Logf("windows of %d: oracle lag (a window's confirming block mined → its truth final on chain): %v", k, lags)
		})
	}
}

// TestEVMBlockOnSimulatedChain: a block read from go-ethereum's endpoint,
// by receipts (which it serves: the oracle keeps using them) and by fee
// fields, has the test's own minimum price and time.
func TestEVMBlockOnSimulatedChain(t *testing.T) {
	s := oracletest.NewSim(t)
	var last uint64
	for i := range 5 {
		last = s.Mine(i)
	}
	ctx := context.Background()
	for _, perTx := range []bool{false, true} {
		evm, err := oracle.DialEVM(ctx, s.URL)
		if err != nil {
			t.Fatal(err)
		}
		if perTx {
			evm.ForcePerTx()
		}
		for n := uint64(1); n <= last; n++ {
			b, err := evm.Block(ctx, n)
			if err != nil {
				t.Fatal(err)
			}
			price, ts := s.WindowWant(n, 1)
			if !oracle.Gwei(b.MinPrice).Equal(price) || b.Time != ts || b.Skipped != 0 {
				t.Fatalf("per tx %v, block %d: %s gwei at %d (%d skipped), the test computed %s at %d", perTx, n, oracle.Gwei(b.MinPrice), b.Time, b.Skipped, price, ts)
			}
		}
		if evm.UsesReceipts() == perTx {
			t.Fatalf("per tx %v: uses receipts %v", perTx, evm.UsesReceipts())
		}
		evm.Close()
	}
}

// countingSender is a Sender that counts the transactions it sends.
type countingSender struct {
	oracle.Sender
	txs atomic.Int64
}

func (s *countingSender) SendWait(ctx context.Context, msg *subnetv1.Msg, timeout time.Duration) (client.TxResult, error) {
	s.txs.Add(1)
	return s.Sender.SendWait(ctx, msg, timeout)
}

// TestOracleBacklogOnANode: an oracle that starts 39 windows behind the
// EVM head (a restart after a long stop) on a real node reports them in 3
// transactions of at most 16 truths, not 39, and every window's truth on
// chain equals the test's own computation, with one vote.
func TestOracleBacklogOnANode(t *testing.T) {
	s := oracletest.NewSim(t)
	n := startChain(t, simChainID, 1)
	var last uint64
	for i := range 41 {
		last = s.Mine(i)
	}
	first := last - 39 // blocks first..last−1 are 1 deep at head last
	sender := &countingSender{Sender: n.signer}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evm, err := oracle.DialEVM(ctx, s.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer evm.Close()
	done := make(chan error, 1)
	go func() {
		done <- oracle.New(oracle.Config{EvmChainID: simChainID, Confirmations: 1, StartBlock: first, HasStart: true, BatchWindows: 16,
			Poll: 20 * time.Millisecond, BackoffMin: 20 * time.Millisecond, BackoffMax: 200 * time.Millisecond, Logf: t.Logf}, evm, n.c, sender).Run(ctx)
	}()
	waitClosed(t, n, last-1)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	checkTruths(t, s, n, first, last-1, 1)
	if got := sender.txs.Load(); got != 3 {
		t.Fatalf("%d transactions for 39 windows, want 3 (16 + 16 + 7)", got)
	}
}
