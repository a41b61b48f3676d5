package app

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// committedHeight reads the meta record the store holds now (not the
// app's in-memory height).
func committedHeight(t *testing.T, a *App) int64 {
	t.Helper()
	txn := a.db.NewTransactionAt(store.Latest, false)
	defer txn.Discard()
	st := store.State{O: store.NewOverlay(store.Snapshot{Txn: txn})}
	meta := &subnetv1.Meta{}
	if !st.Load(store.KeyMeta, meta) {
		return 0
	}
	return meta.Height
}

// TestPipelinedCommitWaitsForTheLastSync: in pipelined mode a block's disk
// sync runs after its Commit returns, and the next Commit writes nothing
// before that sync is done, so at most one committed block is ever off the
// disk. The sync of height 2 is held; Commit of height 3 must reach the
// wait with the store still at height 2, and return only after the release.
func TestPipelinedCommitWaitsForTheLastSync(t *testing.T) {
	n := newNodeConfig(t, Config{DataDir: t.TempDir(), Durability: DurablePipelined}, testGenesis(2))
	n.finalize()
	held := make(chan struct{})
	release := make(chan struct{})
	synced := n.app.durable.sync
	var heights []int64
	n.app.durable.sync = func() error {
		heights = append(heights, committedHeight(t, n.app))
		if len(heights) == 1 {
			close(held)
			<-release
		}
		return synced()
	}
	n.finalize() // height 2: its sync starts and is held
	<-held
	var once bool
	free := func() {
		if !once {
			once = true
			close(release)
		}
	}
	defer free() // a failure below must not leave Close waiting on the held sync
	waiting := make(chan int64, 1)
	n.app.durable.onWait = func() { waiting <- committedHeight(t, n.app) }
	done := make(chan struct{})
	go func() {
		defer close(done)
		n.finalize() // height 3
	}()
	select {
	case h := <-waiting:
		if h != 2 {
			free()
			<-done
			t.Fatalf("Commit of height 3 waited with the store at height %d: it wrote before the last sync ended", h)
		}
	case <-done:
		free()
		t.Fatal("Commit of height 3 returned while the sync of height 2 was held")
	}
	free()
	<-done
	if err := n.app.durable.wait(); err != nil {
		t.Fatal(err)
	}
	if len(heights) != 2 || heights[0] != 2 || heights[1] != 3 {
		t.Fatalf("the syncs saw heights %v, want [2 3]", heights)
	}
	if got := n.app.durable.syncs; got != 3 {
		t.Fatalf("%d syncs started over 3 commits", got)
	}
}

// TestFailedSyncStopsTheNextCommit: a disk that fails the sync of a block
// stops the node at the next Commit (a power loss could otherwise cost more
// than one block), and Close reports it.
func TestFailedSyncStopsTheNextCommit(t *testing.T) {
	n := newNodeConfig(t, Config{DataDir: t.TempDir(), Durability: DurablePipelined}, testGenesis(2))
	n.finalize()
	n.app.durable.sync = func() error { return errors.New("disk on fire") }
	n.finalize()
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(r.(string), "disk sync of height 2: disk on fire") {
			t.Fatalf("Commit after a failed sync: %v", r)
		}
	}()
	n.finalize()
}

// TestEveryBlockDurabilityStartsNoSync: durability "block" (the default) leaves the
// sync to badger's synchronous writes; the results are the same.
func TestEveryBlockDurabilityStartsNoSync(t *testing.T) {
	g := testGenesis(2)
	a := newNodeConfig(t, Config{DataDir: t.TempDir()}, g)
	b := newNodeConfig(t, Config{DataDir: t.TempDir(), Durability: DurablePipelined}, g)
	for i := 0; i < 3; i++ {
		a.finalize()
		b.finalize()
	}
	if a.app.durable.syncs != 0 || b.app.durable.syncs != 3 {
		t.Fatalf("syncs: every-block %d, pipelined %d", a.app.durable.syncs, b.app.durable.syncs)
	}
	if string(a.hashes[3]) != string(b.hashes[3]) {
		t.Fatal("the app hash depends on durability")
	}
}

func TestParseDurability(t *testing.T) {
	for in, want := range map[string]Durability{"": DurableEveryBlock, "pipelined": DurablePipelined, "block": DurableEveryBlock} {
		if got, err := ParseDurability(in); err != nil || got != want {
			t.Fatalf("%q: %v %v", in, got, err)
		}
	}
	if _, err := ParseDurability("fsync"); err == nil || !strings.Contains(err.Error(), `"pipelined"`) {
		t.Fatalf("fsync: %v", err)
	}
}

// TestPipelinedStateWhileABlockLands: until a committed block's write has
// landed in badger (held here before its landing is announced), the
// committed state is the block's own writes over the version before — a
// reader at the new version could see part of the block, as badger makes
// its entries visible one by one. CheckTx and the next proposal see the
// block's writes (the reporter's next nonce), and a query waits for the
// landing, then answers at the block's height.
func TestPipelinedStateWhileABlockLands(t *testing.T) {
	n := newNodeConfig(t, Config{DataDir: t.TempDir(), Durability: DurablePipelined}, testGenesis(2))
	r := reporter(0)
	mustOK(t, n.block(r.tx(t, msgWorkflowTask(4, 1000, 10)))) // height 1: task 0
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	defer free() // a failure below must not leave Close waiting on the held write
	n.app.durable.onLand = func() { <-release }
	mustOK(t, n.block(r.tx(t, msgWorkflowTask(4, 1000, 10)))) // height 2: task 1, its landing held
	if n.app.top == nil || n.app.snap.ReadTs() != 1 {
		t.Fatalf("while height 2 lands the committed state reads version %d with %d overlays over it, want version 1 under the block's writes",
			n.app.snap.ReadTs(), len(n.app.top))
	}
	next := r.tx(t, msgWorkflowTask(4, 1000, 10))
	if resp, err := n.app.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: next}); err != nil || resp.Code != wire.CodeOK {
		t.Fatalf("CheckTx at the nonce after the landing block's: %v %v", resp, err)
	}
	prop, err := n.app.ProcessProposal(context.Background(), &abcitypes.RequestProcessProposal{Height: 3, Time: blockTime(3),
		Txs: [][]byte{next}, Hash: []byte("proposal while landing")})
	if err != nil || prop.Status != abcitypes.ResponseProcessProposal_ACCEPT {
		t.Fatalf("a proposal at height 3 over the landing block: %v %v", prop, err)
	}
	answered := make(chan *abcitypes.ResponseQuery, 1)
	go func() {
		resp, _ := n.app.Query(context.Background(), &abcitypes.RequestQuery{Path: "task/1"})
		answered <- resp
	}()
	select {
	case resp := <-answered:
		t.Fatalf("a query answered (code %d, height %d) before the block it reads had landed", resp.Code, resp.Height)
	case <-time.After(200 * time.Millisecond):
	}
	free()
	if resp := <-answered; resp.Code != wire.QueryOK || resp.Height != 2 {
		t.Fatalf("task 1 after the landing: code %d at height %d (%s), want found at height 2", resp.Code, resp.Height, resp.Log)
	}
	mustOK(t, n.block(next))
}
