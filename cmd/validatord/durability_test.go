package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
)

// TestStartReplaysBlocksTheAppLost: what the pipelined durability (app.toml
// [state] durability = "pipelined"; the node here runs with it) relies on. A power loss
// can take from the disk the app's writes of the last committed block
// (its sync runs while the next block executes); here the node's app
// directory goes back to a copy several blocks old, one of them holding a
// tx. `start` must find the app behind CometBFT's block store, replay the
// missing blocks through the app, reach the app hash it had before, and go
// on making blocks.
func TestStartReplaysBlocksTheAppLost(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a CometBFT node")
	}
	home := filepath.Join(t.TempDir(), "home")
	node, p2p := freeAddr(t), freeAddr(t)
	cli(t, "init", "--home", home, "--chain-id", "durable-1", "--rpc-laddr", node, "--p2p-laddr", p2p, "--timeout-commit", "100ms", "--registration-difficulty", "16")
	cli(t, "keys", "add", "alice", "--home", home)
	toml, err := os.ReadFile(filepath.Join(home, "config", "app.toml"))
	if err != nil || !strings.Contains(string(toml), `durability = "block"`) {
		t.Fatalf("app.toml without the default durability: %v", err)
	}
	if err := os.WriteFile(filepath.Join(home, "config", "app.toml"), []byte(strings.Replace(string(toml), `durability = "block"`, `durability = "pipelined"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	n := startNode(t, home)
	n.waitHeight(t, node, 3)
	if code := n.stop(t); code != 0 {
		t.Fatalf("stop: %d", code)
	}
	lost := filepath.Join(t.TempDir(), "app-at-stop")
	if out, err := exec.Command("cp", "-a", appDataDir(home), lost).CombinedOutput(); err != nil {
		t.Fatalf("copy the app state: %v %s", err, out)
	}
	n = startNode(t, home)
	n.waitHeight(t, node, 4)
	res, code, errOut := cliTx(t, home, node, "register-miner", "--from", "alice")
	if code != 0 || res.Code != 0 {
		t.Fatalf("register: code %d %+v %s", code, res, errOut)
	}
	n.waitHeight(t, node, res.Height+2)
	c, err := client.Dial(node)
	if err != nil {
		t.Fatal(err)
	}
	before, err := c.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if code := n.stop(t); code != 0 {
		t.Fatalf("stop: %d", code)
	}
	if err := os.RemoveAll(appDataDir(home)); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(lost, appDataDir(home)); err != nil {
		t.Fatal(err)
	}
	n = startNode(t, home)
	n.waitHeight(t, node, before.Height+2)
	c, err = client.Dial(node) // a new connection: the old one may still reach the stopped node's handler
	if err != nil {
		t.Fatal(err)
	}
	bz, err := c.QueryAt(context.Background(), "status", before.Height)
	if err != nil {
		t.Fatalf("status at height %d: %v; log:\n%s", before.Height, err, n.tail())
	}
	var again wire.StatusView
	if err := json.Unmarshal(bz, &again); err != nil {
		t.Fatal(err)
	}
	if again.Height != before.Height || again.AppHash != before.AppHash {
		t.Fatalf("height %d after the replay: app hash %s, before the loss %s", before.Height, again.AppHash, before.AppHash)
	}
	if got, err := c.Tx(context.Background(), res.Hash); err != nil || got.Height != res.Height || got.Code != 0 {
		t.Fatalf("the replayed block's tx: %+v %v", got, err)
	}
}
