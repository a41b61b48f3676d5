package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/snapshot"
	"github.com/scoringsubnet/validatord/app/wire"
)

// scoredChain runs rounds of scored workflow work on n (scoreOne: four
// blocks each) and returns the number of blocks.
func scoredChain(t *testing.T, n *node, rounds int) {
	t.Helper()
	r := []*signer{reporter(0), reporter(1), reporter(2), reporter(3)}
	miner := newMiner("miner-a", 1)
	mustOK(t, n.block(miner.tx(t, msgRegister())))
	for i := 0; i < rounds; i++ {
		scoreOne(t, n, r, miner, uint64(i), uint64(i))
	}
}

// restoreFrom restores the snapshot of height h served by src into a fresh
// app, as CometBFT's state sync drives it: InitChain, OfferSnapshot with
// the trusted app hash, then every chunk as LoadSnapshotChunk serves it.
func restoreFrom(t *testing.T, src *node, h int64, trusted []byte, g func() *abcitypes.RequestInitChain) (*App, *abcitypes.ResponseOfferSnapshot) {
	t.Helper()
	ctx := context.Background()
	dst, err := New(Config{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = dst.Close() })
	if _, err := dst.InitChain(ctx, g()); err != nil {
		t.Fatal(err)
	}
	list, _ := src.app.ListSnapshots(ctx, &abcitypes.RequestListSnapshots{})
	var snap *abcitypes.Snapshot
	for _, s := range list.Snapshots {
		if int64(s.Height) == h {
			snap = s
		}
	}
	if snap == nil {
		t.Fatalf("no snapshot of height %d listed: %v", h, list.Snapshots)
	}
	offer, _ := dst.OfferSnapshot(ctx, &abcitypes.RequestOfferSnapshot{Snapshot: snap, AppHash: trusted})
	if offer.Result != abcitypes.ResponseOfferSnapshot_ACCEPT {
		return dst, offer
	}
	for i := uint32(0); i < snap.Chunks; i++ {
		chunk, _ := src.app.LoadSnapshotChunk(ctx, &abcitypes.RequestLoadSnapshotChunk{Height: snap.Height, Format: snap.Format, Chunk: i})
		res, err := dst.ApplySnapshotChunk(ctx, &abcitypes.RequestApplySnapshotChunk{Index: i, Chunk: chunk.Chunk, Sender: "peer"})
		if err != nil || res.Result != abcitypes.ResponseApplySnapshotChunk_ACCEPT {
			t.Fatalf("chunk %d: %v %v", i, res, err)
		}
	}
	return dst, offer
}

// TestStateSyncRestore: a node writes a snapshot after the Commit of every
// interval-th height; a fresh node restores it through the ABCI calls,
// reports the snapshot's height and app hash, and then executes the next
// blocks to the same app hashes as the node that never stopped. A second
// node that ran the same blocks wrote the same snapshot, byte for byte. An
// offer whose app hash is not the trusted one is refused.
func TestStateSyncRestore(t *testing.T) {
	g := testGenesis(4)
	cfg := func() Config {
		return Config{DataDir: t.TempDir(), Snapshots: SnapshotConfig{Dir: t.TempDir(), Interval: 10, KeepRecent: 2}}
	}
	a, b := newNodeConfig(t, cfg(), g), newNodeConfig(t, cfg(), g)
	scoredChain(t, a, 5) // 21 blocks
	for _, blk := range a.log {
		b.block(blk.txs...)
	}
	a.app.snapWriter.Wait()
	b.app.snapWriter.Wait()
	la, _ := a.app.ListSnapshots(context.Background(), &abcitypes.RequestListSnapshots{})
	lb, _ := b.app.ListSnapshots(context.Background(), &abcitypes.RequestListSnapshots{})
	if len(la.Snapshots) != 2 || la.Snapshots[0].Height != 20 && la.Snapshots[1].Height != 20 {
		t.Fatalf("snapshots listed: %v", la.Snapshots)
	}
	for i := range la.Snapshots {
		if !bytes.Equal(la.Snapshots[i].Hash, lb.Snapshots[i].Hash) {
			t.Fatalf("snapshot %d: two nodes wrote different snapshots of one height", la.Snapshots[i].Height)
		}
	}
	initReq := func() *abcitypes.RequestInitChain { return initRequest(t, g) }
	if _, offer := restoreFrom(t, a, 20, bytes.Repeat([]byte{1}, 32), initReq); offer.Result != abcitypes.ResponseOfferSnapshot_REJECT {
		t.Fatalf("an offer with a wrong trusted app hash: %v", offer.Result)
	}
	dst, _ := restoreFrom(t, a, 20, a.hashes[20], initReq)
	info, _ := dst.Info(context.Background(), &abcitypes.RequestInfo{})
	if info.LastBlockHeight != 20 || !bytes.Equal(info.LastBlockAppHash, a.hashes[20]) {
		t.Fatalf("restored node at %d %X, want 20 %X", info.LastBlockHeight, info.LastBlockAppHash, a.hashes[20])
	}
	// The restored node executes block 21 as the others did, then more.
	r := &node{t: t, app: dst, height: 20, hashes: make([][]byte, 21)}
	resp := r.finalize(a.log[20].txs...)
	if !bytes.Equal(resp.AppHash, a.hashes[21]) {
		t.Fatalf("height 21 after the restore: %X, want %X", resp.AppHash, a.hashes[21])
	}
	rep := reporter(0)
	acc, _ := a.query(fmt.Sprintf("account/%x", rep.pub()))
	rep.nonce = uint64(acc["next_nonce"].(float64))
	task := rep.next(msgWorkflowTask(4, 3, 3))
	for _, n := range []*node{a, r} {
		mustOK(t, n.block(task))
	}
	if !bytes.Equal(a.hashes[22], r.hashes[22]) {
		t.Fatal("the restored node diverged at height 22")
	}
}

// TestStateSyncBadChunk: a chunk that is not the snapshot's is refused
// (refetched, its sender rejected) and the restore goes on with the right one.
func TestStateSyncBadChunk(t *testing.T) {
	g := testGenesis(4)
	a := newNodeConfig(t, Config{DataDir: t.TempDir(), Snapshots: SnapshotConfig{Dir: t.TempDir(), Interval: 5, KeepRecent: 1}}, g)
	scoredChain(t, a, 1)
	a.app.snapWriter.Wait()
	ctx := context.Background()
	dst, err := New(Config{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	if _, err := dst.InitChain(ctx, initRequest(t, g)); err != nil {
		t.Fatal(err)
	}
	list, _ := a.app.ListSnapshots(ctx, &abcitypes.RequestListSnapshots{})
	snap := list.Snapshots[0]
	if offer, _ := dst.OfferSnapshot(ctx, &abcitypes.RequestOfferSnapshot{Snapshot: snap, AppHash: a.hashes[snap.Height]}); offer.Result != abcitypes.ResponseOfferSnapshot_ACCEPT {
		t.Fatal(offer.Result)
	}
	chunk, _ := a.app.LoadSnapshotChunk(ctx, &abcitypes.RequestLoadSnapshotChunk{Height: snap.Height, Format: snap.Format, Chunk: 0})
	bad := append([]byte(nil), chunk.Chunk...)
	bad[len(bad)/2] ^= 1
	res, _ := dst.ApplySnapshotChunk(ctx, &abcitypes.RequestApplySnapshotChunk{Index: 0, Chunk: bad, Sender: "liar"})
	if len(res.RefetchChunks) != 1 || len(res.RejectSenders) != 1 || res.RejectSenders[0] != "liar" {
		t.Fatalf("a corrupted chunk: %v", res)
	}
	res, _ = dst.ApplySnapshotChunk(ctx, &abcitypes.RequestApplySnapshotChunk{Index: 0, Chunk: chunk.Chunk, Sender: "honest"})
	if res.Result != abcitypes.ResponseApplySnapshotChunk_ACCEPT || dst.Height() != int64(snap.Height) {
		t.Fatalf("the right chunk after a bad one: %v, height %d", res, dst.Height())
	}
}

// TestQueryAtHeight: every answer given live at a height is given again,
// byte for byte, when asked later with that height; a height beyond the
// kept versions is refused with a message that names export --height.
func TestQueryAtHeight(t *testing.T) {
	g := testGenesis(4)
	n := newNodeConfig(t, Config{DataDir: t.TempDir(), KeepVersions: 12}, g)
	paths := []string{"submission/0", "submission/1", "epoch/latest", "validators", "leaderboard/workflow", "miner/1", "params", "status"}
	live := map[string]map[int64][]byte{}
	r := []*signer{reporter(0), reporter(1), reporter(2), reporter(3)}
	miner := newMiner("miner-a", 1)
	mustOK(t, n.block(miner.tx(t, msgRegister())))
	record := func() {
		for _, p := range paths {
			resp, _ := n.app.Query(context.Background(), &abcitypes.RequestQuery{Path: p})
			if live[p] == nil {
				live[p] = map[int64][]byte{}
			}
			live[p][n.height] = append([]byte(fmt.Sprint(resp.Code, " ")), resp.Value...)
		}
	}
	record()
	for i := 0; i < 4; i++ {
		mustOK(t, n.block(r[0].tx(t, msgWorkflowTask(4, 1, 10))))
		record()
		mustOK(t, n.block(miner.commit(t, wfPayloadOf(miner, uint64(i)))))
		record()
		mustOK(t, n.block(miner.reveal(t, wfPayloadOf(miner, uint64(i)))))
		record()
		mustOK(t, n.block(r[0].tx(t, msgWorkflowReport(uint64(i), workflowM())), r[1].tx(t, msgWorkflowReport(uint64(i), workflowM())),
			r[2].tx(t, msgWorkflowReport(uint64(i), workflowM()))))
		record()
	}
	latest := n.height
	oldest := latest - 12 + 1
	for _, p := range paths {
		for h, want := range live[p] {
			resp, _ := n.app.Query(context.Background(), &abcitypes.RequestQuery{Path: p, Height: h})
			if h < oldest {
				if resp.Code != wire.QueryNotFound || !bytes.Contains([]byte(resp.Log), []byte("export --height")) {
					t.Fatalf("%s at %d (older than kept): code %d %q", p, h, resp.Code, resp.Log)
				}
				continue
			}
			got := append([]byte(fmt.Sprint(resp.Code, " ")), resp.Value...)
			if !bytes.Equal(got, want) {
				t.Fatalf("%s at height %d: live %s, later %s", p, h, want, got)
			}
			if resp.Height != h {
				t.Fatalf("%s at %d answered for height %d", p, h, resp.Height)
			}
		}
	}
	resp, _ := n.app.Query(context.Background(), &abcitypes.RequestQuery{Path: "status", Height: latest + 1})
	if resp.Code != wire.QueryBadRequest {
		t.Fatalf("a height not committed yet: code %d %s", resp.Code, resp.Log)
	}
	var st map[string]any
	resp, _ = n.app.Query(context.Background(), &abcitypes.RequestQuery{Path: "status", Height: oldest})
	_ = json.Unmarshal(resp.Value, &st)
	if st["height"].(float64) != float64(oldest) {
		t.Fatalf("status at %d: %v", oldest, st)
	}
}

// TestRetainHeight: Commit's RetainHeight keeps retain_blocks blocks, never
// prunes within the evidence age nor above the oldest kept snapshot, and
// keeps everything when retain_blocks is 0.
func TestRetainHeight(t *testing.T) {
	snaps := t.TempDir()
	a := &App{retainBlocks: 1000, evidenceAge: 500, height: 5000}
	if got := a.retainHeight(); got != 4001 {
		t.Fatalf("retain 1000 at 5000: %d, want 4001", got)
	}
	a.evidenceAge = 2000
	if got := a.retainHeight(); got != 3000 {
		t.Fatalf("evidence age 2000 at 5000: %d, want 3000", got)
	}
	a.evidenceAge, a.snapshots = 0, SnapshotConfig{Dir: snaps, Interval: 100, KeepRecent: 2}
	writeTestSnapshot(t, snaps, 2500)
	writeTestSnapshot(t, snaps, 4500)
	if got := a.retainHeight(); got != 2500 {
		t.Fatalf("oldest snapshot 2500: %d, want 2500", got)
	}
	a.retainBlocks = 0
	if got := a.retainHeight(); got != 0 {
		t.Fatalf("retain_blocks 0: %d, want 0 (keep every block)", got)
	}
	a.retainBlocks, a.height = 1000, 900
	if got := a.retainHeight(); got != 0 {
		t.Fatalf("height below retain_blocks: %d, want 0", got)
	}
}

func writeTestSnapshot(t *testing.T, dir string, h uint64) {
	t.Helper()
	it := &snapshot.SliceIterator{Entries: []snapshot.Entry{{Key: []byte{0x02}, Value: []byte("chain")}}}
	if _, err := snapshot.Create(dir, it, snapshot.Header{ChainID: "c", Height: h, AppHash: make([]byte, 32)}, snapshot.Options{}); err != nil {
		t.Fatal(err)
	}
}
