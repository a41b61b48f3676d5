package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/scoringsubnet/validatord/client"
)

// TestStartHealsTheTxIndex: a node whose tx index lost entries (here all of
// them: its tx_index database is gone, what a kill between the block and
// its index writes does to the last heights) finds every committed tx
// again by /tx after `start`, which indexes the missing heights before it
// serves RPC; `reindex` on the stopped node then finds nothing missing and,
// with --all, writes a range again.
func TestStartHealsTheTxIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a CometBFT node")
	}
	home := filepath.Join(t.TempDir(), "home")
	node, p2p := freeAddr(t), freeAddr(t)
	cli(t, "init", "--home", home, "--chain-id", "reindex-1", "--rpc-laddr", node, "--p2p-laddr", p2p, "--timeout-commit", "100ms", "--registration-difficulty", "16")
	cli(t, "keys", "add", "alice", "--home", home)
	n := startNode(t, home)
	n.waitHeight(t, node, 1)
	res, code, errOut := cliTx(t, home, node, "register-miner", "--from", "alice")
	if code != 0 || res.Code != 0 {
		t.Fatalf("register: code %d %+v %s", code, res, errOut)
	}
	n.waitHeight(t, node, res.Height+2)
	if code := n.stop(t); code != 0 {
		t.Fatalf("stop: %d", code)
	}
	if err := os.RemoveAll(filepath.Join(home, "data", "tx_index.db")); err != nil {
		t.Fatal(err)
	}
	n = startNode(t, home)
	n.waitHeight(t, node, res.Height+3)
	c, err := client.Dial(node)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Tx(context.Background(), res.Hash)
	if err != nil || got.Height != res.Height || got.Code != 0 {
		t.Fatalf("/tx %s after the restart: %+v %v; want height %d", res.Hash, got, err, res.Height)
	}
	n.stop(t)
	// CometBFT's indexer runs behind block execution, so a stop can come
	// between the last block and its index writes (the case start heals):
	// the first reindex may find those last heights; a second finds none.
	var out struct{ From, To, Reindexed int64 }
	if err := json.Unmarshal([]byte(cli(t, "reindex", "--home", home)), &out); err != nil || out.Reindexed > 2 {
		t.Fatalf("reindex after a stop: %+v %v; want at most the last heights", out, err)
	}
	if err := json.Unmarshal([]byte(cli(t, "reindex", "--home", home)), &out); err != nil || out.Reindexed != 0 {
		t.Fatalf("reindex of a whole index: %+v %v", out, err)
	}
	if err := json.Unmarshal([]byte(cli(t, "reindex", "--home", home, "--all", "--from", "1", "--to", "3")), &out); err != nil || out.Reindexed != 3 {
		t.Fatalf("reindex --all 1..3: %+v %v", out, err)
	}
}
