package bench

import (
	"github.com/scoringsubnet/validatord/app/wire"
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	vals := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, c := range []struct{ p, want float64 }{{50, 5}, {99, 10}, {100, 10}, {10, 1}, {1, 1}, {91, 10}, {90, 9}} {
		if got := percentile(vals, c.p); got != c.want {
			t.Errorf("p%v = %v, want %v", c.p, got, c.want)
		}
	}
	if got := percentile(nil, 50); got != 0 {
		t.Errorf("empty: %v", got)
	}
	if got := percentile([]float64{7}, 99); got != 7 {
		t.Errorf("one value: %v", got)
	}
}

func TestSchedule(t *testing.T) {
	start := time.Unix(1000, 0)
	if got := schedule(start, 500, 0); !got.Equal(start) {
		t.Errorf("first: %v", got)
	}
	if got := schedule(start, 500, 500); !got.Equal(start.Add(time.Second)) {
		t.Errorf("500th at 500/s: %v", got.Sub(start))
	}
	if got := schedule(start, 750, 3); got.Sub(start) != 4*time.Millisecond {
		t.Errorf("3rd at 750/s: %v", got.Sub(start))
	}
}

func TestSummarize(t *testing.T) {
	start := time.Unix(1000, 0)
	end := start.Add(10 * time.Second)
	var lat []time.Duration
	for i := 1; i <= 100; i++ {
		lat = append(lat, time.Duration(i)*10*time.Millisecond)
	}
	blocks := []blockSeen{
		{height: 5, at: start.Add(-time.Second), ours: 7}, // before the window
		{height: 6, at: start.Add(time.Second), ours: 40},
		{height: 7, at: start.Add(3 * time.Second), ours: 40},
		{height: 8, at: start.Add(5 * time.Second), ours: 20},
		{height: 9, at: end, ours: 9}, // after it (the window is half-open)
	}
	var s Summary
	summarize(&s, lat, blocks, start, end)
	if s.Committed != 100 || s.P50S != 0.5 || s.P99S != 0.99 || s.MaxS != 1 || s.MeanS != 0.505 {
		t.Errorf("latency: %+v", s)
	}
	if s.CommittedInWindow != 100 || s.CommittedTPS != 10 || s.Blocks != 3 || s.BlockIntervalS != 2 || s.FirstH != 6 || s.LastH != 8 {
		t.Errorf("window: %+v", s)
	}
	if s.TxsPerBlock != 33.3 {
		t.Errorf("txs per block %v", s.TxsPerBlock)
	}
}

func TestKVTx(t *testing.T) {
	src := newKVSource(3, kvTxSize, 7)
	seen := map[string]bool{}
	for i := 0; i < 100; i++ {
		tx, node, _, err := src.next()
		if err != nil {
			t.Fatal(err)
		}
		if len(tx) != kvTxSize {
			t.Fatalf("len %d", len(tx))
		}
		if node != i%3 {
			t.Fatalf("node %d for tx %d", node, i)
		}
		eq := 0
		for _, c := range tx {
			if c == '=' {
				eq++
			}
		}
		if eq != 1 || seen[string(tx)] {
			t.Fatalf("tx %q", tx)
		}
		seen[string(tx)] = true
	}
}

// TestTable: one row per level and pair of runs, rate levels first. Runs of several passes pair
// up in the order they started (not the order given), and a level with two or more pairs gets a
// row of medians with the ratios' range.
func TestTable(t *testing.T) {
	run := func(app, start string, tps, p50 float64) Summary {
		return Summary{App: app, Mode: "in_flight", InFlight: 8, CommittedTPS: tps, P50S: p50, P99S: 1, StartUTC: start}
	}
	for _, c := range []struct {
		name string
		runs []Summary
		rows string // the table below its head
	}{{
		name: "levels",
		runs: []Summary{
			{App: "kvstore", Mode: "in_flight", InFlight: 8, CommittedTPS: 1500, P50S: 0.5, P99S: 1, MachineBusy: 0.983},
			{App: "validatord", Mode: "in_flight", InFlight: 8, CommittedTPS: 900, P50S: 8.9, P99S: 31.25, CheckTxFailed: map[string]int{"8": 3, "7": 2}, NeverCommitted: 4, MachineBusy: 0.97},
			{App: "validatord", Mode: "rate", Rate: 750, CommittedTPS: 736, P50S: 0.67, P99S: 1.41},
			{App: "kvstore", Mode: "rate", Rate: 750, CommittedTPS: 732, P50S: 0.47, P99S: 0.9},
			{App: "validatord", Mode: "rate", Rate: 500, CommittedTPS: 493},
		},
		rows: "| 500 tx/s offered | 493 | – | – | 0.00 / 0.00 s | – | 0 / 0 | – / – |\n" +
			"| 750 tx/s offered | 736 | 732 | 1.01 | 0.67 / 1.41 s | 0.47 / 0.90 s | 0 / 0 | – / – |\n" +
			"| 8 in flight | 900 | 1500 | 0.60 | 8.90 / 31.25 s | 0.50 / 1.00 s | 5 / 4 | 97% / 98% |\n",
	}, {
		name: "passes",
		runs: []Summary{
			run("kvstore", "2026-11-24T04:10:00Z", 1000, 0.7), run("validatord", "2026-11-24T04:09:00Z", 900, 0.8),
			run("validatord", "2026-11-24T04:00:00Z", 500, 0.9), run("kvstore", "2026-11-24T04:01:00Z", 1000, 0.6),
			run("validatord", "2026-11-24T04:20:00Z", 800, 1.0), run("kvstore", "2026-11-24T04:21:00Z", 1600, 0.8),
		},
		rows: "| 8 in flight | 500 | 1000 | 0.50 | 0.90 / 1.00 s | 0.60 / 1.00 s | 0 / 0 | – / – |\n" +
			"| 8 in flight | 900 | 1000 | 0.90 | 0.80 / 1.00 s | 0.70 / 1.00 s | 0 / 0 | – / – |\n" +
			"| 8 in flight | 800 | 1600 | 0.50 | 1.00 / 1.00 s | 0.80 / 1.00 s | 0 / 0 | – / – |\n" +
			"| 8 in flight, median of 3 | 800 | 1000 | 0.50 (0.50 – 0.90) | p50 0.90 s | p50 0.70 s | | |\n",
	}} {
		want := "| load | validatord tx/s | kvstore tx/s | ratio | p50 / p99 commit latency, validatord | kvstore | validatord CheckTx refused / never committed | machine busy, validatord / kvstore |\n" +
			"|---|---|---|---|---|---|---|---|\n" + c.rows
		if got := table(c.runs); got != want {
			t.Errorf("%s: table:\n%s\nwant:\n%s", c.name, got, want)
		}
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median of 4 = %g, want 2.5", m)
	}
}

func TestRewind(t *testing.T) {
	m := &benchMiner{nonce: 10}
	m.rewind.Store(noRewind)
	m.refused(9, 8, wire.EncodeNextNonce(7)) // the node's next nonce wins
	m.refused(8, 0, nil)                     // a broadcast error: this tx's own nonce
	if got := m.rewind.Load(); got != 7 {
		t.Fatalf("rewind %d, want 7", got)
	}
	m.refused(3, 7, wire.EncodeNextNonce(12)) // past the local count: ignored
	if got := m.rewind.Load(); got != 7 {
		t.Fatalf("rewind %d, want 7", got)
	}
	if !m.takeRewind() || m.nonce != 7 || m.takeRewind() {
		t.Fatalf("take: nonce %d", m.nonce)
	}
	if n, ok := wire.DecodeNextNonce(wire.EncodeNextNonce(17)); !ok || n != 17 {
		t.Fatalf("parse %d %v", n, ok)
	}
}
