//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	rpchttp "github.com/cometbft/cometbft/rpc/client/http"
)

// network is a testnet made by `validatord testnet` and its running nodes.
type network struct {
	t       *testing.T
	dir     string
	homes   []string
	rpcs    []string
	clients []*rpchttp.HTTP
	nodes   []*proc
	ps      *procs
}

// newNetwork creates n validator homes in a temp dir with ports from port, and their RPC
// clients; nothing is started yet.
func newNetwork(t *testing.T, n, port int, timeoutCommit string) *network {
	t.Helper()
	dir := t.TempDir()
	args := []string{"testnet", "--v", fmt.Sprint(n), "--output", dir, "--starting-port", fmt.Sprint(port), "--timeout-commit", timeoutCommit}
	if _, err := run(t, time.Minute, nil, bin("validatord"), args...); err != nil {
		t.Fatal(err)
	}
	nw := &network{t: t, dir: dir, ps: newProcs(t), nodes: make([]*proc, n)}
	t.Cleanup(func() { keepLogs(t, dir, n) }) // before the temp dir goes
	for i := 0; i < n; i++ {
		nw.homes = append(nw.homes, filepath.Join(dir, fmt.Sprintf("node%d", i)))
		addr := fmt.Sprintf("tcp://127.0.0.1:%d", port+10*i+1) // testnet: node i's RPC is port+10i+1
		c, err := rpchttp.New(addr, "/websocket")
		if err != nil {
			t.Fatal(err)
		}
		nw.rpcs = append(nw.rpcs, addr)
		nw.clients = append(nw.clients, c)
	}
	return nw
}

// start starts node i (env e.g. VALIDATORD_CRASH_AT=...).
func (nw *network) start(i int, env ...string) *proc {
	return nw.startBinary(i, bin("validatord"), env...)
}

// startBinary starts node i from the validatord at path (a test build such as
// validatord-liar).
func (nw *network) startBinary(i int, path string, env ...string) *proc {
	nw.nodes[i] = nw.ps.start(nw.t, fmt.Sprintf("node%d", i), filepath.Join(nw.homes[i], "node.log"), env,
		path, "start", "--home", nw.homes[i])
	return nw.nodes[i]
}

// height is node i's last committed height (an error when it does not answer).
func (nw *network) height(i int) (int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	st, err := nw.clients[i].Status(ctx)
	if err != nil {
		return 0, err
	}
	return st.SyncInfo.LatestBlockHeight, nil
}

// waitHeight waits until node i has committed h, at most d.
func (nw *network) waitHeight(i int, h int64, d time.Duration) error {
	deadline := time.Now().Add(d)
	var last int64
	var lastErr error
	for time.Now().Before(deadline) {
		cur, err := nw.height(i)
		if err == nil && cur >= h {
			return nil
		}
		last, lastErr = cur, err
		if p := nw.nodes[i]; p != nil && !p.running() {
			return fmt.Errorf("node%d exited (code %d) at height %d waiting for %d", i, p.exitCode(), last, h)
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("node%d at height %d (%v), not %d after %s", i, last, lastErr, h, d)
}

// startAll starts every node and waits until each has committed height 2.
func (nw *network) startAll() {
	nw.t.Helper()
	for i := range nw.nodes {
		nw.start(i)
	}
	if err := nw.waitAll(2, 60*time.Second); err != nil {
		nw.t.Fatal(err)
	}
}

// waitAll waits until every node has committed h, at most d each.
func (nw *network) waitAll(h int64, d time.Duration) error {
	for i := range nw.nodes {
		if err := nw.waitHeight(i, h, d); err != nil {
			return err
		}
	}
	return nil
}

// maxHeight is the highest height any node reports.
func (nw *network) maxHeight() int64 {
	var m int64
	for i := range nw.clients {
		if h, err := nw.height(i); err == nil && h > m {
			m = h
		}
	}
	return m
}

// minHeight is the lowest height the nodes report: every node's block store has it (a replay
// after stopAll can go that far on each).
func (nw *network) minHeight() int64 {
	nw.t.Helper()
	var m int64 = -1
	for i := range nw.clients {
		h, err := nw.height(i)
		if err != nil {
			nw.t.Fatalf("node%d: %v", i, err)
		}
		if m < 0 || h < m {
			m = h
		}
	}
	return m
}

// stopAll stops every node gracefully (the stores must be released before a replay).
func (nw *network) stopAll() {
	for _, p := range nw.nodes {
		if p != nil {
			if err := p.stop(20 * time.Second); err != nil {
				nw.t.Errorf("stop %s: %v", p.name, err)
			}
		}
	}
}

// setChainParam sets app_state.chain.<name> to v (a number, or a list such as gas_chains) in
// every node's genesis.json (before any node starts: the nodes must share one genesis).
func (nw *network) setChainParam(name string, v any) {
	nw.t.Helper()
	nw.editAppState(func(st map[string]any) {
		chain, ok := st["chain"].(map[string]any)
		if !ok {
			nw.t.Fatal("genesis: no app_state.chain")
		}
		chain[name] = v
	})
}

// editAppState edits app_state in every node's genesis.json.
func (nw *network) editAppState(edit func(st map[string]any)) {
	nw.t.Helper()
	nw.editGenesis(func(doc map[string]any) { edit(doc["app_state"].(map[string]any)) })
}

// editGenesis edits every node's genesis.json (before any node starts: the nodes must share
// one genesis). The numbers it does not touch are kept as written (json.Number).
func (nw *network) editGenesis(edit func(doc map[string]any)) {
	nw.t.Helper()
	for _, home := range nw.homes {
		path := filepath.Join(home, "config", "genesis.json")
		bz, err := os.ReadFile(path)
		if err != nil {
			nw.t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(bz))
		dec.UseNumber()
		var doc map[string]any
		if err := dec.Decode(&doc); err != nil {
			nw.t.Fatalf("%s: %v", path, err)
		}
		edit(doc)
		out, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			nw.t.Fatal(err)
		}
		if err := os.WriteFile(path, out, 0o644); err != nil {
			nw.t.Fatal(err)
		}
	}
}

// keepLogs copies the logs of a failed test to $E2E_BIN_DIR/e2e-logs/<test>/ (the temp dir
// that holds them is removed when the test ends): a node that exits during a run must leave
// its reason behind. Node i's node.log becomes nodeI.log, its sidecars' logs (oracle.log)
// nodeI-oracle.log, and logs at the top of the dir (ganache.log) keep their names.
func keepLogs(t *testing.T, dir string, n int) {
	if !t.Failed() {
		return
	}
	out := filepath.Join(binDir, "e2e-logs", strings.ReplaceAll(t.Name(), "/", "_"))
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Logf("keeping logs: %v", err)
		return
	}
	keep := func(from, to string) {
		bz, err := os.ReadFile(from)
		if err != nil {
			return
		}
		if err := os.WriteFile(filepath.Join(out, to), bz, 0o644); err == nil {
			t.Logf("%s kept in %s", from, filepath.Join(out, to))
		}
	}
	for i := 0; i < n; i++ {
		keep(filepath.Join(dir, fmt.Sprintf("node%d", i), "node.log"), fmt.Sprintf("node%d.log", i))
		keep(filepath.Join(dir, fmt.Sprintf("node%d", i), "oracle.log"), fmt.Sprintf("node%d-oracle.log", i))
		keep(filepath.Join(dir, fmt.Sprintf("node%d", i), "daemon.log"), fmt.Sprintf("node%d-daemon.log", i))
	}
	top, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	for _, f := range top {
		keep(f, filepath.Base(f))
	}
}
