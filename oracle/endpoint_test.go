package oracle_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/oracle"
)

// The oracle against endpoints that misbehave: one that never answers, one
// that answers slowly, one that answers garbage, one of another chain, and
// a sender that is no validator. Each test is bounded by its own context:
// a hang fails it when the context ends, with the log so far.

// logLines collects the oracle's log lines and lets a test wait for one.
type logLines struct {
	mu    sync.Mutex
	lines []string
	added chan struct{}
}

func newLogLines() *logLines { return &logLines{added: make(chan struct{}, 1)} }

func (l *logLines) logf(format string, args ...any) {
	l.mu.Lock()
	l.lines = append(l.lines, strings.TrimSpace(fmt.Sprintf(format, args...)))
	l.mu.Unlock()
	select {
	case l.added <- struct{}{}:
	default:
	}
}

// count is the number of lines that hold sub.
func (l *logLines) count(sub string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, s := range l.lines {
		if strings.Contains(s, sub) {
			n++
		}
	}
	return n
}

// wait waits for n lines that hold sub, or fails when ctx ends.
func (l *logLines) wait(ctx context.Context, t *testing.T, sub string, n int) {
	t.Helper()
	for l.count(sub) < n {
		select {
		case <-l.added:
		case <-ctx.Done():
			l.mu.Lock()
			defer l.mu.Unlock()
			t.Fatalf("no line %q (%d wanted) before the test's deadline; the log:\n%s", sub, n, strings.Join(l.lines, "\n"))
		}
	}
}

// misbehaving is a fake endpoint (fakeHandler's blocks 4 and 5, head 6,
// chain 10) in front of which bad answers a method while bad is set.
func misbehaving(t *testing.T, method string, bad func(w http.ResponseWriter, r *http.Request)) (*httptest.Server, *atomic.Bool) {
	on := &atomic.Bool{}
	on.Store(true)
	inner := fakeHandler(6, map[uint64]string{4: fakeBlock(4, 100), 5: fakeBlock(5, 101)})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct{ Method string }
		_ = json.Unmarshal(body, &req)
		if on.Load() && req.Method == method {
			bad(w, r)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		inner(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, on
}

// quickConfig: a 50 ms RPC timeout, backoffs of a few ms, from block 4.
func quickConfig(l *logLines, m *oracle.Metrics, reports chan<- oracle.Report) oracle.Config {
	return oracle.Config{EvmChainID: 10, Confirmations: 1, StartBlock: 4, HasStart: true, Poll: 5 * time.Millisecond,
		RPCTimeout: 50 * time.Millisecond, BackoffMin: 2 * time.Millisecond, BackoffMax: 10 * time.Millisecond,
		Logf: l.logf, Metrics: m, OnReport: func(r oracle.Report) {
			select {
			case reports <- r:
			default:
			}
		}}
}

// runUntil runs the oracle in the background; the returned stop cancels
// it and returns Run's error (or fails when Run does not return before
// the test's context ends: a hang).
func runUntil(ctx context.Context, t *testing.T, o *oracle.Oracle) (stop func() error) {
	run, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- o.Run(run) }()
	return func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-ctx.Done():
			t.Fatal("Run did not return after its context ended")
			return nil
		}
	}
}

// rpcErrors is validatord_oracle_rpc_errors_total{endpoint="evm", kind}.
func rpcErrors(t *testing.T, m *oracle.Metrics, kind oracle.ErrKind) float64 {
	return series(t, m, "validatord_oracle_rpc_errors_total", map[string]string{"endpoint": "evm", "kind": string(kind)})
}

// waitErrors waits until the EVM endpoint has failed n calls of kind, or
// fails when ctx ends.
func waitErrors(ctx context.Context, t *testing.T, m *oracle.Metrics, kind oracle.ErrKind, n float64) {
	t.Helper()
	for rpcErrors(t, m, kind) < n {
		if err := sleepCtx(ctx, 5*time.Millisecond); err != nil {
			t.Fatalf("fewer than %v %s failures before the test's deadline", n, kind)
		}
	}
}

// series is the value of the oracle's series name whose labels include
// want (0 when there is none).
func series(t *testing.T, m *oracle.Metrics, name string, want map[string]string) float64 {
	t.Helper()
	fams, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() != name {
			continue
		}
	next:
		for _, mt := range f.GetMetric() {
			for _, lp := range mt.GetLabel() {
				if v, ok := want[lp.GetName()]; ok && v != lp.GetValue() {
					continue next
				}
			}
			if mt.GetCounter() != nil {
				return mt.GetCounter().GetValue()
			}
			return mt.GetGauge().GetValue()
		}
	}
	return 0
}

// TestOracleEndpointNeverAnswers: an endpoint that accepts the connection
// and the request and never answers. Each call ends at the RPC timeout;
// the oracle logs one line (down, timeout) however many calls fail, and
// stops when asked.
func TestOracleEndpointNeverAnswers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var held sync.WaitGroup
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held.Add(1)
			go func() { defer held.Done(); _, _ = io.Copy(io.Discard, c) }() // reads, never answers
		}
	}()
	defer held.Wait()
	defer ln.Close()
	evm, err := oracle.DialEVM(ctx, "http://"+ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer evm.Close()
	l, m := newLogLines(), oracle.NewMetrics()
	stop := runUntil(ctx, t, oracle.New(quickConfig(l, m, nil), evm, &fakeChain{k: 1}, &fakeSender{}))
	l.wait(ctx, t, "EVM endpoint down (timeout): read the endpoint's chain id (eth_chainId)", 1)
	waitErrors(ctx, t, m, oracle.KindTimeout, 3)
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if n := l.count("down"); n != 1 {
		t.Fatalf("%d lines say the endpoint is down after %v timeouts, want 1", n, rpcErrors(t, m, oracle.KindTimeout))
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// TestOracleEndpointSlowOrGarbage: an endpoint whose answers to one
// method come slower than the RPC timeout, or are not JSON-RPC at all,
// for a while: one line when it goes down (with the kind), one when it is
// up again, then the window is reported; the metrics count the failures
// and show the head and the truth.
func TestOracleEndpointSlowOrGarbage(t *testing.T) {
	cases := []struct {
		name, method string
		kind         oracle.ErrKind
		bad          func(w http.ResponseWriter, r *http.Request)
	}{
		{"slow head", "eth_blockNumber", oracle.KindTimeout, func(w http.ResponseWriter, r *http.Request) {
			select { // slower than the RPC timeout; ends with the request
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}},
		{"garbage block", "eth_getBlockByNumber", oracle.KindGarbage, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, "<html>502 bad gateway</html>")
		}},
		{"block of another number", "eth_getBlockByNumber", oracle.KindGarbage, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":`+fakeBlock(9, 100)+`}`)
		}},
		{"HTTP 503", "eth_blockNumber", oracle.KindRefused, func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			srv, bad := misbehaving(t, c.method, c.bad)
			l, m := newLogLines(), oracle.NewMetrics()
			reports := make(chan oracle.Report, 1)
			sender := &fakeSender{}
			stop := runUntil(ctx, t, oracle.New(quickConfig(l, m, reports), dialFake(t, srv), &fakeChain{k: 1}, sender))
			l.wait(ctx, t, "EVM endpoint down ("+string(c.kind)+")", 1)
			waitErrors(ctx, t, m, c.kind, 3)
			bad.Store(false)
			l.wait(ctx, t, "EVM endpoint up again", 1)
			select {
			case r := <-reports:
				if r.Outcome != oracle.Sent || r.Truth.Window.First != 4 {
					t.Fatalf("report %+v, want block 4 sent", r)
				}
			case <-ctx.Done():
				t.Fatal("no report after the endpoint came back")
			}
			if err := stop(); err != nil {
				t.Fatalf("Run: %v", err)
			}
			if n := l.count("down"); n != 1 {
				t.Fatalf("%d lines say the endpoint is down, want 1", n)
			}
			ten := map[string]string{"evm_chain_id": "10"}
			if h, tr := series(t, m, "validatord_oracle_evm_head", ten), series(t, m, "validatord_oracle_last_truth_evm_block", ten); h != 6 || tr < 4 {
				t.Fatalf("metrics: head %v, last truth %v; want 6 and at least 4", h, tr)
			}
		})
	}
}

// TestOracleWrongChain: an endpoint of another chain than --evm-chain-id,
// or of a chain the gas track does not follow, is refused at start, and
// the refusal names the chain ids the gas track follows.
func TestOracleWrongChain(t *testing.T) {
	cases := []struct {
		name   string
		config uint64 // Config.EvmChainID
		want   string
	}{
		{"another chain than configured", 10, "the EVM endpoint serves chain 5, not EVM chain 10"},
		{"a chain the gas track does not follow", 0, "EVM chain 5 is not followed by this chain's gas track"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			srv, _ := misbehaving(t, "eth_chainId", func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":"0x5"}`)
			})
			l := newLogLines()
			conf := quickConfig(l, nil, nil)
			conf.EvmChainID = c.config
			sender := &fakeSender{}
			err := oracle.New(conf, dialFake(t, srv), &fakeChain{k: 1}, sender).Run(ctx)
			if !errors.Is(err, oracle.ErrFatal) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "follows EVM chain ids 1, 10") {
				t.Fatalf("Run: %v; want a refusal %q naming chain ids 1, 10", err, c.want)
			}
			if len(sender.truths) != 0 {
				t.Fatalf("%d truths sent", len(sender.truths))
			}
		})
	}
}

// TestOracleRefusesNonValidator: a sender key that is no validator's
// report key is refused at start, before any window is read or sent.
func TestOracleRefusesNonValidator(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srv := fakeRPC(t, 6, map[uint64]string{4: fakeBlock(4, 100), 5: fakeBlock(5, 101)})
	l := newLogLines()
	sender := &fakeSender{pub: notValidator}
	err := oracle.New(quickConfig(l, nil, nil), dialFake(t, srv), &fakeChain{k: 1}, sender).Run(ctx)
	if !errors.Is(err, oracle.ErrNotValidator) || !errors.Is(err, oracle.ErrFatal) {
		t.Fatalf("Run: %v; want a refusal: not a validator's report key", err)
	}
	if len(sender.truths) != 0 || l.count("block 4") != 0 {
		t.Fatalf("%d truths sent; log %v", len(sender.truths), l.lines)
	}
}

// TestOracleHeadLines: the lines of a head that does not serve the next
// window, each said once however many polls follow. Below the chain's
// closed window: the chain has closed the EVM chain through block 20 and
// the endpoint's head is 6 (a reset dev chain), and --start-block 4 cannot
// be used below it. Still: the head stays at 6 (a halted chain) once
// blocks 4 and 5 are reported.
func TestOracleHeadLines(t *testing.T) {
	closed := uint64(20)
	cases := []struct {
		name   string
		closed *uint64
		still  time.Duration
		want   []string
		once   string
	}{
		{"below the closed window", &closed, 0, []string{
			"--start-block 4 not used: the chain has closed EVM chain 10 through block 20",
			"EVM head 6 is below block 21, the next window to report (the chain has closed EVM chain 10 through block 20)",
		}, "is below"},
		{"still", nil, 30 * time.Millisecond, []string{"EVM head still at 6 after 30ms"}, "still at"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			srv := fakeRPC(t, 6, map[uint64]string{4: fakeBlock(4, 100), 5: fakeBlock(5, 101)})
			l := newLogLines()
			conf := quickConfig(l, nil, nil)
			conf.HeadStill = c.still
			stop := runUntil(ctx, t, oracle.New(conf, dialFake(t, srv), &fakeChain{k: 1, closed: c.closed}, &fakeSender{}))
			for _, w := range c.want {
				l.wait(ctx, t, w, 1)
			}
			if err := sleepCtx(ctx, 60*time.Millisecond); err != nil { // more polls of the head
				t.Fatal(err)
			}
			if err := stop(); err != nil {
				t.Fatalf("Run: %v", err)
			}
			if n := l.count(c.once); n != 1 {
				t.Fatalf("%d lines hold %q, want 1", n, c.once)
			}
		})
	}
}

// TestOracleEndpointBackOnAnotherChain: the endpoint goes down (HTTP 503)
// and comes back serving chain 5: the oracle checks the chain id again on
// its return, says so once (wrong_chain) and reads no block of it.
func TestOracleEndpointBackOnAnotherChain(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var phase atomic.Int32 // 0: chain 10; 1: down; 2: chain 5
	var blocksRead atomic.Int32
	inner := fakeHandler(6, map[uint64]string{4: fakeBlock(4, 100), 5: fakeBlock(5, 101)})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct{ Method string }
		_ = json.Unmarshal(body, &req)
		switch p := phase.Load(); {
		case p == 1:
			http.Error(w, "restarting", http.StatusServiceUnavailable)
			return
		case p == 2 && req.Method == "eth_chainId":
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":"0x5"}`)
			return
		case p == 2 && req.Method == "eth_getBlockByNumber":
			blocksRead.Add(1)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		inner(w, r)
	}))
	t.Cleanup(srv.Close)
	l, m := newLogLines(), oracle.NewMetrics()
	sender := &fakeSender{}
	stop := runUntil(ctx, t, oracle.New(quickConfig(l, m, nil), dialFake(t, srv), &fakeChain{k: 1}, sender))
	l.wait(ctx, t, "block 5: min_price", 1)
	phase.Store(1)
	l.wait(ctx, t, "EVM endpoint down (refused)", 1)
	phase.Store(2)
	l.wait(ctx, t, "EVM endpoint down (wrong_chain)", 1)
	waitErrors(ctx, t, m, oracle.KindWrongChain, 3)
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if n := l.count("(wrong_chain)"); n != 1 || blocksRead.Load() != 0 || l.count("up again") != 0 {
		t.Fatalf("%d wrong_chain lines, %d blocks read of chain 5, %d lines up again; want 1, 0, 0", n, blocksRead.Load(), l.count("up again"))
	}
}
