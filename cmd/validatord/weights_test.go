package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	rpchttp "github.com/cometbft/cometbft/rpc/client/http"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/replay"
	"github.com/scoringsubnet/validatord/internal/statedump"
)

// TestWeightsAgainstNode runs `validatord weights` against a real node that
// scored one workflow submission: the vector is the epoch's u16 (65535 in
// all, the miner's share beside the burn uid), the app hash is the one the
// header of the next block commits to, and the score digest is the one
// statedump computes over the stopped node's store at that height (what
// `validatord replay` prints). --home finds the node through config.toml;
// --epoch and --height select older states.
func TestWeightsAgainstNode(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a CometBFT node")
	}
	home := filepath.Join(t.TempDir(), "home")
	node, p2p := freeAddr(t), freeAddr(t)
	cli(t, "init", "--home", home, "--chain-id", "weights-1", "--rpc-laddr", node, "--p2p-laddr", p2p, "--timeout-commit", "100ms", "--registration-difficulty", "16")
	n := startNode(t, home)
	n.waitHeight(t, node, 1)
	cli(t, "keys", "add", "alice", "--home", home)
	tx := func(typ, key string, args ...string) string { return mustTx(t, home, node, typ, key, args...) }
	uid := tx(wire.EventMinerRegistered, "uid", "register-miner", "--from", "alice")
	task := tx(wire.EventTaskPosted, "task_id", "post-task", "workflow", "--from", "validator", "--total-steps", "4",
		"--max-budget", "2", "--max-latency-seconds", "60", "--submission-blocks", "3", "--report-blocks", "200")
	sres := mustSubmit(t, home, node, true, "workflow", "--from", "alice", "--task-id", task, "--artifact-hash", hash32("alice weights"))
	sub := attr(t, sres.Commit, wire.EventSubmissionAdded, "submission_id")
	var tv struct {
		RevealDeadline int64 `json:"reveal_deadline"`
	}
	queryJSON(t, node, &tv, "task", task)
	n.waitHeight(t, node, tv.RevealDeadline)
	tx(wire.EventSubmissionScored, "score", "report", "workflow", "--from", "validator", "--submission-id", sub, "--output-quality", "0.9",
		"--steps-completed", "4", "--cost", "0.5", "--latency-seconds", "30", "--retries", "0", "--declared-retry-budget", "1", "--timeouts", "0", "--hard-failures", "0")
	var st wire.StatusView
	queryJSON(t, node, &st, "status")
	n.waitHeight(t, node, (st.Height/10+2)*10+1) // an epoch after the score, and one more block

	weights := func(args ...string) client.ParentWeights {
		t.Helper()
		out := cli(t, append([]string{"weights"}, args...)...)
		var w client.ParentWeights
		if err := json.Unmarshal([]byte(out), &w); err != nil {
			t.Fatalf("weights %v: %v\n%s", args, err, out)
		}
		return w
	}
	latest := weights("--home", home, "--version-key", "7")
	var ep wire.EpochView
	queryJSON(t, node, &ep, "epoch", "latest")
	if latest.Epoch != ep.Epoch.Number || latest.Height != ep.Epoch.Height || latest.EpochHeight != ep.Epoch.Height ||
		latest.VersionKey != 7 || latest.NetUID != nil || len(latest.UIDs) != len(ep.Epoch.U16) {
		t.Fatalf("weights %+v, epoch %+v", latest, ep.Epoch)
	}
	sum, minerWeight := 0, uint16(0)
	for i, u := range ep.Epoch.U16 {
		if uint32(latest.UIDs[i]) != u.UID || uint32(latest.Weights[i]) != u.Weight {
			t.Fatalf("entry %d: %d=%d, epoch %+v", i, latest.UIDs[i], latest.Weights[i], u)
		}
		sum += int(latest.Weights[i])
		if strconv.Itoa(int(latest.UIDs[i])) == uid {
			minerWeight = latest.Weights[i]
		}
	}
	if sum != 65535 || minerWeight == 0 {
		t.Fatalf("weights sum %d, uid %s weight %d; want 65535 with the scored miner's share", sum, uid, minerWeight)
	}

	rpc, err := rpchttp.New(node, "/websocket")
	if err != nil {
		t.Fatal(err)
	}
	next := latest.Height + 1
	blk, err := rpc.Block(context.Background(), &next)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.EqualFold(blk.Block.Header.AppHash.String(), latest.AppHash) {
		t.Fatalf("app hash %s, header of block %d has %s", latest.AppHash, next, blk.Block.Header.AppHash)
	}

	first := weights("--node", node, "--epoch", "1", "--netuid", "3")
	if first.Epoch != 1 || first.Height != 10 || first.NetUID == nil || *first.NetUID != 3 {
		t.Fatalf("--epoch 1: %+v", first)
	}
	at := weights("--node", node, "--height", strconv.FormatInt(latest.Height+1, 10))
	if at.Epoch != latest.Epoch || at.Height != latest.Height+1 || at.EpochHeight != latest.Height || at.AppHash == latest.AppHash {
		t.Fatalf("--height %d: %+v (latest %+v)", latest.Height+1, at, latest)
	}
	if code, _, errOut := runCmd(t, "weights", "--node", node, "--epoch", "1", "--height", "5"); code == 0 || !strings.Contains(errOut, "not both") {
		t.Fatalf("--epoch with --height: exit %d %s", code, errOut)
	}

	if code := n.stop(t); code != 0 {
		t.Fatalf("node exited with %d; log:\n%s", code, n.tail())
	}
	for _, w := range []client.ParentWeights{latest, first, at} {
		es, err := replay.DumpBadgerAt(appDataDir(home), uint64(w.Height))
		if err != nil {
			t.Fatal(err)
		}
		kvs := make([]statedump.KV, len(es))
		for i, e := range es {
			kvs[i] = statedump.KV{Key: e.Key, Value: e.Value}
		}
		if d := statedump.ScoreDigest(kvs); d != w.ScoreDigest {
			t.Errorf("height %d: score digest %s, the store's %s", w.Height, w.ScoreDigest, d)
		}
	}
}
