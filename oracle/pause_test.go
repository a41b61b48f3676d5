package oracle_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/oracle"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// resumeAfter resumes a paused fake chain at block at once it has
// answered n times while paused: a resume closes it up to at − 1.
func resumeAfter(n int, at uint64) func(*fakeChain, int) {
	return func(c *fakeChain, answers int) {
		if answers >= n {
			closed := at - 1
			c.paused, c.resume, c.closed = false, &at, &closed
		}
	}
}

// TestOraclePausedChain: governance pauses the EVM chain while the oracle
// runs, before it starts, and while its EVM endpoint is down. Each time
// the oracle logs one line, waits (reading the chain at every poll, 5 reads
// here) and resumes at the resume block, 10, with no window in between
// sent; it never stops with an error.
func TestOraclePausedChain(t *testing.T) {
	blocks := map[uint64]string{}
	for n := 1; n <= 12; n++ {
		blocks[uint64(n)] = fakeBlock(n, 100+n)
	}
	var down atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			http.Error(w, "gone", http.StatusServiceUnavailable)
			return
		}
		fakeHandler(12, blocks)(w, r)
	}))
	t.Cleanup(srv.Close)
	cases := []struct {
		name   string
		paused bool // from the start
		refuse bool // block 6's truth is refused with 80, and the chain paused
		down   bool // the endpoint goes down at block 6, and the chain paused
		want   string
	}{
		{"paused while running", false, true, false, "4 sent, 5 sent, 10 sent, 11 sent"},
		{"paused at the start", true, false, false, "10 sent, 11 sent"},
		{"paused while the endpoint is down", false, false, true, "4 sent, 5 sent, 10 sent, 11 sent"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			down.Store(false)
			chain := &fakeChain{k: 1, paused: c.paused, onPaused: resumeAfter(5, 10)}
			pause := func() {
				chain.mu.Lock()
				chain.paused = true
				chain.mu.Unlock()
			}
			sender := &fakeSender{refuse: func(m *subnetv1.MsgTruth) error {
				switch {
				case m.EvmBlock == 6 && c.refuse:
					pause()
					return &client.TxError{Code: wire.CodeEVMChainPaused, Name: wire.CodeName(wire.CodeEVMChainPaused), Log: "evm_chain_id = 10: paused by governance"}
				case m.EvmBlock == 5 && c.down:
					pause()
					down.Store(true)
				}
				return nil
			}}
			logs := newLogLines()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var outcomes []string
			n := strings.Count(c.want, ",") + 1
			o := oracle.New(oracle.Config{EvmChainID: 10, Confirmations: 1, StartBlock: 4, HasStart: true, Poll: 5 * time.Millisecond,
				BackoffMin: time.Millisecond, BackoffMax: 2 * time.Millisecond, Logf: logs.logf, OnReport: func(r oracle.Report) {
					outcomes = append(outcomes, fmt.Sprintf("%d %s", r.Truth.Window.First, r.Outcome))
					if r.Truth.Window.First == 5 && c.down {
						// the endpoint stays down until the chain resumed
						go func() {
							for logs.count("resumed at block 10") == 0 {
								select {
								case <-logs.added:
								case <-ctx.Done():
									return
								}
							}
							down.Store(false)
						}()
					}
					if len(outcomes) == n {
						cancel()
					}
				}}, dialFake(t, srv), chain, sender)
			if err := o.Run(ctx); err != nil {
				t.Fatalf("Run: %v", err)
			}
			if got := strings.Join(outcomes, ", "); got != c.want {
				t.Fatalf("outcomes %q, want %q", got, c.want)
			}
			if p, r := logs.count("is paused by governance"), logs.count("resumed at block 10"); p != 1 || r != 1 {
				t.Fatalf("%d pause lines and %d resume lines, want one each", p, r)
			}
			for _, tr := range sender.truths {
				if tr.EvmBlock > 6 && tr.EvmBlock < 10 {
					t.Fatalf("the truth of block %d, which the pause skipped, was sent", tr.EvmBlock)
				}
			}
		})
	}
}

// forkBlock is block n of fork f as JSON (a child of block n − 1 of fork
// parent), with one legacy transaction paying wei per gas.
func forkBlock(n, wei, f, parent int) string {
	return fmt.Sprintf(`{"number":"0x%x","hash":"0x%032x%032x","parentHash":"0x%032x%032x","timestamp":"0x%x","baseFeePerGas":"0x1","transactions":[{"type":"0x0","gasPrice":"0x%x"}]}`,
		n, f, n, parent, n-1, 100+n, wei)
}

// TestOracleDeepReorg: the oracle reports blocks 3, 4 and 5 (one
// confirmation); then the EVM chain reorganises blocks 4 and 5, deeper than
// the confirmations, and the chain drops the rounds of 4 and 5. Reading
// block 6, whose parent is the new 5, the oracle logs one line naming
// blocks 4-5, counts one deep reorg, and sends neither truth again: 3, 4,
// 5 and 6 are sent once each.
func TestOracleDeepReorg(t *testing.T) {
	var mu sync.Mutex
	head := uint64(6)
	blocks := map[uint64]string{}
	for n := 3; n <= 6; n++ {
		blocks[uint64(n)] = forkBlock(n, 100+n, 0, 0)
	}
	srv := httptest.NewServer(fakeHandlerOf(func() (uint64, map[uint64]string) {
		mu.Lock()
		defer mu.Unlock()
		return head, blocks
	}))
	t.Cleanup(srv.Close)
	chain := &fakeChain{k: 1, dropped: map[uint64]int{}}
	reorg := func() {
		mu.Lock()
		defer mu.Unlock()
		next := map[uint64]string{3: blocks[3], 4: forkBlock(4, 200, 1, 0)}
		for n := 5; n <= 7; n++ {
			next[uint64(n)] = forkBlock(n, 200+n, 1, 1)
		}
		blocks, head = next, 7
		chain.mu.Lock()
		chain.dropped[4], chain.dropped[5] = 1, 1
		chain.mu.Unlock()
	}
	sender := &fakeSender{}
	logs := newLogLines()
	metrics := oracle.NewMetrics()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var outcomes []string
	o := oracle.New(oracle.Config{EvmChainID: 10, Confirmations: 1, StartBlock: 3, HasStart: true, Poll: 5 * time.Millisecond,
		BackoffMin: time.Millisecond, Logf: logs.logf, Metrics: metrics, OnReport: func(r oracle.Report) {
			outcomes = append(outcomes, fmt.Sprintf("%d %s", r.Truth.Window.First, r.Outcome))
			switch len(outcomes) {
			case 3:
				reorg()
			case 4:
				cancel()
			}
		}}, dialFake(t, srv), chain, sender)
	if err := o.Run(ctx); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if got := strings.Join(outcomes, ", "); got != "3 sent, 4 sent, 5 sent, 6 sent" {
		t.Fatalf("outcomes %q", got)
	}
	if len(sender.truths) != 4 {
		t.Fatalf("%d truths sent, want 4 (none again): %v", len(sender.truths), sender.truths)
	}
	if n := logs.count("reorganised blocks 4-5 (2 of the blocks this oracle reported, more than --confirmations 1 deep)"); n != 1 {
		t.Fatalf("%d deep reorg lines, want 1", n)
	}
	fams, err := metrics.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	var reorgs float64
	for _, f := range fams {
		if f.GetName() == "validatord_oracle_deep_reorgs_total" {
			reorgs = f.GetMetric()[0].GetCounter().GetValue()
		}
	}
	if reorgs != 1 {
		t.Fatalf("validatord_oracle_deep_reorgs_total = %v, want 1", reorgs)
	}
}
