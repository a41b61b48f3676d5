package appconfig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, body string) string {
	t.Helper()
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "config"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(File(home), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

// TestLoad: a missing file is the defaults; Write then Load round-trips;
// a partial file keeps the defaults of the keys it omits.
func TestLoad(t *testing.T) {
	c, err := Load(t.TempDir())
	if err != nil || c != Defaults() {
		t.Fatalf("missing file: %+v %v", c, err)
	}
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "config"), 0o700); err != nil {
		t.Fatal(err)
	}
	want := Config{KeepVersions: 0, SnapshotInterval: 50, SnapshotKeepRecent: 3, RetainBlocks: 5000, Durability: "pipelined",
		ConcurrentCheckTx: true, CheckTxRuns: false, LeaderboardAddr: "127.0.0.1:36680"}
	if err := Write(home, want); err != nil {
		t.Fatal(err)
	}
	if got, err := Load(home); err != nil || got != want {
		t.Fatalf("round trip: %+v %v", got, err)
	}
	got, err := Load(writeFile(t, "[state]\nsnapshot_interval = 7\n"))
	if err != nil || got.SnapshotInterval != 7 || got.KeepVersions != Defaults().KeepVersions || got.ConcurrentCheckTx {
		t.Fatalf("partial file: %+v %v", got, err)
	}
	got, err = Load(writeFile(t, "[abci]\nconcurrent_check_tx = true\n"))
	if err != nil || !got.ConcurrentCheckTx || !got.CheckTxRuns || got.KeepVersions != Defaults().KeepVersions {
		t.Fatalf("[abci] alone: %+v %v", got, err)
	}
	got, err = Load(writeFile(t, "[abci]\ncheck_tx_runs = false\n"))
	if err != nil || got.CheckTxRuns || got.ConcurrentCheckTx {
		t.Fatalf("check_tx_runs off: %+v %v", got, err)
	}
	if got.LeaderboardAddr != DefaultLeaderboardAddr {
		t.Fatalf("leaderboard default: %q", got.LeaderboardAddr)
	}
	for body, addr := range map[string]string{
		"[leaderboard]\nladdr = \"\"\n":               "",
		"[leaderboard]\nladdr = \"localhost:8080\"\n": "localhost:8080",
		"[leaderboard]\nladdr = \"[::1]:26680\"\n":    "[::1]:26680",
	} {
		got, err = Load(writeFile(t, body))
		if err != nil || got.LeaderboardAddr != addr || got.KeepVersions != Defaults().KeepVersions {
			t.Fatalf("%q: %+v %v, want laddr %q", body, got, err, addr)
		}
	}
	off := Defaults()
	off.LeaderboardAddr = ""
	if err := Write(home, off); err != nil {
		t.Fatal(err)
	}
	if got, err := Load(home); err != nil || got != off {
		t.Fatalf("a disabled page round trip: %+v %v", got, err)
	}
}

// TestLoadRefusals: each bad file names its key.
func TestLoadRefusals(t *testing.T) {
	for body, key := range map[string]string{
		"[state]\nkeep_versions = -1\n":              "keep_versions",
		"[state]\nsnapshot_interval = -5\n":          "snapshot_interval",
		"[state]\nsnapshot_keep_recent = 0\n":        "snapshot_keep_recent",
		"[state]\nretain_blocks = 10\n":              "retain_blocks",
		"[state]\ndurability = \"fsync\"\n":          "durability",
		"[state]\nretain_block = 10\n":               "retain_block",
		"[other]\nx = 1\n":                           "other.x",
		"[state]\nkeep_versions = \"many\"\n":        "keep_versions",
		"[state\n":                                   "",
		"[abci]\nconcurrent_checktx = true\n":        "concurrent_checktx",
		"[abci]\nconcurrent_check_tx = 3\n":          "concurrent_check_tx",
		"[abci]\ncheck_tx_runs = \"yes\"\n":          "check_tx_runs",
		"[leaderboard]\nladdr = 26680\n":             "leaderboard.laddr",
		"[leaderboard]\nladdr = \"0.0.0.0:26680\"\n": "leaderboard.laddr",
		"[leaderboard]\nladdr = \"127.0.0.1\"\n":     "leaderboard.laddr",
		"[leaderboard]\nladdr = \"127.0.0.1:0\"\n":   "leaderboard.laddr",
		"[leaderboard]\nport = 1\n":                  "port",
	} {
		_, err := Load(writeFile(t, body))
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), "app.toml") {
			t.Errorf("%q: %v, want an error naming %q in app.toml", body, err, key)
		}
	}
}
