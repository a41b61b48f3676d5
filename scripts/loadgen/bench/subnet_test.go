package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
)

// TestSubnetTable: a subnet level's validatord run beside the kvstore run that matched it,
// CPU in ms a unit per node and their ratio; its runs stay out of the main table.
func TestSubnetTable(t *testing.T) {
	v := Summary{App: "validatord", Mode: "subnet", Level: "subnet:64", TaskEvery: 4, StartUTC: "2026-11-28T08:00:00Z",
		ScoredPerS: 30.5, Scored: 100, TxsPerScored: 2.1, CommittedByKind: map[string]int{"commit": 100, "reveal": 100, "report": 8, "post_task": 2},
		OfferedTPS: 64, OfferedBytesPerS: 2048, NodeCPUPerScoredS: []float64{0.002, 0.0015}, MachineBusy: 0.5}
	k := Summary{App: "kvstore", Mode: "rate", Rate: 64, Level: "subnet:64", StartUTC: "2026-11-28T08:02:00Z",
		NodeCPUPerTxS: []float64{0.0001, 0.0001}, MachineBusy: 0.25}
	got := subnetTable([]Summary{k, v})
	want := subnetHead + "| 64 miners, tasks every 4 blocks | 30.5 | 2.10 (1.00 / 1.00 / 0.08 / 0.02) | 64, 2.0 | 2.000 / 1.500 | 0.100 / 0.100 | 17.5 | 50% / 25% |\n"
	if got != want {
		t.Errorf("subnet table:\n%s\nwant:\n%s", got, want)
	}
	var b strings.Builder
	plain := Summary{App: "validatord", Mode: "rate", Rate: 500, CommittedTPS: 490}
	tables := func(runs ...Summary) string {
		b.Reset()
		dir := t.TempDir()
		for i, r := range runs {
			writeRun(t, dir, i, r)
		}
		if err := runTable(&b, []string{dir}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	out := tables(plain, v, k)
	if !strings.HasPrefix(out, tableHead) || !strings.Contains(out, "\n\n"+subnetHead) || strings.Count(out, "| 500 tx/s offered") != 1 || strings.Contains(out, "in flight") {
		t.Errorf("both tables:\n%s", out)
	}
	if out := tables(v); !strings.HasPrefix(out, subnetHead) {
		t.Errorf("subnet runs only:\n%s", out)
	}
}

// TestNodeFigures: each node's CPU over the window, per committed tx and per scored submission.
func TestNodeFigures(t *testing.T) {
	var s Summary
	nodeFigures(&s, []time.Duration{time.Second, 2 * time.Second}, []time.Duration{3 * time.Second, 3 * time.Second}, 100, 50)
	if len(s.NodeCPUS) != 2 || s.NodeCPUS[0] != 2 || s.NodeCPUS[1] != 1 || s.NodeCPUPerTxS[0] != 0.02 || s.NodeCPUPerScoredS[1] != 0.02 {
		t.Errorf("figures %+v", s)
	}
	var none Summary
	nodeFigures(&none, nil, []time.Duration{time.Second}, 100, 50)
	if none.NodeCPUS != nil {
		t.Errorf("a node not read: %+v", none)
	}
}

// TestProcStatCPU: utime + stime in ticks of 1/100 s, counted from the last ')' (a command
// name may hold spaces and parentheses).
func TestProcStatCPU(t *testing.T) {
	line := "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 75 0 0 20 0 12 0 100 0 0"
	if d, ok := procStatCPU(line); !ok || d != 3250*time.Millisecond {
		t.Errorf("procStatCPU = %v %v, want 3.25s", d, ok)
	}
	if _, ok := procStatCPU("4242 (x) S 1 2"); ok {
		t.Error("a short line read")
	}
}

// TestMatchSubnet: kvstore offers the subnet run's tx/s and mean transaction size.
func TestMatchSubnet(t *testing.T) {
	dir := t.TempDir()
	path := writeRun(t, dir, 0, Summary{App: "validatord", Mode: "subnet", Level: "subnet:256", OfferedTPS: 250, OfferedBytesPerS: 100_000})
	o, err := matchSubnet(options{match: path})
	if err != nil || o.rate != 250 || o.kvBytes != 400 || o.level != "subnet:256" {
		t.Fatalf("match: %+v %v", o, err)
	}
	path = writeRun(t, dir, 1, Summary{App: "validatord", Mode: "rate", Rate: 500, OfferedTPS: 500, OfferedBytesPerS: 1000})
	if _, err := matchSubnet(options{match: path}); err == nil {
		t.Fatal("a rate run matched")
	}
}

// TestParseSubnet: --subnet and --match are modes of their own, for their app.
func TestParseSubnet(t *testing.T) {
	if o, err := parse([]string{"--testnet", "x", "--subnet", "64", "--pids", "12,13"}); err != nil || o.subnet != 64 || len(o.pids) != 2 {
		t.Errorf("--subnet: %+v %v", o, err)
	}
	for _, args := range [][]string{
		{"--testnet", "x", "--subnet", "64", "--rate", "5"},
		{"--testnet", "x", "--app", "kvstore", "--subnet", "64"},
		{"--testnet", "x", "--match", "f.json"},
		{"--testnet", "x", "--rate", "5", "--pids", "a"},
		{"--testnet", "x", "--app", "kvstore", "--rate", "5", "--kv-bytes", "10"},
	} {
		if _, err := parse(args); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}

// writeRun writes r as run i's JSON in dir and returns its path.
func writeRun(t *testing.T, dir string, i int, r Summary) string {
	t.Helper()
	bz, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, fmt.Sprintf("run%d.json", i))
	if err := os.WriteFile(path, bz, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestAgain: a message refused for its nonce, or not delivered, is sent again, maxTries times at
// most; a refusal of its own is final.
func TestAgain(t *testing.T) {
	if !again(0, wire.CodeNonceFuture) || !again(2, wire.CodeNonceUsed) || !again(0, 0) {
		t.Error("a nonce refusal or a failed broadcast not sent again")
	}
	if again(maxTries, wire.CodeNonceFuture) || again(0, wire.CodeRevealWindow) {
		t.Error("sent again past maxTries, or after a refusal of its own")
	}
}
