package oracle_test

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/oracle"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// The tests on a fake endpoint and a fake chain: unknown transaction types
// and a dropped round.

// fakeRPC is a tiny JSON-RPC endpoint: blocks given as JSON, no
// eth_getBlockReceipts (the oracle falls back to the fee fields).
func fakeRPC(t *testing.T, head uint64, blocks map[uint64]string) *httptest.Server {
	srv := httptest.NewServer(fakeHandler(head, blocks))
	t.Cleanup(srv.Close)
	return srv
}

// fakeHandler is fakeRPC's handler.
func fakeHandler(head uint64, blocks map[uint64]string) http.HandlerFunc {
	return fakeHandlerOf(func() (uint64, map[uint64]string) { return head, blocks })
}

// fakeHandlerOf serves the head and blocks that view answers at each call
// (an endpoint whose chain moves or reorganises).
func fakeHandlerOf(view func() (uint64, map[uint64]string)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		head, blocks := view()
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params []json.RawMessage
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		res, rpcErr := "null", ""
		switch req.Method {
		case "eth_chainId":
			res = `"0xa"`
		case "eth_blockNumber":
			res = fmt.Sprintf(`"0x%x"`, head)
		case "eth_getBlockByNumber":
			var n string
			_ = json.Unmarshal(req.Params[0], &n)
			var num uint64
			fmt.Sscanf(n, "0x%x", &num)
			if b, ok := blocks[num]; ok {
				res = b
			}
		default:
			rpcErr = `{"code":-32601,"message":"the method ` + req.Method + ` does not exist/is not available"}`
		}
		w.Header().Set("Content-Type", "application/json")
		if rpcErr != "" {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":%s}`, req.ID, rpcErr)
			return
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, res)
	}
}

// fakeBlock is block n as JSON: the child of block n − 1 at time 100 + n,
// with one legacy transaction paying wei per gas.
func fakeBlock(n, wei int) string {
	return fmt.Sprintf(`{"number":"0x%x","hash":"0x%064x","parentHash":"0x%064x","timestamp":"0x%x","baseFeePerGas":"0x1","transactions":[{"type":"0x0","gasPrice":"0x%x"}]}`,
		n, n, n-1, 100+n, wei)
}

// dialFake connects to a fake endpoint until the test ends.
func dialFake(t *testing.T, srv *httptest.Server) *oracle.EVM {
	t.Helper()
	evm, err := oracle.DialEVM(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(evm.Close)
	return evm
}

// fakeChain closes nothing; its rounds stay pending with the oracle's
// vote, but the first `dropped` answers for a block are "not found" (a
// round dropped at its deadline) and the first `reopened` a pending round
// without it (opened again by another validator after a drop).
// fakeSender records the truths and accepts them.
type fakeChain struct {
	k        uint64
	mu       sync.Mutex
	dropped  map[uint64]int
	reopened map[uint64]int
	closed   *uint64 // the last closed block, when set
	// paused: governance paused the EVM chain; onPaused, when set, is
	// called (under mu) with each answer given while paused.
	paused   bool
	resume   *uint64
	onPaused func(c *fakeChain, answers int)
	answers  int
	maxTx    int // the params' max_tx_bytes (0: not given)
}

func (c *fakeChain) GasChain(context.Context, uint64) (*wire.GasChainView, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	gc := &wire.GasChainView{EvmChainID: 10, WindowBlocks: c.k, LastClosedBlock: c.closed, Paused: c.paused, ResumeBlock: c.resume}
	if c.paused && c.onPaused != nil {
		c.answers++
		c.onPaused(c, c.answers)
	}
	return gc, nil
}

// Params: the gas track follows EVM chains 1 and 10; max_tx_bytes is
// maxTx when set.
func (c *fakeChain) Params(context.Context) (*wire.ParamsView, error) {
	if c.maxTx > 0 {
		return &wire.ParamsView{AppState: json.RawMessage(fmt.Sprintf(`{"chain":{"gas_chains":[1,10],"max_tx_bytes":%d}}`, c.maxTx))}, nil
	}
	return &wire.ParamsView{AppState: json.RawMessage(`{"chain":{"gas_chains":[1,10]}}`)}, nil
}

// Account: every key but notValidator is a validator's report key.
func (c *fakeChain) Account(_ context.Context, pub ed25519.PublicKey) (*wire.AccountView, error) {
	a := &wire.AccountView{Pubkey: fmt.Sprintf("%x", []byte(pub))}
	if !pub.Equal(notValidator) {
		name := "validator"
		a.Validator = &name
	}
	return a, nil
}

// notValidator is a key the fake chain knows as no validator's.
var notValidator = ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)).Public().(ed25519.PublicKey)

func (c *fakeChain) Truth(_ context.Context, chain, block uint64) (*wire.TruthRoundView, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dropped[block] > 0 {
		c.dropped[block]--
		return nil, &client.QueryError{Code: wire.QueryNotFound, Log: "no truth round"}
	}
	voter := "validator"
	if c.reopened[block] > 0 {
		c.reopened[block]--
		voter = "another"
	}
	return &wire.TruthRoundView{EvmChainID: chain, EvmBlock: block, Status: "pending", Votes: []wire.VoteView{{Validator: voter}}}, nil
}

type fakeSender struct {
	pub    ed25519.PublicKey // nil: a validator's
	mu     sync.Mutex
	truths []*subnetv1.MsgTruth
	// refuse, when set, answers each send first (nil: accepted); of a
	// batch, each entry (batch.go's rule: a TxError refuses the entry, any
	// other error fails the whole send).
	refuse func(m *subnetv1.MsgTruth) error
	// txs counts the sends (a batch is one), batches those that were
	// batches, entries their entries; sizes are the batches' message sizes.
	txs, batches, entries int
	sizes                 []int
}

func (s *fakeSender) PubKey() ed25519.PublicKey {
	if s.pub == nil {
		return make(ed25519.PublicKey, ed25519.PublicKeySize)
	}
	return s.pub
}

func (s *fakeSender) SendWait(_ context.Context, m *subnetv1.Msg, _ time.Duration) (client.TxResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.txs++
	if b := m.GetTruthBatch(); b != nil {
		s.sizes = append(s.sizes, m.Size())
		return s.batch(b.Entries)
	}
	s.truths = append(s.truths, m.GetTruth())
	if s.refuse != nil {
		if err := s.refuse(m.GetTruth()); err != nil {
			return client.TxResult{}, err
		}
	}
	return client.TxResult{Height: int64(len(s.truths))}, nil
}

// batch answers a truth batch as the chain does: each entry refused or
// taken (its truth_entry event), the whole batch refused with the first
// entry's code when every entry is.
func (s *fakeSender) batch(entries []*subnetv1.MsgTruth) (client.TxResult, error) {
	s.batches++
	s.entries += len(entries)
	res := client.TxResult{Height: int64(s.txs)}
	var first *client.TxError
	taken := 0
	for i, e := range entries {
		code, log := wire.CodeOK, ""
		if s.refuse != nil {
			var te *client.TxError
			switch err := s.refuse(e); {
			case errors.As(err, &te):
				code, log = te.Code, te.Log
				if first == nil {
					first = te
				}
			case err != nil:
				return client.TxResult{}, err
			}
		}
		if code == wire.CodeOK {
			s.truths = append(s.truths, e)
			taken++
		}
		res.Events = append(res.Events, client.Event{Type: wire.EventTruthEntry, Attributes: []client.Attribute{
			{Key: "index", Value: fmt.Sprint(i)}, {Key: "evm_chain_id", Value: fmt.Sprint(e.EvmChainId)}, {Key: "evm_block", Value: fmt.Sprint(e.EvmBlock)},
			{Key: "code", Value: fmt.Sprint(code)}, {Key: "name", Value: wire.CodeName(code)}, {Key: "log", Value: log}}})
	}
	if taken == 0 {
		return client.TxResult{}, first
	}
	return res, nil
}

// TestOracleUnknownTxType: an endpoint whose blocks carry an OP-stack
// deposit (type 0x7e, zero-priced), a type no one knows (0x6f, with a price
// lower than any real one) and a transaction without a type field (a
// legacy one on an old endpoint): the oracle skips the first two, prices
// the others, and reports the window (k = 2) without failing.
func TestOracleUnknownTxType(t *testing.T) {
	blocks := map[uint64]string{
		4: `{"number":"0x4","hash":"0x0400000000000000000000000000000000000000000000000000000000000000","parentHash":"0x0300000000000000000000000000000000000000000000000000000000000000","timestamp":"0x64","baseFeePerGas":"0x3b9aca00","transactions":[
			{"type":"0x7e","gasPrice":"0x0","sourceHash":"0xab","mint":"0x0"},
			{"type":"0x6f","gasPrice":"0x1","weird":{"a":[1,2]}},
			{"type":"0x2","maxFeePerGas":"0x77359400","maxPriorityFeePerGas":"0x3b9aca00"}]}`,
		5: `{"number":"0x5","hash":"0x0500000000000000000000000000000000000000000000000000000000000000","parentHash":"0x0400000000000000000000000000000000000000000000000000000000000000","timestamp":"0x70","baseFeePerGas":"0x3b9aca00","transactions":[
			{"gasPrice":"0x6fc23ac00"},
			{"type":"0x7e","gasPrice":"0x0"},
			{"type":"0x2","maxFeePerGas":"0x59682f00","maxPriorityFeePerGas":"0x77359400"}]}`,
	}
	srv := fakeRPC(t, 7, blocks)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	evm := dialFake(t, srv)
	b4, err := evm.Block(ctx, 4)
	if err != nil {
		t.Fatalf("a block with unknown transaction types: %v", err)
	}
	// 0x2: min(2 gwei, 1 + 1 gwei) = 2 gwei; 0x7e and 0x6f skipped
	if b4.MinPrice.Int64() != 2_000_000_000 || b4.Skipped != 2 {
		t.Fatalf("block 4: min %s, skipped %d; want 2 gwei, 2 skipped", b4.MinPrice, b4.Skipped)
	}
	sender := &fakeSender{}
	done := make(chan oracle.Report, 1)
	o := oracle.New(oracle.Config{EvmChainID: 10, Confirmations: 2, StartBlock: 4, HasStart: true, Poll: 10 * time.Millisecond,
		Logf: t.Logf, OnReport: func(r oracle.Report) {
			select {
			case done <- r:
			default:
			}
		}}, evm, &fakeChain{k: 2}, sender)
	go func() { _ = o.Run(ctx) }()
	var r oracle.Report
	select {
	case r = <-done:
		cancel()
	case <-ctx.Done():
		t.Fatal("no report")
	}
	// window 4 (blocks 4, 5): block 5's 0x2 pays min(1.5, 1 + 2) = 1.5 gwei,
	// its untyped legacy 30 gwei: the window's min is 1.5 gwei at block 5's time
	if r.Outcome != oracle.Sent || len(sender.truths) != 1 {
		t.Fatalf("report %+v, %d truths", r, len(sender.truths))
	}
	got := sender.truths[0]
	if got.EvmChainId != 10 || got.EvmBlock != 4 || got.MinPrice != "1.5" || got.Timestamp != 0x70 {
		t.Fatalf("truth %+v, want chain 10 window 4 min 1.5 gwei at %d", got, 0x70)
	}
}

// TestOracleResendsDroppedRound: the round of block 4 is dropped at its
// deadline (not found while the chain has not closed block 4): the oracle
// sends block 4's truth again, once, and goes on with block 5.
func TestOracleResendsDroppedRound(t *testing.T) {
	srv := fakeRPC(t, 6, map[uint64]string{4: fakeBlock(4, 100), 5: fakeBlock(5, 101)})
	sender := &fakeSender{}
	if got := runReports(t, srv, &fakeChain{k: 1, dropped: map[uint64]int{4: 1}}, sender, 3); got != "4 sent, 4 resent, 5 sent" {
		t.Fatalf("outcomes %q, want block 4 sent, then resent, then block 5", got)
	}
	if len(sender.truths) != 3 || sender.truths[1].EvmBlock != 4 || sender.truths[1].MinPrice != "0.0000001" {
		t.Fatalf("truths %v", sender.truths)
	}
}

// TestOracleVotesInReopenedRound: the round of block 4 was dropped and
// opened again by another validator, so it is pending without this
// oracle's vote: the oracle votes in it again, once.
func TestOracleVotesInReopenedRound(t *testing.T) {
	srv := fakeRPC(t, 6, map[uint64]string{4: fakeBlock(4, 100), 5: fakeBlock(5, 101)})
	sender := &fakeSender{}
	if got := runReports(t, srv, &fakeChain{k: 1, reopened: map[uint64]int{4: 1}}, sender, 3); got != "4 sent, 4 resent, 5 sent" {
		t.Fatalf("outcomes %q, want block 4 sent, then resent, then block 5", got)
	}
}

// TestOracleResendsWhileWaiting: block 5 is too far ahead until block 4
// closes, and block 4's round is dropped while the oracle waits to send
// block 5: the oracle sends block 4 again during that wait, which is what
// lets the chain close it (before, it only retried block 5, and the
// validators that had sent block 4 before its drop waited for good).
func TestOracleResendsWhileWaiting(t *testing.T) {
	srv := fakeRPC(t, 6, map[uint64]string{4: fakeBlock(4, 100), 5: fakeBlock(5, 101)})
	chain := &fakeChain{k: 1, dropped: map[uint64]int{}}
	sent4 := 0
	sender := &fakeSender{refuse: func(m *subnetv1.MsgTruth) error {
		chain.mu.Lock()
		defer chain.mu.Unlock()
		switch {
		case m.EvmBlock == 4:
			sent4++
		case m.EvmBlock == 5 && sent4 < 2:
			chain.dropped[4] = 1 // the round of block 4 is dropped at its deadline
			return &client.TxError{Code: wire.CodeTruthTooFar, Name: wire.CodeName(wire.CodeTruthTooFar), Log: "too far (test)"}
		}
		return nil
	}}
	if got := runReports(t, srv, chain, sender, 3); got != "4 sent, 4 resent, 5 sent" {
		t.Fatalf("outcomes %q, want block 4 sent, resent while block 5 waited, then block 5", got)
	}
}

// TestOracleLagAfterAClose: the chain closes past block 4 up to block 9
// while the oracle sends block 4, and the head is 10: the oracle waits for
// block 10 and owes nothing before it, so lag_blocks is 10 − 9 = 1 (it
// read 6, from block 4, until the next window finished).
func TestOracleLagAfterAClose(t *testing.T) {
	blocks := map[uint64]string{}
	for n := 1; n <= 10; n++ {
		blocks[uint64(n)] = fakeBlock(n, 100+n)
	}
	srv := fakeRPC(t, 10, blocks)
	chain := &fakeChain{k: 1}
	closed := uint64(9)
	sender := &fakeSender{refuse: func(m *subnetv1.MsgTruth) error {
		chain.mu.Lock()
		defer chain.mu.Unlock()
		chain.closed = &closed
		return &client.TxError{Code: wire.CodeEVMBlockClosed, Name: wire.CodeName(wire.CodeEVMBlockClosed), Log: "closed (test)"}
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m := oracle.NewMetrics()
	o := oracle.New(oracle.Config{EvmChainID: 10, Confirmations: 1, StartBlock: 4, HasStart: true, Poll: 10 * time.Millisecond,
		Logf: t.Logf, Metrics: m}, dialFake(t, srv), chain, sender)
	go func() { _ = o.Run(ctx) }()
	lag := -1.0
	for ctx.Err() == nil {
		if lag = gauge(t, m, "validatord_oracle_lag_blocks"); lag == 1 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("lag_blocks %v, want 1 (head 10, the chain closed up to 9)", lag)
}

// gauge is the value of a gauge of m (-1 while it has none).
func gauge(t *testing.T, m *oracle.Metrics, name string) float64 {
	t.Helper()
	mfs, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name && len(mf.GetMetric()) > 0 {
			return mf.GetMetric()[0].GetGauge().GetValue()
		}
	}
	return -1
}

// TestOracleRefusals: what each refusal of a truth makes of its window.
// Too far ahead or too many open rounds (the chain has not caught up) is
// tried again, never skipped; already reported counts as done; closed by
// the chain jumps past the chain's last closed block; not a validator stops
// the oracle.
func TestOracleRefusals(t *testing.T) {
	blocks := map[uint64]string{}
	for n := 1; n <= 12; n++ {
		blocks[uint64(n)] = fakeBlock(n, 100+n)
	}
	srv := fakeRPC(t, 12, blocks)
	refusal := func(code uint32) error {
		return &client.TxError{Code: code, Name: wire.CodeName(code), Log: "refused (test)"}
	}
	cases := []struct {
		name   string
		refuse map[uint64][]uint32 // block → codes answered to its first sends
		closed uint64              // the chain's last closed block after a 33
		want   string              // outcomes of blocks from 4, until 3 of them or the end
		sent   int                 // sends in all
		fatal  bool
	}{
		{"too far, then accepted", map[uint64][]uint32{4: {wire.CodeTruthTooFar, wire.CodeTooManyOpenRounds}}, 0, "4 sent, 5 sent, 6 sent", 5, false},
		{"already reported", map[uint64][]uint32{4: {wire.CodeDuplicateTruth}}, 0, "4 already reported, 5 sent, 6 sent", 3, false},
		{"closed by the chain past it", map[uint64][]uint32{4: {wire.CodeEVMBlockClosed}}, 9, "4 closed, 10 sent, 11 sent", 3, false},
		{"not a validator", map[uint64][]uint32{4: {wire.CodeNotValidator}}, 0, "", 1, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			evm := dialFake(t, srv)
			chain := &fakeChain{k: 1}
			var mu sync.Mutex
			left := map[uint64][]uint32{}
			for b, codes := range c.refuse {
				left[b] = append([]uint32(nil), codes...)
			}
			sender := &fakeSender{refuse: func(m *subnetv1.MsgTruth) error {
				mu.Lock()
				defer mu.Unlock()
				codes := left[m.EvmBlock]
				if len(codes) == 0 {
					return nil
				}
				left[m.EvmBlock] = codes[1:]
				if codes[0] == wire.CodeEVMBlockClosed {
					chain.mu.Lock()
					chain.closed = &c.closed
					chain.mu.Unlock()
				}
				return refusal(codes[0])
			}}
			var outcomes []string
			o := oracle.New(oracle.Config{EvmChainID: 10, Confirmations: 1, StartBlock: 4, HasStart: true, Poll: 10 * time.Millisecond,
				BackoffMin: time.Millisecond, BackoffMax: 2 * time.Millisecond, Logf: t.Logf, OnReport: func(r oracle.Report) {
					outcomes = append(outcomes, fmt.Sprintf("%d %s", r.Truth.Window.First, r.Outcome))
					if len(outcomes) == 3 {
						cancel()
					}
				}}, evm, chain, sender)
			err := o.Run(ctx)
			if c.fatal != errors.Is(err, oracle.ErrFatal) {
				t.Fatalf("Run: %v, want fatal %v", err, c.fatal)
			}
			if got := strings.Join(outcomes, ", "); got != c.want || len(sender.truths) != c.sent {
				t.Fatalf("outcomes %q after %d sends, want %q after %d", got, len(sender.truths), c.want, c.sent)
			}
		})
	}
}

// emptyBlock is block n as JSON with no transaction but a zero-priced
// system one: no priced transaction.
func emptyBlock(n int) string {
	return fmt.Sprintf(`{"number":"0x%x","hash":"0x%064x","parentHash":"0x%064x","timestamp":"0x%x","baseFeePerGas":"0x1","transactions":[{"type":"0x7e","gasPrice":"0x0"}]}`,
		n, n, n-1, 100+n)
}

// TestOracleEmptyBlocks: blocks 5..7 hold no priced transaction; the
// oracle sends an empty truth (no price, the block's timestamp) for each,
// between the priced truths of blocks 4 and 8, and skips none.
func TestOracleEmptyBlocks(t *testing.T) {
	blocks := map[uint64]string{4: fakeBlock(4, 100), 8: fakeBlock(8, 108)}
	for n := 5; n <= 7; n++ {
		blocks[uint64(n)] = emptyBlock(n)
	}
	srv := fakeRPC(t, 9, blocks)
	sender := &fakeSender{}
	if got := runReports(t, srv, &fakeChain{k: 1}, sender, 5); got != "4 sent, 5 sent, 6 sent, 7 sent, 8 sent" {
		t.Fatalf("outcomes %q, want every block 4..8 sent", got)
	}
	for i, tr := range sender.truths {
		n := uint64(4 + i)
		empty := n >= 5 && n <= 7
		if tr.EvmBlock != n || tr.Empty != empty || (tr.MinPrice == "") != empty || tr.Timestamp != int64(100+n) {
			t.Fatalf("truth %d: %+v; want block %d, empty %v, timestamp %d", i, tr, n, empty, 100+n)
		}
	}
}

// runReports runs an oracle on srv from block 4 (one confirmation) until
// it has made n reports, and returns them as "window outcome",
// comma-separated.
func runReports(t *testing.T, srv *httptest.Server, chain *fakeChain, sender *fakeSender, n int) string {
	t.Helper()
	return runBatches(t, srv, chain, sender, n, 0)
}

// runBatches is runReports with up to batch windows a transaction.
func runBatches(t *testing.T, srv *httptest.Server, chain *fakeChain, sender *fakeSender, n, batch int) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var mu sync.Mutex
	var outcomes []string
	o := oracle.New(oracle.Config{EvmChainID: 10, Confirmations: 1, StartBlock: 4, HasStart: true, Poll: 10 * time.Millisecond,
		BatchWindows: batch, BackoffMin: time.Millisecond, Logf: t.Logf, OnReport: func(r oracle.Report) {
			mu.Lock()
			defer mu.Unlock()
			outcomes = append(outcomes, fmt.Sprintf("%d %s", r.Truth.Window.First, r.Outcome))
			if len(outcomes) == n {
				cancel()
			}
		}}, dialFake(t, srv), chain, sender)
	if err := o.Run(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	return strings.Join(outcomes, ", ")
}

// backlogRPC are the blocks 1..last of an endpoint, every third of them
// empty (a quiet chain), and which are empty.
func backlogRPC(last int) (map[uint64]string, func(n int) bool) {
	empty := func(n int) bool { return n%3 == 0 }
	blocks := map[uint64]string{}
	for n := 1; n <= last; n++ {
		blocks[uint64(n)] = fakeBlock(n, 100+n)
		if empty(n) {
			blocks[uint64(n)] = emptyBlock(n)
		}
	}
	return blocks, empty
}

// TestOracleBatchesBacklog: 300 windows confirmed at once (blocks 4..303,
// a third of them empty) are reported in 5 transactions of at most 64
// truths, not 300: every window sent once, in order, with its own truth
// (priced or empty, its timestamp), each report its window's outcome.
func TestOracleBatchesBacklog(t *testing.T) {
	blocks, empty := backlogRPC(304)
	srv := fakeRPC(t, 304, blocks)
	sender := &fakeSender{}
	got := runBatches(t, srv, &fakeChain{k: 1}, sender, 300, 64)
	var want []string
	for n := 4; n <= 303; n++ {
		want = append(want, fmt.Sprintf("%d sent", n))
	}
	if got != strings.Join(want, ", ") {
		t.Fatalf("outcomes %q", got)
	}
	if sender.txs != 5 || sender.batches != 5 || sender.entries != 300 {
		t.Fatalf("%d transactions (%d batches of %d entries in all) for 300 windows, want 5 batches of at most 64", sender.txs, sender.batches, sender.entries)
	}
	for i, tr := range sender.truths {
		n := 4 + i
		if tr.EvmBlock != uint64(n) || tr.Empty != empty(n) || (tr.MinPrice == "") != empty(n) || tr.Timestamp != int64(100+n) {
			t.Fatalf("truth %d: %+v; want block %d, empty %v, timestamp %d", i, tr, n, empty(n), 100+n)
		}
	}
}

// TestOracleBatchOutcomes: each entry of a batch gets the outcome its
// single truth's answer would give its window. Block 5 already reported
// (35), block 6 refused for good (a bad price), blocks 7..9 closed by the
// chain up to 9 (33: the oracle goes on after it). The next batch, blocks
// 12..19, is refused whole (every entry too far ahead, 44): its first
// window goes on as a single truth (taken), and the rest in a batch.
func TestOracleBatchOutcomes(t *testing.T) {
	blocks, _ := backlogRPC(20)
	srv := fakeRPC(t, 20, blocks)
	chain := &fakeChain{k: 1}
	closed := uint64(9)
	var mu sync.Mutex
	tooFar := map[uint64]int{}
	for b := uint64(12); b <= 19; b++ {
		tooFar[b] = 1 // the chain has not caught up: every later block is too far too
	}
	refusal := func(code uint32) error {
		return &client.TxError{Code: code, Name: wire.CodeName(code), Log: "refused (test)"}
	}
	sender := &fakeSender{refuse: func(m *subnetv1.MsgTruth) error {
		mu.Lock()
		defer mu.Unlock()
		switch b := m.EvmBlock; {
		case b == 5:
			return refusal(wire.CodeDuplicateTruth)
		case b == 6:
			return refusal(wire.CodeDecimalRange)
		case b >= 7 && b <= 9:
			chain.mu.Lock()
			chain.closed = &closed
			chain.mu.Unlock()
			return refusal(wire.CodeEVMBlockClosed)
		case tooFar[b] > 0:
			tooFar[b]--
			return refusal(wire.CodeTruthTooFar)
		}
		return nil
	}}
	got := runBatches(t, srv, chain, sender, 16, 8)
	want := "4 sent, 5 already reported, 6 refused, 7 closed, 8 closed, 9 closed, 10 sent, 11 sent, " +
		"12 sent, 13 sent, 14 sent, 15 sent, 16 sent, 17 sent, 18 sent, 19 sent"
	if got != want {
		t.Fatalf("outcomes\n%s\nwant\n%s", got, want)
	}
	// batches 4..11 and 12..19 (refused whole: every entry not yet), 12 alone
	// (accepted), then 13..19
	if sender.txs != 4 || sender.batches != 3 {
		t.Fatalf("%d transactions, %d of them batches; want 4, 3", sender.txs, sender.batches)
	}
}

// TestOracleBatchFatal: a batch whose every entry is refused because the
// key is no validator's stops the oracle as the single truth does.
func TestOracleBatchFatal(t *testing.T) {
	blocks, _ := backlogRPC(12)
	srv := fakeRPC(t, 12, blocks)
	sender := &fakeSender{refuse: func(*subnetv1.MsgTruth) error {
		return &client.TxError{Code: wire.CodeNotValidator, Name: wire.CodeName(wire.CodeNotValidator), Log: "not a validator (test)"}
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	o := oracle.New(oracle.Config{EvmChainID: 10, Confirmations: 1, StartBlock: 4, HasStart: true, Poll: 10 * time.Millisecond,
		BatchWindows: 8, Logf: t.Logf}, dialFake(t, srv), &fakeChain{k: 1}, sender)
	if err := o.Run(ctx); !errors.Is(err, oracle.ErrFatal) {
		t.Fatalf("Run: %v, want fatal", err)
	}
	if sender.txs != 2 || sender.batches != 1 {
		t.Fatalf("%d sends (%d batches), want the batch then its first window alone", sender.txs, sender.batches)
	}
}

// TestOracleBatchFitsMaxTxBytes: with the chain's max_tx_bytes at 1024, a
// backlog of 100 windows goes in batches whose messages leave room for the
// signed envelope (768 bytes at most), every window once and in order.
func TestOracleBatchFitsMaxTxBytes(t *testing.T) {
	blocks, _ := backlogRPC(104)
	srv := fakeRPC(t, 104, blocks)
	sender := &fakeSender{}
	got := runBatches(t, srv, &fakeChain{k: 1, maxTx: 1024}, sender, 100, 64)
	var want []string
	for n := 4; n <= 103; n++ {
		want = append(want, fmt.Sprintf("%d sent", n))
	}
	if got != strings.Join(want, ", ") {
		t.Fatalf("outcomes %q", got)
	}
	if sender.entries != 100 || sender.batches < 3 {
		t.Fatalf("%d batches of %d entries in all; want 100 entries in more batches than 64 a batch would need", sender.batches, sender.entries)
	}
	for i, n := range sender.sizes {
		if n > 1024-256 {
			t.Fatalf("batch %d: %d bytes, leaving less than 256 of max_tx_bytes 1024 for the envelope", i, n)
		}
	}
}
