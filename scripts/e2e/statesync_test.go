//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/app/snapshot"
	"github.com/scoringsubnet/validatord/node/appconfig"
)

// stateSyncFigures are the figures of the state-sync scenario.
type stateSyncFigures struct {
	LoadSummary      string `json:"loadgen_summary"`
	SnapshotHeight   int64  `json:"snapshot_height"`
	SnapshotChunks   uint32 `json:"snapshot_chunks"`
	SnapshotBytes    uint64 `json:"snapshot_bytes"`
	SnapshotEntries  uint64 `json:"snapshot_entries"`
	TrustHeight      int64  `json:"trust_height"`
	JoinSeconds      string `json:"time_to_join"`
	CaughtUpAt       int64  `json:"caught_up_at_height"`
	RestoredHeight   int64  `json:"restored_height"`
	HeightsCompared  int64  `json:"heights_compared_after_join"`
	JoinerFirstBlock int64  `json:"joiner_first_block"`
}

// TestStateSyncJoin: four validators under load write a snapshot every 250 heights; after
// height 500 a fifth node, empty, joins by CometBFT's state sync (light-client verified at
// a trusted height and hash), restores the newest snapshot through the app's ABCI calls,
// block-syncs the rest and follows the chain; from the restored height on, its headers
// (app hashes included) equal node0's at every height. The time to join is printed.
func TestStateSyncJoin(t *testing.T) {
	const validators, minHeight = 4, 500
	nw := newNetwork(t, validators+1, basePort+400, "200ms")
	joiner := nw.detachLast()
	for i := 0; i < validators; i++ {
		// Load, not Defaults: testnet gave each home its own page port, and a node whose
		// page port is taken refuses to start.
		c, err := appconfig.Load(nw.homes[i])
		if err != nil {
			t.Fatal(err)
		}
		c.SnapshotInterval, c.SnapshotKeepRecent = 250, 2
		if err := appconfig.Write(nw.homes[i], c); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < validators; i++ {
		nw.start(i)
	}
	for i := 0; i < validators; i++ {
		if err := nw.waitHeight(i, 2, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	loadFor := time.Duration(envInt("E2E_STATESYNC_LOAD_SECONDS", 240)) * time.Second
	load := nw.ps.start(t, "loadgen", filepath.Join(nw.dir, "loadgen.log"), nil, bin("loadgen"), "rounds",
		"--testnet", nw.dir, "--duration", loadFor.String(), "--rate", "25", "--miners", "4")
	if err := nw.waitHeight(0, minHeight+10, 6*time.Minute); err != nil {
		t.Fatal(err)
	}
	fig := stateSyncFigures{}
	infos, err := snapshot.List(filepath.Join(nw.homes[0], "data", "snapshots"))
	if err != nil || len(infos) == 0 {
		t.Fatalf("node0 wrote no snapshot by height %d: %v", minHeight+10, err)
	}
	newest := infos[len(infos)-1]
	for _, in := range infos {
		if in.Height > newest.Height {
			newest = in
		}
	}
	fig.SnapshotHeight, fig.SnapshotChunks = int64(newest.Height), newest.Chunks
	fig.SnapshotBytes, fig.SnapshotEntries = newest.Meta.Size, newest.Meta.Entries
	if fig.SnapshotHeight < minHeight {
		t.Fatalf("newest snapshot at %d, want ≥ %d", fig.SnapshotHeight, minHeight)
	}
	// The trusted header: a recent one, as an operator would read it from a node it trusts.
	ctx := context.Background()
	trust := nw.maxHeight() - 2
	blk, err := nw.clients[0].Block(ctx, &trust)
	if err != nil {
		t.Fatal(err)
	}
	fig.TrustHeight = trust
	enableStateSync(t, nw.homes[joiner], []string{nw.rpcs[0], nw.rpcs[1]}, trust, blk.BlockID.Hash.String())
	start := time.Now()
	nw.start(joiner)
	target := nw.maxHeight()
	if err := nw.waitHeight(joiner, target, 5*time.Minute); err != nil {
		t.Fatalf("the joiner did not catch up: %v (see %s)", err, filepath.Join(nw.homes[joiner], "node.log"))
	}
	fig.JoinSeconds, fig.CaughtUpAt = time.Since(start).Round(100*time.Millisecond).String(), target
	t.Logf("the joiner caught up to height %d in %s", target, fig.JoinSeconds)
	st, err := nw.clients[joiner].Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fig.JoinerFirstBlock = st.SyncInfo.EarliestBlockHeight
	if fig.JoinerFirstBlock <= 1 {
		t.Fatalf("the joiner's block store starts at %d: it replayed from genesis instead of state sync", fig.JoinerFirstBlock)
	}
	fig.RestoredHeight = fig.JoinerFirstBlock - 1
	if err := load.wait(loadFor + 3*time.Minute); err != nil {
		t.Fatal(err)
	}
	fig.LoadSummary = loadSummary(filepath.Join(nw.dir, "loadgen.log"))
	end := nw.maxHeight()
	if err := nw.waitAll(end, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	ref, err := headers(nw, 0, end)
	if err != nil {
		t.Fatal(err)
	}
	got, err := headersFrom(nw, joiner, fig.JoinerFirstBlock, end)
	if err != nil {
		t.Fatal(err)
	}
	for h := fig.JoinerFirstBlock; h <= end; h++ {
		if got[h] != ref[h] {
			t.Fatalf("height %d: the joiner's header %s, node0's %s", h, got[h], ref[h])
		}
		fig.HeightsCompared++
	}
	report(t, "state_sync_join", fig)
}

// enableStateSync turns on CometBFT's state sync in a home's config.toml.
func enableStateSync(t *testing.T, home string, rpcs []string, height int64, hash string) {
	t.Helper()
	path := filepath.Join(home, "config", "config.toml")
	bz, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(bz)
	i := strings.Index(s, "[statesync]")
	if i < 0 {
		t.Fatalf("%s has no [statesync]", path)
	}
	head, sec := s[:i], s[i:]
	set := func(key, val string) {
		re := regexp.MustCompile(`(?m)^` + key + ` = .*$`)
		if !re.MatchString(sec) {
			t.Fatalf("%s: [statesync] has no %s", path, key)
		}
		sec = re.ReplaceAllLiteralString(sec, key+" = "+val)
	}
	set("enable", "true")
	set("rpc_servers", fmt.Sprintf("%q", strings.Join(rpcs, ",")))
	set("trust_height", fmt.Sprint(height))
	set("trust_hash", fmt.Sprintf("%q", hash))
	set("discovery_time", `"5s"`)
	if err := os.WriteFile(path, []byte(head+sec), 0o644); err != nil {
		t.Fatal(err)
	}
}
