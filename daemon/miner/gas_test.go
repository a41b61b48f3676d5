package miner

import (
	"slices"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/metricsdoc"
)

// TestDueWindows: the windows a gas poll predicts.
func TestDueWindows(t *testing.T) {
	for _, tc := range []struct {
		name                       string
		head, last, k, lead, ahead uint64
		done                       []uint64
		want                       []uint64
	}{
		{"k=1: lead above the head, up to ahead past the last closed", 100, 97, 1, 2, 8, nil, []uint64{102, 103, 104, 105}},
		{"done windows are skipped", 100, 97, 1, 2, 8, []uint64{103}, []uint64{102, 104, 105}},
		{"the head far behind the closed block", 10, 97, 1, 2, 3, nil, []uint64{98, 99, 100}},
		{"too far ahead: nothing", 120, 97, 1, 2, 8, nil, nil},
		{"k=4: aligned first blocks", 101, 95, 4, 2, 16, nil, []uint64{104, 108}},
		{"k=0 is 1", 100, 99, 0, 1, 3, nil, []uint64{101, 102}},
	} {
		done := map[uint64]bool{}
		for _, b := range tc.done {
			done[b] = true
		}
		if got := dueWindows(tc.head, tc.last, tc.k, tc.lead, tc.ahead, done); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := dueWindows(0, 0, 1, 0, 10_000, nil); len(got) != 256 {
		t.Errorf("a poll predicts %d windows, want at most a batch (256)", len(got))
	}
}

// TestParsePrices: one price for every block or one per block, each a
// positive decimal, written canonically.
func TestParsePrices(t *testing.T) {
	got, err := parsePrices([]byte("1.5\n"), 3)
	if err != nil || len(got) != 3 || got[2] != "1.500000000000000000" {
		t.Errorf("one price: %v, %v", got, err)
	}
	got, err = parsePrices([]byte(" 1\n\n2\n3 \n"), 3)
	if err != nil || got[1] != "2.000000000000000000" {
		t.Errorf("one a block: %v, %v", got, err)
	}
	for in, want := range map[string]string{"1\n2\n": "2 price lines for 3 blocks", "0\n": "must be positive", "x\n": "price \"x\"", "": "0 price lines"} {
		if _, err := parsePrices([]byte(in), 3); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}

// TestMetricsDocumented: docs/metrics.md has a row for every series of the
// daemon and none it does not serve.
func TestMetricsDocumented(t *testing.T) {
	m := NewMetrics()
	m.score.WithLabelValues("gas").Set(0.5) // the score gauges exist once the uid has a score
	metricsdoc.Check(t, m.reg, "../../docs/metrics.md", "validatord_miner_daemon_")
}

// TestSummarize: runs of consecutive EVM blocks of one chain shorten to a
// range in a log line; tasks and lone blocks stay as they are.
func TestSummarize(t *testing.T) {
	g := func(c, b uint64) client.Target { return client.Target{Gas: true, EVMChainID: c, EVMBlock: b} }
	got := summarize([]client.Target{{TaskID: 4}, g(1, 10), g(1, 11), g(1, 12), g(2, 13), {TaskID: 5}, g(1, 20)})
	if want := "task 4, evm chain 1 blocks 10-12, evm chain 2 block 13, task 5, evm chain 1 block 20"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
