package main

import (
	"context"
	"path/filepath"
	"time"

	"github.com/scoringsubnet/validatord/client"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
)

// TestStartAndReplayRefuseAChangedGenesis: once a chain ran, CometBFT runs
// from the genesis in its state database and ignores genesis.json; an edit
// to it (the window cap, 0.15 → 0.2) is refused by start and by replay
// before anything runs, with the changed field named, and the original file
// starts again. The chain's genesis hash is in the status query.
func TestStartAndReplayRefuseAChangedGenesis(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a CometBFT node")
	}
	home := t.TempDir()
	rpc := freeAddr(t)
	cli(t, "init", "--home", home, "--rpc-laddr", rpc, "--p2p-laddr", freeAddr(t), "--timeout-commit", "50ms")
	n := startNode(t, home)
	n.waitHeight(t, rpc, 2)
	var st wire.StatusView
	queryJSON(t, rpc, &st, "status")
	if st.GenesisHash == nil || len(*st.GenesisHash) != 64 {
		t.Fatalf("status %+v: want the genesis hash", st)
	}
	if code := n.stop(t); code != 0 {
		t.Fatalf("node exited %d", code)
	}

	gen := filepath.Join(home, "config", "genesis.json")
	editJSON(t, gen, func(doc map[string]any) {
		w := appState(doc)["window"].(map[string]any)
		w[windowCapKey] = "0.2"
	})
	want := "app_state.window." + windowCapKey + ": 0.15 → 0.2"
	errOut := startRefused(t, home, rpc)
	if strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, want) || !strings.Contains(errOut, "changed since") {
		t.Fatalf("start with an edited genesis: stderr %q; want one line naming %q", errOut, want)
	}
	code, out, errOut := runCmd(t, "replay", "--home", home)
	if code != 1 || out != "" || !strings.Contains(errOut, want) {
		t.Fatalf("replay with an edited genesis: code %d stdout %q stderr %q; want %q", code, out, errOut, want)
	}

	editJSON(t, gen, func(doc map[string]any) {
		appState(doc)["window"].(map[string]any)[windowCapKey] = "0.15"
	})
	n = startNode(t, home)
	n.waitHeight(t, rpc, 4)
	var again wire.StatusView
	queryJSON(t, rpc, &again, "status")
	if again.GenesisHash == nil || *again.GenesisHash != *st.GenesisHash {
		t.Fatalf("genesis hash %v after a restart, was %s", again.GenesisHash, *st.GenesisHash)
	}
}

// windowCapKey is the genesis key of the window cap.
const windowCapKey = "cap"

// startRefused runs `start --home home`, which must exit non-zero before
// its RPC at rpc answers, and returns what it printed; a node that serves
// instead fails the test (and is stopped).
func startRefused(t *testing.T, home, rpc string) string {
	t.Helper()
	n := startNode(t, home)
	c, err := client.Dial(rpc)
	if err != nil {
		t.Fatal(err)
	}
	for {
		select {
		case code := <-n.done:
			n.done = nil
			if code == 0 {
				t.Fatalf("start exited 0; log %s", n.tail())
			}
			return n.tail()
		default:
		}
		if _, err := c.Status(context.Background()); err == nil {
			t.Fatalf("the node runs with an edited genesis.json; log %s", n.tail())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
