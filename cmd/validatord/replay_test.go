package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/internal/audit"
	"github.com/scoringsubnet/validatord/node/appconfig"
)

// TestReplayAndExportOfARealNode runs a real node, stops it, then replays and exports it.
func TestReplayAndExportOfARealNode(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a CometBFT node")
	}
	home := t.TempDir()
	rpc := freeAddr(t)
	cli(t, "init", "--home", home, "--rpc-laddr", rpc, "--p2p-laddr", freeAddr(t), "--timeout-commit", "50ms", "--registration-difficulty", "16")
	cli(t, "keys", "add", "miner", "--home", home)
	n := startNode(t, home)
	n.waitHeight(t, rpc, 2)
	uid := mustTx(t, home, rpc, "miner_registered", "uid", "register-miner", "--from", "miner")

	code, _, errOut := runCmd(t, "replay", "--home", home)
	if code != 1 || !strings.Contains(errOut, "stop the node") {
		t.Fatalf("replay of a running node: code %d, stderr %q; want 1 and a request to stop the node", code, errOut)
	}
	n.waitHeight(t, rpc, 12)
	if code := n.stop(t); code != 0 {
		t.Fatalf("node exited %d", code)
	}

	var sum audit.Summary
	mustJSON(t, cli(t, "replay", "--home", home), &sum)
	if sum.FromHeight != 1 || sum.ToHeight < 12 || sum.HeightsChecked != sum.ToHeight || sum.TxsReexecuted != 1 {
		t.Fatalf("summary %+v: want heights 1..>=12 all checked and 1 tx", sum)
	}
	if !strings.HasPrefix(sum.LastCheckedBy, "state store") || len(sum.ScoreDigest) != 64 || string(sum.LatestEpoch) == "null" {
		t.Fatalf("summary %+v: want the last height checked against the state store, a digest and an epoch", sum)
	}

	var checked audit.Summary
	mustJSON(t, cli(t, "replay", "--home", home, "--check-creates"), &checked)
	if !store.VerifyCreates(true) { // TestMain turned the checks on; replay must leave them as it found them
		t.Fatal("replay --check-creates left the checks of Create's claims off")
	}
	if sum.CreatesChecked || !checked.CreatesChecked || checked.AppHash != sum.AppHash || checked.HeightsChecked != sum.HeightsChecked {
		t.Fatalf("replay --check-creates: %+v, without: %+v; want the same heights and hash, creates checked only with the flag", checked, sum)
	}

	var early audit.Summary
	mustJSON(t, cli(t, "replay", "--home", home, "--to", "5"), &early)
	if early.ToHeight != 5 || early.HeightsChecked != 5 || early.LastCheckedBy != "header of block 6" {
		t.Fatalf("replay --to 5: %+v", early)
	}

	last := cli(t, "export", "--home", home)
	if again := cli(t, "export", "--home", home); again != last {
		t.Fatal("two exports of the same state differ")
	}
	var doc exportDoc
	mustJSON(t, last, &doc)
	if doc.Height != sum.ToHeight || doc.AppHash != sum.AppHash {
		t.Fatalf("export at %d %s, replay at %d %s", doc.Height, doc.AppHash, sum.ToHeight, sum.AppHash)
	}
	if !doc.has("miner", "miner/"+uid) {
		t.Fatalf("export lacks miner/%s: %s", uid, last)
	}

	mustJSON(t, cli(t, "export", "--home", home, "--height", "5"), &doc)
	if doc.Height != 5 || doc.AppHash != early.AppHash {
		t.Fatalf("export --height 5 at %d %s, replay --to 5 %s", doc.Height, doc.AppHash, early.AppHash)
	}
	// Height 5 was read from the store's own version of it; with keep_versions 1 it is
	// no longer kept, and export rebuilds it by replay: the same state.
	nc := appconfig.Defaults()
	nc.KeepVersions = 1
	if err := appconfig.Write(home, nc); err != nil {
		t.Fatal(err)
	}
	var replayed exportDoc
	mustJSON(t, cli(t, "export", "--home", home, "--height", "5"), &replayed)
	if a, b := fmt.Sprint(doc.Groups), fmt.Sprint(replayed.Groups); a != b || replayed.AppHash != doc.AppHash {
		t.Fatalf("export --height 5 from the kept version and by replay differ:\n%s\n%s", a, b)
	}
}

// exportDoc is the part of export's document the test reads.
type exportDoc struct {
	Height  int64  `json:"height"`
	AppHash string `json:"app_hash"`
	Groups  []struct {
		Name    string `json:"name"`
		Entries []struct {
			Key string `json:"key"`
		} `json:"entries"`
	} `json:"groups"`
}

// has reports whether group name holds an entry with key.
func (d exportDoc) has(name, key string) bool {
	for _, g := range d.Groups {
		for _, e := range g.Entries {
			if g.Name == name && e.Key == key {
				return true
			}
		}
	}
	return false
}

func mustJSON(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("%v in %q", err, s)
	}
}

func TestReplayAndExportFlags(t *testing.T) {
	missing := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"replay", "--to", "-1", "--home", missing}, "--to: -1"},
		{[]string{"replay", "extra", "--home", missing}, "want 0 argument(s)"},
		{[]string{"replay", "--home", missing}, "not found"},
		{[]string{"export", "--height", "-2", "--home", missing}, "--height: -2"},
		{[]string{"export", "--home", missing}, "--home " + missing + ": holds no node"},
		{[]string{"export", "--height", "3", "--home", missing}, "--home " + missing + ": holds no node"},
	} {
		code, _, errOut := runCmd(t, tc.args...)
		if code != 1 || !strings.Contains(errOut, tc.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: code %d, stderr %q; want 1 and one line with %q", tc.args, code, errOut, tc.want)
		}
	}
}
