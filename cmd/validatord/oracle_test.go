package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/oracle/oracletest"
)

// syncBuffer is a bytes.Buffer safe to write from the oracle's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// setGasWindows makes the home's genesis follow EVM chain id with windows
// of k blocks (numbers keep their text).
func setGasWindows(t *testing.T, home string, id, k uint64) {
	t.Helper()
	path := filepath.Join(home, "config", "genesis.json")
	bz, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(bz))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	chain := doc["app_state"].(map[string]any)["chain"].(map[string]any)
	chain["gas_chains"] = []uint64{id}
	chain["gas_windows"] = []map[string]uint64{{"evm_chain_id": id, "window_blocks": k}}
	if bz, err = json.MarshalIndent(doc, "", "  "); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bz, 0o600); err != nil {
		t.Fatal(err)
	}
}

// oracleNode inits a home (with the extra keys) whose gas track follows
// the simulated EVM chain with windows of k blocks, starts `validatord
// start` on it and waits for its first block.
func oracleNode(t *testing.T, chainID string, k uint64, keys ...string) (home, node string) {
	t.Helper()
	home = filepath.Join(t.TempDir(), "home")
	node, p2p := freeAddr(t), freeAddr(t)
	cli(t, "init", "--home", home, "--chain-id", chainID, "--rpc-laddr", node, "--p2p-laddr", p2p, "--timeout-commit", "100ms")
	for _, key := range keys {
		cli(t, "keys", "add", key, "--home", home)
	}
	setGasWindows(t, home, oracletest.ChainID, k)
	startNode(t, home).waitHeight(t, node, 1)
	return home, node
}

// TestOracleCommand: `validatord start` and `validatord oracle gas` beside
// it, against go-ethereum's simulated chain with windows of 2 blocks: the
// gas track's truths arrive with no hand-typed transaction, equal to the
// test's own computation, one log line per window.
func TestOracleCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a CometBFT node and a simulated EVM")
	}
	home, node := oracleNode(t, "oracle-1", 2)
	s := oracletest.NewSim(t)
	for i := range 3 {
		s.Mine(i)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, Env{Stdin: strings.NewReader(""), Stdout: &stderr, Stderr: &stderr}, []string{"oracle", "gas",
			"--evm-rpc", s.URL, "--from", "validator", "--home", home, "--node", node, "--confirmations", "1", "--start-block", "4", "--poll", "50ms"})
	}()
	for i := 3; i < 12; i++ {
		s.Mine(i)
		time.Sleep(50 * time.Millisecond)
	}
	c, err := client.Dial(node)
	if err != nil {
		t.Fatal(err)
	}
	const last = 8 // windows 4, 6, 8 (blocks 4-9); the head, 12, leaves window 10 1 deep
	deadline := time.Now().Add(30 * time.Second)
	for {
		gc, err := c.GasChain(ctx, oracletest.ChainID)
		// the chain may close the window before the oracle's wait for its
		// block returns and logs it
		if err == nil && gc.LastClosedBlock != nil && *gc.LastClosedBlock >= last && strings.Contains(stderr.String(), "window 8 (blocks 8-9)") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("window %d not closed: %+v %v; oracle log:\n%s", last, gc, err, stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("oracle gas exited with %d:\n%s", code, stderr.String())
	}
	for w := uint64(4); w <= last; w += 2 {
		r, err := c.Truth(context.Background(), oracletest.ChainID, w)
		if err != nil || r.MinPrice == nil {
			t.Fatalf("window %d: %+v %v", w, r, err)
		}
		price, ts := s.WindowWant(w, 2)
		if !decimal.RequireFromString(*r.MinPrice).Equal(price) || uint64(*r.Timestamp) != ts || len(r.Votes) != 1 {
			t.Fatalf("window %d: chain %s at %d (%d votes), test %s at %d", w, *r.MinPrice, *r.Timestamp, len(r.Votes), price, ts)
		}
		if !strings.Contains(stderr.String(), "window "+decimal.NewFromInt(int64(w)).String()+" (blocks ") {
			t.Fatalf("no log line for window %d:\n%s", w, stderr.String())
		}
	}
	t.Logf("oracle log:\n%s", stderr.String())
	if _, err := c.Truth(context.Background(), oracletest.ChainID, 3); err == nil {
		t.Fatal("block 3 has a truth: windows of 2 are named by even blocks")
	}
}

// TestOracleCommandRefusals: `oracle gas` refuses at start, before any
// window, a --from key that is no validator's report key (a miner's), and
// an --evm-chain-id the endpoint does not serve, naming the chain ids the
// gas track follows.
func TestOracleCommandRefusals(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a CometBFT node and a simulated EVM")
	}
	home, node := oracleNode(t, "oracle-2", 1, "miner")
	s := oracletest.NewSim(t)
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"a miner's key", []string{"--from", "miner"}, []string{"--from miner: oracle cannot report: not a validator's report key"}},
		{"another EVM chain", []string{"--from", "validator", "--evm-chain-id", "5"},
			[]string{"the EVM endpoint serves chain 1337, not EVM chain 5", "follows EVM chain ids 1337 (chain.gas_chains)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			var out syncBuffer
			args := append([]string{"oracle", "gas", "--evm-rpc", s.URL, "--home", home, "--node", node}, c.args...)
			if code := run(ctx, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out}, args); code == 0 || ctx.Err() != nil {
				t.Fatalf("oracle gas: code %d (context: %v); want a refusal at start:\n%s", code, ctx.Err(), out.String())
			}
			for _, w := range c.want {
				if !strings.Contains(out.String(), w) {
					t.Fatalf("no %q in:\n%s", w, out.String())
				}
			}
			if strings.Contains(out.String(), "block ") {
				t.Fatalf("a window was read before the refusal:\n%s", out.String())
			}
		})
	}
}
