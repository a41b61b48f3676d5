package main

import (
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	cfg "github.com/cometbft/cometbft/config"
	"github.com/cometbft/cometbft/p2p"
	rpchttp "github.com/cometbft/cometbft/rpc/client/http"

	"github.com/scoringsubnet/validatord/app/snapshot"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/node/appconfig"
)

// TestSnapshotRestoreBootstrap joins a running chain from a snapshot: a
// fresh home with the chain's genesis and [statesync] pointing at the
// running node is restored with `snapshot restore --bootstrap` (the app
// store from the snapshot, CometBFT's stores light-client verified), then
// started: it block-syncs from the snapshot height and has the running
// node's app hash at every later height; its history starts at the
// snapshot height. A second bootstrap of that home is refused.
func TestSnapshotRestoreBootstrap(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two CometBFT nodes")
	}
	dir := t.TempDir()
	home1, home2 := filepath.Join(dir, "home1"), filepath.Join(dir, "home2")
	rpc1, p2p1, rpc2, p2p2 := freeAddr(t), freeAddr(t), freeAddr(t), freeAddr(t)
	cli(t, "init", "--home", home1, "--chain-id", "join-1", "--rpc-laddr", rpc1, "--p2p-laddr", p2p1, "--timeout-commit", "100ms")
	const interval = 5
	if err := appconfig.Write(home1, appconfig.Config{KeepVersions: 1000, SnapshotInterval: interval, SnapshotKeepRecent: 100}); err != nil {
		t.Fatal(err)
	}
	editConfig(t, home1, func(c *cfg.Config) { c.P2P.AllowDuplicateIP, c.P2P.AddrBookStrict = true, false })
	n1 := startNode(t, home1)
	n1.waitHeight(t, rpc1, 2*interval+2)
	const h = 2 * interval
	snaps := snapshotDir(home1)
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := snapshot.LoadInfo(snaps, h); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no snapshot of height %d in %s", h, snaps)
		}
		time.Sleep(50 * time.Millisecond)
	}
	var st wire.StatusView
	queryJSON(t, rpc1, &st, "status", "--height", strconv.Itoa(h))
	rc, err := rpchttp.New(rpc1, "/websocket")
	if err != nil {
		t.Fatal(err)
	}
	th := int64(h)
	commit, err := rc.Commit(context.Background(), &th)
	if err != nil {
		t.Fatal(err)
	}
	nk, err := p2p.LoadNodeKey(filepath.Join(home1, "config", "node_key.json"))
	if err != nil {
		t.Fatal(err)
	}

	cli(t, "init", "--home", home2, "--chain-id", "join-1", "--rpc-laddr", rpc2, "--p2p-laddr", p2p2, "--timeout-commit", "100ms")
	gen, err := os.ReadFile(filepath.Join(home1, "config", "genesis.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home2, "config", "genesis.json"), gen, 0o600); err != nil {
		t.Fatal(err)
	}
	restore := []string{"snapshot", "restore", "--home", home2, "--from", snaps, "--height", strconv.Itoa(h), "--app-hash", st.AppHash, "--bootstrap"}
	code, _, errOut := runCmd(t, restore...)
	if code != 1 || !strings.Contains(errOut, "rpc_servers lists 0 server(s)") {
		t.Fatalf("bootstrap without [statesync]: code %d, %q", code, errOut)
	}
	trustHash := commit.SignedHeader.Hash()
	editConfig(t, home2, func(c *cfg.Config) {
		c.P2P.AllowDuplicateIP, c.P2P.AddrBookStrict = true, false
		c.P2P.PersistentPeers = string(nk.ID()) + "@" + strings.TrimPrefix(p2p1, "tcp://")
		c.StateSync.RPCServers = []string{rpc1, rpc1}
		c.StateSync.TrustHeight = int64(h)
		c.StateSync.TrustHash = strings.Repeat("00", len(trustHash))
	})
	// A trust hash the light client cannot match: refused, the app store
	// removed again (the home is as it was).
	code, _, errOut = runCmd(t, restore...)
	if code != 1 || !strings.Contains(errOut, "bootstrap CometBFT's stores at height 10") {
		t.Fatalf("bootstrap with a wrong trust hash: code %d, %q", code, lastLine(errOut))
	}
	t.Logf("wrong trust hash: %s", lastLine(errOut))
	if _, err := os.Stat(appDataDir(home2)); !os.IsNotExist(err) {
		t.Fatalf("app store left after a failed bootstrap: %v", err)
	}
	editConfig(t, home2, func(c *cfg.Config) { c.StateSync.TrustHash = hex.EncodeToString(trustHash) })
	var rv restoreView
	decodeJSON(t, cli(t, restore...), &rv)
	if !rv.Bootstrapped || rv.Height != h || rv.AppHash != st.AppHash {
		t.Fatalf("restore --bootstrap: %+v", rv)
	}
	code, _, errOut = runCmd(t, restore...)
	if code != 1 || !strings.Contains(errOut, "bootstrap only a home without a chain") {
		t.Fatalf("second bootstrap: code %d, %q", code, lastLine(errOut))
	}

	n2 := startNode(t, home2)
	var top wire.StatusView
	queryJSON(t, rpc1, &top, "status")
	n2.waitHeight(t, rpc2, top.Height+3)
	for x := int64(h); x <= top.Height+3; x++ {
		var a, b wire.StatusView
		queryJSON(t, rpc1, &a, "status", "--height", strconv.FormatInt(x, 10))
		queryJSON(t, rpc2, &b, "status", "--height", strconv.FormatInt(x, 10))
		if a.Height != x || a.Height != b.Height || a.AppHash != b.AppHash || a.ChainID == nil || b.ChainID == nil || *a.ChainID != *b.ChainID {
			t.Fatalf("height %d: node1 %+v, joined node %+v", x, a, b)
		}
	}
	code, _, errOut = runCmd(t, "query", "status", "--height", strconv.Itoa(h-1), "--node", rpc2)
	if code != 1 || !strings.Contains(errOut, "export --height") {
		t.Fatalf("joined node's history before the snapshot: code %d, %q", code, errOut)
	}

	// The same join online: [statesync] enable = true on a fresh home, and
	// CometBFT fetches a snapshot from node1 over p2p (ABCI OfferSnapshot,
	// ApplySnapshotChunk), then block-syncs.
	home3 := filepath.Join(dir, "home3")
	rpc3, p2p3 := freeAddr(t), freeAddr(t)
	cli(t, "init", "--home", home3, "--chain-id", "join-1", "--rpc-laddr", rpc3, "--p2p-laddr", p2p3, "--timeout-commit", "100ms")
	if err := os.WriteFile(filepath.Join(home3, "config", "genesis.json"), gen, 0o600); err != nil {
		t.Fatal(err)
	}
	editConfig(t, home3, func(c *cfg.Config) {
		c.P2P.AllowDuplicateIP, c.P2P.AddrBookStrict = true, false
		c.P2P.PersistentPeers = string(nk.ID()) + "@" + strings.TrimPrefix(p2p1, "tcp://")
		c.StateSync.Enable = true
		c.StateSync.RPCServers = []string{rpc1, rpc1}
		c.StateSync.TrustHeight = int64(h)
		c.StateSync.TrustHash = hex.EncodeToString(trustHash)
		c.StateSync.DiscoveryTime = 5 * time.Second
	})
	n3 := startNode(t, home3)
	queryJSON(t, rpc1, &top, "status")
	n3.waitHeight(t, rpc3, top.Height+3) // the restore, or blocks after it
	queryJSON(t, rpc1, &top, "status")
	n3.waitHeight(t, rpc3, top.Height+3) // blocks executed after the restore
	var first int64
	for x := top.Height + 3; x > 0; x-- {
		var a, b wire.StatusView
		queryJSON(t, rpc1, &a, "status", "--height", strconv.FormatInt(x, 10))
		code, out, _ := runCmd(t, "query", "status", "--height", strconv.FormatInt(x, 10), "--node", rpc3)
		if code != 0 {
			break // before the snapshot the node restored
		}
		decodeJSON(t, out, &b)
		if a.Height != x || b.Height != x || a.AppHash != b.AppHash {
			t.Fatalf("height %d: node1 %+v, node joined by state sync %+v", x, a, b)
		}
		first = x
	}
	if first < int64(h) || first%interval != 0 || first > top.Height || !strings.Contains(readLog(t, n3), "snapshot restored") {
		t.Fatalf("state sync: history from %d; log:\n%s", first, n3.tail())
	}
	t.Logf("joined by state sync at height %d, node1 at %d", first, top.Height)
}

func readLog(t *testing.T, n *runningNode) string {
	t.Helper()
	bz, err := os.ReadFile(n.log)
	if err != nil {
		t.Fatal(err)
	}
	return string(bz)
}

// editConfig rewrites a home's config.toml through f.
func editConfig(t *testing.T, home string, f func(*cfg.Config)) {
	t.Helper()
	c, err := loadConfig(home)
	if err != nil {
		t.Fatal(err)
	}
	f(c)
	if err := saveConfig(home, c); err != nil {
		t.Fatal(err)
	}
}

// lastLine is the last line of a command's stderr (CometBFT's light client
// logs before it).
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
