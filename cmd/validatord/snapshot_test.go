package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/statedump"
	"github.com/scoringsubnet/validatord/node/appconfig"
)

// TestSnapshotAndHistoryCommands runs a real node that writes a snapshot
// every 4 heights and keeps 20 versions, and checks, with the node running:
// `query --height` gives the answers given live at that height (status and
// a miner registered meanwhile), refuses a height beyond the kept versions
// naming `export --height`, and `snapshot export` refuses the locked store;
// then, the node stopped: `snapshot list` shows the kept snapshots with the
// live app hashes, `snapshot export` of the newest and of an older kept
// height, and `snapshot restore` into an empty home gives the same state
// (app hash, a full scan through `validatord export`, the same snapshot
// again); a home with state, a corrupted chunk and a wrong app hash are
// refused with their reason.
func TestSnapshotAndHistoryCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a CometBFT node")
	}
	home := filepath.Join(t.TempDir(), "home")
	node, p2p := freeAddr(t), freeAddr(t)
	cli(t, "init", "--home", home, "--chain-id", "snap-1", "--rpc-laddr", node, "--p2p-laddr", p2p, "--timeout-commit", "100ms", "--registration-difficulty", "16")
	const keep, interval = 20, 4
	if err := appconfig.Write(home, appconfig.Config{KeepVersions: keep, SnapshotInterval: interval, SnapshotKeepRecent: 2}); err != nil {
		t.Fatal(err)
	}
	n := startNode(t, home)
	n.waitHeight(t, node, 2)
	cli(t, "keys", "add", "alice", "--home", home)
	res, code, errOut := cliTx(t, home, node, "register-miner", "--from", "alice")
	if code != 0 || res.Code != 0 {
		t.Fatalf("register-miner: %d %+v %s", code, res, errOut)
	}
	uid := attr(t, res, wire.EventMinerRegistered, "uid")
	regHeight := res.Height

	// Live answers: status at each height seen, the miner right after its block.
	c, err := client.Dial(node)
	if err != nil {
		t.Fatal(err)
	}
	live := map[int64]string{}
	var liveMiner []byte
	for len(live) < 6 {
		st, err := c.Status(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		live[st.Height] = st.AppHash
		if liveMiner == nil {
			if liveMiner, err = c.QueryAt(context.Background(), "miner/"+uid, regHeight); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(60 * time.Millisecond)
	}
	for h, hash := range live {
		var st wire.StatusView
		queryJSON(t, node, &st, "status", "--height", strconv.FormatInt(h, 10))
		if st.Height != h || st.AppHash != hash {
			t.Fatalf("status --height %d: %+v, live app hash %s", h, st, hash)
		}
	}
	if got := cli(t, "query", "miner", uid, "--height", strconv.FormatInt(regHeight, 10), "--node", node); !jsonEqual(t, got, string(liveMiner)) {
		t.Fatalf("miner %s --height %d: %s, live %s", uid, regHeight, got, liveMiner)
	}
	code, _, errOut = runCmd(t, "query", "miner", uid, "--height", strconv.FormatInt(regHeight-1, 10), "--node", node)
	if code != 1 || !strings.Contains(errOut, "no miner with uid "+uid) {
		t.Fatalf("miner before its registration: code %d, %q", code, errOut)
	}
	code, _, errOut = runCmd(t, "snapshot", "export", "--home", home)
	if code != 1 || !strings.Contains(errOut, "stop the node") {
		t.Fatalf("export of a running node: code %d, %q", code, errOut)
	}
	n.waitHeight(t, node, keep+6)
	code, _, errOut = runCmd(t, "query", "status", "--height", "1", "--node", node)
	if code != 1 || !strings.Contains(errOut, "keep_versions") || !strings.Contains(errOut, "export --height 1") {
		t.Fatalf("status --height 1 beyond the kept versions: code %d, %q", code, errOut)
	}
	st, err := c.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	live[st.Height] = st.AppHash
	if code := n.stop(t); code != 0 {
		t.Fatalf("node exit %d: %s", code, n.tail())
	}

	// snapshot list: the newest snapshot_keep_recent multiples of the interval.
	var list []snapshotView
	decodeJSON(t, cli(t, "snapshot", "list", "--home", home), &list)
	if len(list) != 2 || list[0].Height%interval != 0 || list[1].Height != list[0].Height+interval || list[1].Height < keep {
		t.Fatalf("snapshot list: %+v", list)
	}
	for _, s := range list {
		if s.Format != 1 || s.Chunks < 1 || s.Bytes == 0 || s.Entries == 0 || s.ChainID != "snap-1" || len(s.Hash) != 64 || len(s.AppHash) != 64 {
			t.Fatalf("snapshot list entry: %+v", s)
		}
		if h, ok := live[int64(s.Height)]; ok && h != s.AppHash {
			t.Fatalf("snapshot %d: app hash %s, live %s", s.Height, s.AppHash, h)
		}
	}

	// snapshot export: the newest state by default; a kept older height gives
	// the node's own snapshot bytes; a height beyond keep_versions is refused.
	out := t.TempDir()
	var exp snapshotView
	decodeJSON(t, cli(t, "snapshot", "export", "--home", home, "--out", out), &exp)
	stored := storedDoc(t, home)
	if int64(exp.Height) != stored.Height || !strings.EqualFold(exp.AppHash, stored.AppHash) || exp.Dir != out {
		t.Fatalf("export: %+v, stored state at %d %s", exp, stored.Height, stored.AppHash)
	}
	var old snapshotView
	decodeJSON(t, cli(t, "snapshot", "export", "--home", home, "--out", out, "--height", strconv.FormatUint(list[1].Height, 10)), &old)
	if old.Hash != list[1].Hash {
		t.Fatalf("export --height %d: %+v, the node wrote %+v", list[1].Height, old, list[1])
	}
	code, _, errOut = runCmd(t, "snapshot", "export", "--home", home, "--out", out, "--height", "1")
	if code != 1 || !strings.Contains(errOut, "keep_versions 20") || !strings.Contains(errOut, "export --height 1") {
		t.Fatalf("export --height 1: code %d, %q", code, errOut)
	}
	var all []snapshotView
	decodeJSON(t, cli(t, "snapshot", "list", "--dir", out), &all)
	if len(all) != 2 {
		t.Fatalf("snapshot list --dir: %+v", all)
	}

	// snapshot restore into an empty home: the same state.
	home2 := filepath.Join(t.TempDir(), "home2")
	hs := strconv.FormatUint(exp.Height, 10)
	var rv restoreView
	decodeJSON(t, cli(t, "snapshot", "restore", "--home", home2, "--from", out, "--height", hs, "--app-hash", exp.AppHash), &rv)
	if rv.Height != int64(exp.Height) || rv.FirstHeight != rv.Height || rv.AppHash != exp.AppHash {
		t.Fatalf("restore: %+v", rv)
	}
	restored := storedDoc(t, home2)
	if restored.Height != stored.Height || restored.AppHash != stored.AppHash || restored.Entries != stored.Entries {
		t.Fatalf("restored export: height %d hash %s entries %d, source %d %s %d", restored.Height, restored.AppHash, restored.Entries,
			stored.Height, stored.AppHash, stored.Entries)
	}
	if a, b := stateJSON(t, restored), stateJSON(t, stored); a != b {
		t.Fatalf("restored state differs from the source:\n%.2000s\n%.2000s", a, b)
	}
	var again snapshotView
	decodeJSON(t, cli(t, "snapshot", "export", "--home", home2, "--out", t.TempDir()), &again)
	if again.Hash != exp.Hash {
		t.Fatalf("snapshot of the restored home %s, source %s", again.Hash, exp.Hash)
	}

	// Refusals.
	code, _, errOut = runCmd(t, "snapshot", "restore", "--home", home2, "--from", out, "--height", hs, "--app-hash", exp.AppHash)
	if code != 1 || !strings.Contains(errOut, "not empty") || !strings.Contains(errOut, appDataDir(home2)) || !strings.Contains(errOut, "height "+hs) {
		t.Fatalf("restore into a home with state: code %d, %q", code, errOut)
	}
	wrong := []byte(exp.AppHash)
	if wrong[0] == '0' {
		wrong[0] = '1'
	} else {
		wrong[0] = '0'
	}
	home3 := filepath.Join(t.TempDir(), "home3")
	code, _, errOut = runCmd(t, "snapshot", "restore", "--home", home3, "--from", out, "--height", hs, "--app-hash", string(wrong))
	if code != 1 || !strings.Contains(errOut, "app hash is not the trusted app hash") {
		t.Fatalf("restore with a wrong app hash: code %d, %q", code, errOut)
	}
	chunk := filepath.Join(out, hs, "chunk-000000")
	bz, err := os.ReadFile(chunk)
	if err != nil {
		t.Fatal(err)
	}
	bz[len(bz)/2] ^= 1
	if err := os.WriteFile(chunk, bz, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCmd(t, "snapshot", "restore", "--home", home3, "--from", out, "--height", hs, "--app-hash", exp.AppHash)
	if code != 1 || !strings.Contains(errOut, "chunk 0: snapshot: chunk does not match its hash") {
		t.Fatalf("restore of a corrupted chunk: code %d, %q", code, errOut)
	}
}

// TestSnapshotCommandArgs: the commands' refusals that need no node.
func TestSnapshotCommandArgs(t *testing.T) {
	home := t.TempDir()
	if err := os.Mkdir(filepath.Join(home, "config"), 0o700); err != nil { // a node's home, without snapshots
		t.Fatal(err)
	}
	if out := cli(t, "snapshot", "list", "--home", home); strings.TrimSpace(out) != "[]" {
		t.Fatalf("list of a home without snapshots: %q", out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"snapshot"}, "missing subcommand"},
		{[]string{"snapshot", "take"}, `unknown subcommand "take"`},
		{[]string{"snapshot", "restore", "--home", home, "--height", "4", "--app-hash", strings.Repeat("ab", 32)}, "--from is required"},
		{[]string{"snapshot", "restore", "--home", home, "--from", home, "--app-hash", strings.Repeat("ab", 32)}, "--height: 0"},
		{[]string{"snapshot", "restore", "--home", home, "--from", home, "--height", "4", "--app-hash", "abc"}, "want 64 hex digits"},
		{[]string{"snapshot", "restore", "--home", home, "--from", home, "--height", "4", "--app-hash", strings.Repeat("ab", 32)}, "no such snapshot"},
		{[]string{"snapshot", "export", "--home", home}, "no such file or directory"},
		{[]string{"snapshot", "export", "--home", home, "--height", "-1"}, "--height: -1"},
		{[]string{"query", "status", "--height", "-2"}, "--height: -2"},
	} {
		code, _, errOut := runCmd(t, c.args...)
		if code != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: code %d, stderr %q, want %q", c.args, code, errOut, c.want)
		}
	}
}

func jsonEqual(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	decodeJSON(t, a, &x)
	decodeJSON(t, b, &y)
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}

// storedDoc is `validatord export --home home` (the app's stored state).
func storedDoc(t *testing.T, home string) statedump.Document {
	t.Helper()
	var doc statedump.Document
	decodeJSON(t, cli(t, "export", "--home", home), &doc)
	return doc
}

// stateJSON is a document's groups without the meta record (a restored
// store's meta says FirstHeight = the snapshot height): the full hashed state.
func stateJSON(t *testing.T, doc statedump.Document) string {
	t.Helper()
	var gs []statedump.Group
	for _, g := range doc.Groups {
		if g.Name != "meta" {
			gs = append(gs, g)
		}
	}
	bz, err := json.Marshal(gs)
	if err != nil {
		t.Fatal(err)
	}
	return string(bz)
}
