package oracle_test

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/shopspring/decimal"

	"net/http/httptest"

	"github.com/scoringsubnet/validatord/oracle"
)

// simChainID is the simulated backend's chain id.
const simChainID = 1337

// evmSim is go-ethereum's simulated backend (a real in-process EVM) served
// over HTTP through a proxy the test can take down. Each mined block's
// minimum price and time are computed here, from the fees the test chose
// and the block's base fee, independently of the oracle's code.
type evmSim struct {
	t      *testing.T
	b      *simulated.Backend
	down   atomic.Bool
	url    string
	keys   []*ecdsa.PrivateKey
	nonces []uint64
	signer types.Signer
	want   map[uint64]*big.Int // block → min effective price (wei)
	times  map[uint64]uint64
}

func newSim(t *testing.T) *evmSim {
	t.Helper()
	s := &evmSim{t: t, signer: types.LatestSignerForChainID(big.NewInt(simChainID)), want: map[uint64]*big.Int{}, times: map[uint64]uint64{}}
	alloc := types.GenesisAlloc{}
	for i := range 3 {
		k, err := crypto.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		s.keys, s.nonces = append(s.keys, k), append(s.nonces, 0)
		alloc[crypto.PubkeyToAddress(k.PublicKey)] = types.Account{Balance: new(big.Int).Lsh(big.NewInt(1), 100)}
		_ = i
	}
	hostPort := freePort(t)
	host, port, _ := strings.Cut(hostPort, ":")
	p, _ := strconv.Atoi(port)
	s.b = simulated.NewBackend(alloc, func(nc *node.Config, _ *ethconfig.Config) {
		nc.HTTPHost, nc.HTTPPort = host, p
		nc.HTTPModules, nc.HTTPVirtualHosts = []string{"eth"}, []string{"*"}
	})
	t.Cleanup(func() { _ = s.b.Close() })
	target, _ := url.Parse("http://" + hostPort)
	rp := httputil.NewSingleHostReverseProxy(target)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.down.Load() {
			http.Error(w, "endpoint down (test)", http.StatusServiceUnavailable)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)
	s.url = proxy.URL
	return s
}

func (s *evmSim) head() *types.Header {
	h, err := s.b.Client().HeaderByNumber(context.Background(), nil)
	if err != nil {
		s.t.Fatal(err)
	}
	return h
}

func (s *evmSim) send(key int, inner types.TxData) {
	tx, err := types.SignNewTx(s.keys[key], s.signer, inner)
	if err != nil {
		s.t.Fatal(err)
	}
	if err := s.b.Client().SendTransaction(context.Background(), tx); err != nil {
		s.t.Fatal(err)
	}
	s.nonces[key]++
}

var to = common.HexToAddress("0x00000000000000000000000000000000000000aa")

// mine seals block i with a legacy transaction and an EIP-1559 one whose
// fees vary with i (some capped by maxFeePerGas, some not) and records the
// block's minimum effective price: min(gasPrice, min(feeCap, base + tip)).
func (s *evmSim) mine(i int) uint64 {
	parentBase := s.head().BaseFee
	gp := new(big.Int).Add(parentBase, big.NewInt(int64(3+i%4)*1e8))
	tip := big.NewInt(int64(1+i%3) * 1e8)
	feeCap := new(big.Int).Add(parentBase, big.NewInt(int64(i%5)*5e7))
	if feeCap.Cmp(tip) < 0 {
		feeCap.Set(tip)
	}
	s.send(0, &types.LegacyTx{Nonce: s.nonces[0], GasPrice: gp, Gas: 21000, To: &to, Value: big.NewInt(1)})
	s.send(1, &types.DynamicFeeTx{ChainID: big.NewInt(simChainID), Nonce: s.nonces[1], GasTipCap: tip, GasFeeCap: feeCap, Gas: 21000, To: &to, Value: big.NewInt(1)})
	s.b.Commit()
	h := s.head()
	eff := new(big.Int).Add(h.BaseFee, tip)
	if eff.Cmp(feeCap) > 0 {
		eff = feeCap
	}
	n := h.Number.Uint64()
	s.want[n] = oracle.MinNonZero([]*big.Int{gp, eff})
	s.times[n] = h.Time
	blk, err := s.b.Client().BlockByNumber(context.Background(), h.Number)
	if err != nil || len(blk.Transactions()) != 2 {
		s.t.Fatalf("block %d: %v, %d transactions, want 2", n, err, len(blk.Transactions()))
	}
	return n
}

// windowWant is the independent truth of the window of k blocks at first.
func (s *evmSim) windowWant(first, k uint64) (decimal.Decimal, uint64) {
	var m *big.Int
	for n := first; n < first+k; n++ {
		if p := s.want[n]; p != nil && (m == nil || p.Cmp(m) < 0) {
			m = p
		}
	}
	if m == nil {
		s.t.Fatalf("window %d: no block mined by the test", first)
	}
	return decimal.NewFromBigInt(m, -9), s.times[first+k-1]
}

// runOracle runs an oracle until the test ends; it returns its stop.
func runOracle(t *testing.T, s *evmSim, n *chainNode, conf oracle.Config) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	evm, err := oracle.DialEVM(ctx, s.url)
	if err != nil {
		t.Fatal(err)
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
func waitClosed(t *testing.T, n *chainNode, first uint64) {
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
func checkTruths(t *testing.T, s *evmSim, n *chainNode, first, last, k uint64) {
	t.Helper()
	ctx := context.Background()
	for w := first; w <= last; w += k {
		r, err := n.c.Truth(ctx, simChainID, w)
		if err != nil {
			t.Fatalf("window %d: %v (a gap)", w, err)
		}
		price, ts := s.windowWant(w, k)
		if r.Status != "final" || len(r.Votes) != 1 || r.MinPrice == nil || r.Timestamp == nil {
			t.Fatalf("window %d: status %s, %d votes; want final with one vote", w, r.Status, len(r.Votes))
		}
		if !decimal.RequireFromString(*r.MinPrice).Equal(price) || uint64(*r.Timestamp) != ts {
			t.Fatalf("window %d: chain says %s gwei at %d, the test computed %s at %d", w, *r.MinPrice, *r.Timestamp, price, ts)
		}
	}
	for _, w := range []uint64{first - k, last + k} {
		if w >= first && w <= last {
			continue
		}
		if r, err := n.c.Truth(ctx, simChainID, w); err == nil && w+k-1 < first {
			t.Fatalf("window %d before the start has a truth: %+v", w, r)
		}
	}
}

// TestOracleSimulatedChain: legacy and EIP-1559 transactions on the
// simulated backend, the oracle with 1 confirmation and a real node: every
// block's truth on chain equals the test's own computation (windows of one
// block, then of three).
func TestOracleSimulatedChain(t *testing.T) {
	for _, k := range []uint64{1, 3} {
		t.Run("window_blocks="+strconv.FormatUint(k, 10), func(t *testing.T) {
			s := newSim(t)
			n := startChain(t, simChainID, k)
			first := uint64(0)
			for i := range 3 {
				first = s.mine(i)
			}
			first = first - first%k + k // a whole window after what was mined
			var lags []time.Duration
			runOracle(t, s, n, oracle.Config{Confirmations: 1, StartBlock: first, HasStart: true})
			last := first + 4*k - 1
			for i := 3; ; i++ {
				b := s.mine(i)
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
