package rounds

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/testnode"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// TestFloodFollowsRecoveries: a commit its signer signed again is waited for under its new
// hash, and recorded under it once a block shows it; one refused when resent leaves the
// pending set (dropped, not lost); a block's other transactions are not the flood's.
func TestFloodFollowsRecoveries(t *testing.T) {
	f, m := testFlood(t)
	f.pending["A"], f.pending["B"] = m, m
	f.counts.Accepted = 2
	f.recovered(m, client.Recovery{Resigned: []client.Resigned{{Old: "A", New: "A2"}}, Refused: []client.Refusal{{Hash: "B"}}})
	f.seen(12, []string{"X", "A"})
	if f.counts.Committed != 0 || f.outstanding() != 1 {
		t.Fatalf("after a block without A2: %+v, %d pending", f.counts, f.outstanding())
	}
	f.seen(13, []string{"A2"})
	if f.counts.Committed != 1 || f.outstanding() != 0 || f.counts.Resigned != 1 || f.counts.Dropped != 1 ||
		f.counts.Accepted != f.counts.Committed+f.counts.Dropped {
		t.Fatalf("counts %+v, %d pending", f.counts, f.outstanding())
	}
	bz := closeRecords(t, f)
	var r Record
	if err := json.Unmarshal([]byte(strings.TrimSpace(string(bz))), &r); err != nil || r.Kind != floodKind || r.Hash != "A2" || r.Height != 13 || r.UID != 9 {
		t.Fatalf("records %q (%v), want the one of A2 at 13", bz, err)
	}
}

// TestFloodMatchesABlockReadFirst: Recover sends a re-signed commit before OnRecover names
// its new hash, so on a loaded machine the watcher can read the new hash's block first. It
// is matched when the hash is named, not left pending for good (at 900 commits/s, 45 commits
// were counted lost that way while every sender ended with nothing in flight).
func TestFloodMatchesABlockReadFirst(t *testing.T) {
	f, m := testFlood(t)
	f.pending["C"] = m
	f.counts.Accepted = 1
	f.seen(20, []string{"C2", "Y"}) // the re-signed copy's block, read before OnRecover
	f.recovered(m, client.Recovery{Resigned: []client.Resigned{{Old: "C", New: "C2"}}})
	if f.outstanding() != 0 || f.counts.Committed != 1 || f.counts.Accepted != f.counts.Committed {
		t.Fatalf("counts %+v, %d pending: C2's block was read before its hash was named", f.counts, f.outstanding())
	}
	bz := closeRecords(t, f)
	var r Record
	if err := json.Unmarshal([]byte(strings.TrimSpace(string(bz))), &r); err != nil || r.Hash != "C2" || r.Height != 20 {
		t.Fatalf("records %q (%v), want the one of C2 at 20", bz, err)
	}
}

// testFlood is a flood of one miner (uid 9) without a node, recording to a file.
func testFlood(t *testing.T) (*flood, *floodMiner) {
	t.Helper()
	rec, err := newRecorder(filepath.Join(t.TempDir(), "out.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	f := newFlood(&generator{rec: rec}, floodOptions{rate: 1, miners: 1})
	seed := sha256.Sum256([]byte("flood0"))
	return f, &floodMiner{name: "flood0", s: client.NewSigner(nil, "test", ed25519.NewKeyFromSeed(seed[:])), uid: 9}
}

// closeRecords closes the flood's recorder and returns what it wrote.
func closeRecords(t *testing.T, f *flood) []byte {
	t.Helper()
	if err := f.g.rec.close(); err != nil {
		t.Fatal(err)
	}
	bz, err := os.ReadFile(f.g.rec.f.Name())
	if err != nil {
		t.Fatal(err)
	}
	return bz
}

// TestFloodWatchesAndLooksUp runs the watcher against a real node: a commit CheckTx took is
// matched in the block the watcher reads, and at the end the watcher has read through the
// chain's height. A pending hash whose block the watcher never read (here: one from before
// the watcher's first height) is found by /tx and counted in FoundByTx; one no node holds is
// lost and named in LostHashes. Before, a watcher that fell behind the chain at 900
// commits/s left its last blocks unread and their commits counted as lost.
func TestFloodWatchesAndLooksUp(t *testing.T) {
	n := testnode.Start(t, testnode.Options{ChainID: "flood-watch"})
	ctx := testnode.Ctx(t)
	f, m := testFlood(t)
	p, err := newPool([]string{n.Addr})
	if err != nil {
		t.Fatal(err)
	}
	f.g.pool, f.g.heights = p, &heights{pool: p}
	task := func(steps int64) *subnetv1.Msg {
		return client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: steps, MaxBudget: "1", MaxLatencySeconds: "1",
			SubmissionBlocks: 100, ReportBlocks: 10})
	}
	early, err := n.Validator.SendWait(ctx, task(1), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	f.from = early.Height + 1
	wctx, stop := context.WithCancel(ctx)
	var watcher sync.WaitGroup
	watcher.Go(func() { f.watch(wctx) })
	late, err := n.Validator.Send(ctx, task(2))
	if err != nil {
		t.Fatal(err)
	}
	missing := strings.Repeat("ab", 32)
	f.mu.Lock()
	f.pending[early.Hash], f.pending[late.Hash], f.pending[missing] = m, m, m
	f.counts.Accepted = 3
	f.mu.Unlock()
	if _, err := n.Validator.WaitTx(ctx, late.Hash, time.Minute); err != nil {
		t.Fatal(err)
	}
	f.readThrough(ctx, time.Minute)
	stop()
	watcher.Wait()
	f.lookUpPending(ctx)
	c := f.counts
	if c.Committed != 2 || c.FoundByTx != 1 || c.Lost != 1 || len(c.LostHashes) != 1 || c.LostHashes[0] != missing || f.outstanding() != 1 {
		t.Fatalf("counts %+v, %d pending: want the late commit matched by the watcher, the early one found by /tx, %s lost", c, f.outstanding(), missing)
	}
	if h, _ := p.Height(ctx); c.WatchedTo < early.Height+1 || c.WatchedTo > h {
		t.Fatalf("watched to %d, chain at %d", c.WatchedTo, h)
	}
	heights := map[string]int64{}
	for _, line := range strings.Split(strings.TrimSpace(string(closeRecords(t, f))), "\n") {
		var r Record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		heights[r.Hash] = r.Height
	}
	if heights[early.Hash] != early.Height || heights[late.Hash] == 0 || len(heights) != 2 {
		t.Fatalf("records %v: want %s at %d and %s", heights, early.Hash, early.Height, late.Hash)
	}
}
