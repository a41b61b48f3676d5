package app

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// workload returns 14 blocks of signed transactions touching every message
// and every end-of-block path (quorum, deadline, expiry, arena batches, gas
// closes, two epochs). Blocks are bytes: every node can be fed the same ones.
// Run it on workloadGenesis.
func workload(t testing.TB) [][][]byte {
	miners := make([]*signer, 5)
	for i := range miners {
		miners[i] = newSigner(fmt.Sprintf("w-miner-%d", i))
	}
	r := []*signer{reporter(0), reporter(1), reporter(2), reporter(3)}
	var blocks [][][]byte
	var b1 [][]byte
	for _, m := range miners {
		b1 = append(b1, m.tx(t, msgRegister()))
	}
	b1 = append(b1, r[0].tx(t, msgWorkflowTask(4, 4, 4)), r[1].tx(t, msgArenaTask(5, 4, 4)), r[2].tx(t, msgWorkflowTask(2, 6, 2)))
	// anchors: EVM block 9 of chain 1 and block 6 of chain 8453 close, so both take predictions
	b1 = append(b1, anchorTxs(t, r[:3], 1, 9, 1_700_000_001)...)
	b1 = append(b1, anchorTxs(t, r[:3], 8453, 6, 1_700_000_001)...)
	blocks = append(blocks, b1)
	var b2 [][]byte
	for i, m := range miners {
		b2 = append(b2, m.tx(t, msgWorkflowSubmit(0)), m.tx(t, msgArenaSubmit(1)),
			m.tx(t, msgGas(1, 10, fmt.Sprintf("%d.5", 8+i))), m.tx(t, msgGas(8453, 7, fmt.Sprintf("0.0%d", i+1))))
	}
	blocks = append(blocks, b2)
	// b3: reports with different measurements per validator (weighted medians matter).
	var b3 [][]byte
	for sub := uint64(0); sub < 20; sub += 4 {
		for v := 0; v < 3; v++ {
			wm := workflowM()
			wm.OutputQuality = fmt.Sprintf("0.%d", 6+v+int(sub%3))
			wm.Retries = int64(v)
			b3 = append(b3, r[v].tx(t, msgWorkflowReport(sub, wm)))
			am := arenaM()
			am.TotalTokens = int64(5000 + 1000*v + int(sub)*100)
			b3 = append(b3, r[(v+1)%4].tx(t, msgArenaReport(sub+1, am)))
		}
	}
	for v := 0; v < 3; v++ {
		b3 = append(b3, r[v].tx(t, msgTruth(1, 10, fmt.Sprintf("%d", 9+v), 1_700_000_030)))
	}
	blocks = append(blocks, b3)
	var b4 [][]byte
	for i, m := range miners {
		b4 = append(b4, m.tx(t, msgGas(1, 11, fmt.Sprintf("%d", 9+i%2))), m.tx(t, msgWorkflowSubmit(2)))
	}
	b4 = append(b4, r[3].tx(t, msgTruth(8453, 7, "0.03", 1_700_000_010)))
	blocks = append(blocks, b4)
	var b5 [][]byte
	for v := 0; v < 3; v++ {
		b5 = append(b5, r[v].tx(t, msgTruth(1, 11, "9.5", 1_700_000_040)))
	}
	b5 = append(b5, r[0].tx(t, msgWorkflowReport(21, twoSteps())))
	blocks = append(blocks, b5)
	for h := 6; h <= 14; h++ {
		var bx [][]byte
		if h == 6 {
			bx = append(bx, r[1].tx(t, msgWorkflowReport(21, twoSteps())), r[0].tx(t, msgTruth(8453, 7, "0.02", 1_700_000_010)))
		}
		if h == 8 {
			bx = append(bx, miners[0].tx(t, msgGas(1, 12, "10")), r[0].tx(t, msgWorkflowTask(3, 2, 2)))
		}
		if h == 9 {
			for v := 0; v < 3; v++ {
				bx = append(bx, r[v].tx(t, msgTruth(1, 12, "10", 1_700_000_100)))
			}
			bx = append(bx, miners[1].tx(t, msgWorkflowSubmit(3)))
		}
		blocks = append(blocks, bx)
	}
	return blocks
}

// workloadGenesis has four validators of power 12, 10, 10, 10 (total 42):
// the workload's deadline settlements (submission 21 by validators 0 and 1,
// the truth of 8453/7 by validators 3 and 0) hold 22, more than the deadline
// quorum 1/2 and not more than 2/3; any three validators are a quorum.
func workloadGenesis() genesis.AppState { return powersGenesis(12, 10, 10, 10) }

// TestTwoAppsSameHashes: two apps (one in memory, one on disk) fed the same
// blocks agree on every tx code and app hash at every height, and the
// workload does change the hash at each block with transactions.
func TestTwoAppsSameHashes(t *testing.T) {
	blocks := workload(t)
	n1 := newNode(t, "", workloadGenesis())
	n2 := newNode(t, t.TempDir(), workloadGenesis())
	for i, txs := range blocks {
		r1, r2 := n1.block(txs...), n2.block(txs...)
		if !bytes.Equal(r1.AppHash, r2.AppHash) {
			t.Fatalf("height %d: app hashes differ", i+1)
		}
		for j := range r1.TxResults {
			if r1.TxResults[j].Code != r2.TxResults[j].Code {
				t.Fatalf("height %d tx %d: codes differ", i+1, j)
			}
			if r1.TxResults[j].Code != wire.CodeOK {
				t.Fatalf("height %d tx %d: %s", i+1, j, r1.TxResults[j].Log)
			}
		}
		if len(txs) > 0 && bytes.Equal(n1.hashes[i], r1.AppHash) {
			t.Fatalf("height %d: a block of %d txs left the hash unchanged", i+1, len(txs))
		}
	}
	ep, code := n1.query("epoch/2")
	if code != wire.QueryOK {
		t.Fatalf("epoch 2 missing after 14 blocks: %v", ep)
	}
	checkFullHash(t, n1.app)
	checkFullHash(t, n2.app)
}

// checkFullHash recomputes the lanes from a scan of every stored key and
// compares them with the incrementally maintained lanes and app hash.
func checkFullHash(t *testing.T, a *App) {
	t.Helper()
	var full store.Lanes
	txn := a.db.NewTransaction(false)
	defer txn.Discard()
	it := txn.NewIterator(badgerIterOpts())
	defer it.Close()
	keys := 0
	for it.Rewind(); it.Valid(); it.Next() {
		k := it.Item().KeyCopy(nil)
		if bytes.Equal(k, store.KeyMeta) {
			continue
		}
		v, err := it.Item().ValueCopy(nil)
		if err != nil {
			t.Fatal(err)
		}
		full.Add(k, v)
		keys++
	}
	if full != a.lanes || !bytes.Equal(full.Sum(), a.AppHash()) {
		t.Fatalf("full-state hash over %d keys differs from the incremental one", keys)
	}
}

// TestRestartContinues: a node on disk closed and reopened mid-chain (and
// once after FinalizeBlock without Commit, as in a crash) continues with the
// same hashes as an uninterrupted node.
func TestRestartContinues(t *testing.T) {
	blocks := workload(t)
	g := workloadGenesis()
	ref := newNode(t, "", g)
	for _, txs := range blocks {
		ref.block(txs...)
	}
	if ref.receipts < 17 {
		t.Fatalf("the workload's blocks verified %d scored receipts; the harness should check every one", ref.receipts)
	}
	dir := t.TempDir()
	n := newNode(t, dir, g)
	for i, txs := range blocks {
		if i == 4 || i == 9 {
			// crash after FinalizeBlock, before Commit: the block is lost and replayed
			finalizeOnly(t, n, n.height+1, txs)
			n = reopen(t, n, dir)
		}
		resp := n.block(txs...)
		if !bytes.Equal(resp.AppHash, ref.hashes[i+1]) {
			t.Fatalf("height %d: hash after restart differs", i+1)
		}
		if i == 6 {
			n = reopen(t, n, dir)
		}
	}
	checkFullHash(t, n.app)
}

func reopen(t *testing.T, n *node, dir string) *node {
	t.Helper()
	if err := n.app.Close(); err != nil {
		t.Fatal(err)
	}
	a, err := New(Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	info, _ := a.Info(context.Background(), &abcitypes.RequestInfo{})
	if info.LastBlockHeight != n.height {
		t.Fatalf("Info height %d, want %d", info.LastBlockHeight, n.height)
	}
	if !bytes.Equal(info.LastBlockAppHash, n.hashes[n.height]) {
		t.Fatalf("Info app hash differs from the last committed one")
	}
	return &node{t: t, app: a, height: n.height, hashes: n.hashes}
}

// TestInitChainNotPersistedUntilCommit: a node that stops after InitChain
// reports height 0 and accepts InitChain again with the same genesis hash.
func TestInitChainNotPersistedUntilCommit(t *testing.T) {
	dir := t.TempDir()
	g := testGenesis(2)
	a, err := New(Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	r1, err := a.InitChain(context.Background(), initRequest(t, g))
	if err != nil {
		t.Fatal(err)
	}
	_ = a.Close()
	b, err := New(Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.Height() != 0 {
		t.Fatalf("height %d after InitChain only, want 0", b.Height())
	}
	r2, err := b.InitChain(context.Background(), initRequest(t, g))
	if err != nil || !bytes.Equal(r1.AppHash, r2.AppHash) {
		t.Fatalf("second InitChain: %v, same hash %v", err, bytes.Equal(r1.AppHash, r2.AppHash))
	}
}

func twoSteps() *subnetv1.WorkflowMeasurement {
	m := workflowM()
	m.StepsCompleted = 2
	return m
}
