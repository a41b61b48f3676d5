// Package oracletest runs go-ethereum's simulated backend (a real
// in-process EVM) behind an HTTP JSON-RPC endpoint that a test can take
// down, and computes each mined block's minimum effective gas price from
// the fees it chose and the block's base fee, independently of package
// oracle. For tests of the oracle and of `validatord oracle gas` only.
//
//	s := oracletest.NewSim(t)
//	n := s.Mine(0)                 // a legacy and an EIP-1559 transaction
//	price, ts := s.WindowWant(n, 1) // the test's own truth of block n
package oracletest

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
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
)

// ChainID is the simulated backend's chain id.
const ChainID = 1337

// Sim is the simulated chain and its endpoint. Down makes the endpoint
// answer 503 while set.
type Sim struct {
	t      testing.TB
	B      *simulated.Backend
	Down   atomic.Bool
	URL    string
	keys   []*ecdsa.PrivateKey
	nonces []uint64
	signer types.Signer
	want   map[uint64]*big.Int // block → min effective price (wei)
	times  map[uint64]uint64
}

// to receives every transaction's value.
var to = common.HexToAddress("0x00000000000000000000000000000000000000aa")

// NewSim starts a simulated chain with three funded keys and an endpoint on
// loopback; both stop when the test ends.
func NewSim(t testing.TB) *Sim {
	t.Helper()
	s := &Sim{t: t, signer: types.LatestSignerForChainID(big.NewInt(ChainID)), want: map[uint64]*big.Int{}, times: map[uint64]uint64{}}
	alloc := types.GenesisAlloc{}
	for range 3 {
		k, err := crypto.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		s.keys, s.nonces = append(s.keys, k), append(s.nonces, 0)
		alloc[crypto.PubkeyToAddress(k.PublicKey)] = types.Account{Balance: new(big.Int).Lsh(big.NewInt(1), 100)}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hostPort := l.Addr().String()
	l.Close()
	host, port, _ := strings.Cut(hostPort, ":")
	p, _ := strconv.Atoi(port)
	s.B = simulated.NewBackend(alloc, func(nc *node.Config, _ *ethconfig.Config) {
		nc.HTTPHost, nc.HTTPPort = host, p
		nc.HTTPModules, nc.HTTPVirtualHosts = []string{"eth"}, []string{"*"}
	})
	t.Cleanup(func() { _ = s.B.Close() })
	target, _ := url.Parse("http://" + hostPort)
	rp := httputil.NewSingleHostReverseProxy(target)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.Down.Load() {
			http.Error(w, "endpoint down (test)", http.StatusServiceUnavailable)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)
	s.URL = proxy.URL
	return s
}

// Head is the chain's latest header.
func (s *Sim) Head() *types.Header {
	h, err := s.B.Client().HeaderByNumber(context.Background(), nil)
	if err != nil {
		s.t.Fatal(err)
	}
	return h
}

func (s *Sim) send(key int, inner types.TxData) {
	tx, err := types.SignNewTx(s.keys[key], s.signer, inner)
	if err != nil {
		s.t.Fatal(err)
	}
	if err := s.B.Client().SendTransaction(context.Background(), tx); err != nil {
		s.t.Fatal(err)
	}
	s.nonces[key]++
}

// Mine seals a block with a legacy transaction and an EIP-1559 one whose
// fees vary with i (some capped by maxFeePerGas, some not), records the
// block's minimum effective price, min(gasPrice, min(feeCap, base + tip)),
// and returns its number.
func (s *Sim) Mine(i int) uint64 {
	parentBase := s.Head().BaseFee
	gp := new(big.Int).Add(parentBase, big.NewInt(int64(3+i%4)*1e8))
	tip := big.NewInt(int64(1+i%3) * 1e8)
	feeCap := new(big.Int).Add(parentBase, big.NewInt(int64(i%5)*5e7))
	if feeCap.Cmp(tip) < 0 {
		feeCap.Set(tip)
	}
	s.send(0, &types.LegacyTx{Nonce: s.nonces[0], GasPrice: gp, Gas: 21000, To: &to, Value: big.NewInt(1)})
	s.send(1, &types.DynamicFeeTx{ChainID: big.NewInt(ChainID), Nonce: s.nonces[1], GasTipCap: tip, GasFeeCap: feeCap, Gas: 21000, To: &to, Value: big.NewInt(1)})
	s.B.Commit()
	h := s.Head()
	eff := new(big.Int).Add(h.BaseFee, tip)
	if eff.Cmp(feeCap) > 0 {
		eff = feeCap
	}
	if gp.Cmp(eff) < 0 {
		eff = gp
	}
	n := h.Number.Uint64()
	s.want[n], s.times[n] = eff, h.Time
	blk, err := s.B.Client().BlockByNumber(context.Background(), h.Number)
	if err != nil || len(blk.Transactions()) != 2 {
		s.t.Fatalf("block %d: %v, %d transactions, want 2", n, err, len(blk.Transactions()))
	}
	return n
}

// MineLone seals a block holding one legacy transaction of the third key
// at price and nonce (a fork's replacement reuses the nonce) and records
// price as the block's minimum. After a fork the pool catches up with the
// new head on its own time, so a refused send is tried again for a while.
func (s *Sim) MineLone(price *big.Int, nonce uint64) uint64 {
	tx, err := types.SignNewTx(s.keys[2], s.signer, &types.LegacyTx{Nonce: nonce, GasPrice: price, Gas: 21000, To: &to, Value: big.NewInt(1)})
	if err != nil {
		s.t.Fatal(err)
	}
	for try := 0; ; try++ {
		err := s.B.Client().SendTransaction(context.Background(), tx)
		if err == nil {
			break
		}
		if try == 100 {
			s.t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.B.Commit()
	h := s.Head()
	s.want[h.Number.Uint64()], s.times[h.Number.Uint64()] = price, h.Time
	return h.Number.Uint64()
}

// LoneNonce is the third key's next nonce; UseLoneNonce counts one used.
func (s *Sim) LoneNonce() uint64 { return s.nonces[2] }

// UseLoneNonce counts the third key's nonce as used.
func (s *Sim) UseLoneNonce() { s.nonces[2]++ }

// WindowWant is the test's own truth of the window of k blocks at first:
// the least recorded price over its blocks, in gwei, and its last block's
// time.
func (s *Sim) WindowWant(first, k uint64) (decimal.Decimal, uint64) {
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
