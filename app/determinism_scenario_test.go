package app

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/scoringsubnet/validatord/app/commitment"
	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// workload returns 14 blocks of signed transactions touching every message
// and every end-of-block path (quorum, deadline, expiry, arena batches, gas
// closes at the end of reveal windows, a truth final at its deadline,
// duplicates, unrevealed commits, two epochs). Blocks are bytes: every node
// can be fed the same ones. Run it on workloadGenesis.
//
// Submission ids: at h2 miner i commits 4i (workflow task 0), 4i+1 (arena
// task 1), 4i+2 (EVM 1/10) and 4i+3 (EVM 8453/7); at h3 20+i (workflow
// task 2); at h4 25+i (EVM 1/11); at h8 miner 0 commits 30 (EVM 1/12); at
// h9 miners 1 and 2 commit 31 and 32 (workflow task 3).
func workload(t testing.TB) [][][]byte {
	miners := make([]*signer, 5)
	for i := range miners {
		miners[i] = newMiner(fmt.Sprintf("w-miner-%d", i), uint32(i+1))
	}
	r := []*signer{reporter(0), reporter(1), reporter(2), reporter(3)}
	// miner 4 commits miner 0's workflow and miner 3 miner 1's arena run:
	// 16 is a duplicate of 0, and 13 of 5 (miner 3 reveals first, then
	// miner 1's earlier claim displaces it)
	wf0 := func(i int) *subnetv1.MsgSubmit {
		if i == 4 {
			return wfPayloadOf(miners[0], 0)
		}
		return wfPayloadOf(miners[i], 0)
	}
	arena1 := func(i int) *subnetv1.MsgSubmit {
		if i == 3 {
			return arenaPayloadOf(miners[1], 1)
		}
		return arenaPayloadOf(miners[i], 1)
	}
	gas10 := func(i int) *subnetv1.MsgSubmit { return gasPayload(1, 10, fmt.Sprintf("%d.5", 8+i)) }
	gas7 := func(i int) *subnetv1.MsgSubmit { return gasPayload(8453, 7, fmt.Sprintf("0.0%d", i+1)) }
	gas11 := func(i int) *subnetv1.MsgSubmit { return gasPayload(1, 11, fmt.Sprintf("%d", 9+i%2)) }
	var blocks [][][]byte
	// h1: task 0 (workflow) and 1 (arena) take commits to h3, reveals at h4,
	// reports h5..h7; task 2 (workflow) commits to h4, reveals at h5,
	// reports h6..h9
	var b1 [][]byte
	for _, m := range miners {
		b1 = append(b1, m.tx(t, msgRegister()))
	}
	b1 = append(b1, r[0].tx(t, msgWorkflowTask(4, 2, 3)), r[1].tx(t, msgArenaTask(5, 2, 3)), r[2].tx(t, msgWorkflowTask(2, 3, 4)))
	// anchors: EVM block 9 of chain 1 and block 6 of chain 8453 close, so both take commits
	b1 = append(b1, anchorTxs(t, r[:3], 1, 9, 1_700_000_001)...)
	b1 = append(b1, anchorTxs(t, r[:3], 8453, 6, 1_700_000_001)...)
	blocks = append(blocks, b1)
	// h2 (…012): the commits of tasks 0 and 1 and of EVM blocks 1/10 and
	// 8453/7; at its end the anchors' reveal windows close the new agents
	// with nothing
	var b2 [][]byte
	for i, m := range miners {
		b2 = append(b2, m.commit(t, wf0(i)), m.commit(t, arena1(i)), m.commit(t, gas10(i)), m.commit(t, gas7(i)))
	}
	blocks = append(blocks, b2)
	// h3: task 2's commits; the truth of 1/10 (final: its reveals at h4)
	var b3 [][]byte
	for i, m := range miners {
		b3 = append(b3, m.commit(t, wfPayloadOf(miners[i], 2)))
	}
	for v := 0; v < 3; v++ {
		b3 = append(b3, r[v].tx(t, msgTruth(1, 10, fmt.Sprintf("%d", 9+v), 1_700_000_030)))
	}
	blocks = append(blocks, b3)
	// h4: the reveals of tasks 0 and 1 (arena in reverse miner order) and of
	// 1/10 but miner 4's (unrevealed at the close, the end of h4); the
	// commits of 1/11; a first truth of 8453/7
	var b4 [][]byte
	for i, m := range miners {
		b4 = append(b4, m.reveal(t, wf0(i)))
	}
	for i := len(miners) - 1; i >= 0; i-- {
		b4 = append(b4, miners[i].reveal(t, arena1(i)))
	}
	for i, m := range miners[:4] {
		b4 = append(b4, m.reveal(t, gas10(i)))
	}
	for i, m := range miners {
		b4 = append(b4, m.commit(t, gas11(i)))
	}
	b4 = append(b4, r[3].tx(t, msgTruth(8453, 7, "0.03", 1_700_000_010)))
	blocks = append(blocks, b4)
	// h5: reports with different measurements per validator (weighted
	// medians matter) on every revealed task 0 and 1 submission but the
	// duplicates; task 2's reveals but miner 4's; the truth of 1/11
	var b5 [][]byte
	for sub := uint64(0); sub < 20; sub += 4 {
		for v := 0; v < 3; v++ {
			if sub != 16 {
				wm := workflowM()
				wm.OutputQuality = fmt.Sprintf("0.%d", 6+v+int(sub%3))
				wm.Retries = int64(v)
				b5 = append(b5, r[v].tx(t, msgWorkflowReport(sub, wm)))
			}
			if sub+1 != 13 {
				am := arenaM()
				am.TotalTokens = int64(5000 + 1000*v + int(sub)*100)
				b5 = append(b5, r[(v+1)%4].tx(t, msgArenaReport(sub+1, am)))
			}
		}
	}
	for i, m := range miners[:4] {
		b5 = append(b5, m.reveal(t, wfPayloadOf(miners[i], 2)))
	}
	for v := 0; v < 3; v++ {
		b5 = append(b5, r[v].tx(t, msgTruth(1, 11, "9.5", 1_700_000_040)))
	}
	blocks = append(blocks, b5)
	for h := 6; h <= 14; h++ {
		var bx [][]byte
		switch h {
		case 6: // the reveals of 1/11 (closed at the end of h6); reports on 20 and 8453/7
			for i, m := range miners {
				bx = append(bx, m.reveal(t, gas11(i)))
			}
			// validator 0 agrees with validator 3's truth: 22 of 42 settle at the
			// deadline only when the median is bracketed (both sides ≥ 1/3)
			bx = append(bx, r[0].tx(t, msgWorkflowReport(20, twoSteps())), r[0].tx(t, msgTruth(8453, 7, "0.03", 1_700_000_010)))
		case 7: // 20 has 22 of 42: settled at task 2's deadline, h9
			bx = append(bx, r[1].tx(t, msgWorkflowReport(20, twoSteps())))
		case 8: // 8453/7 final at its deadline (22 of 42); task 3: commits to h10, reveal h11, reports h12..h13
			bx = append(bx, miners[0].commit(t, gasPayload(1, 12, "10")), r[0].tx(t, msgWorkflowTask(3, 2, 2)))
		case 9: // the reveals of 8453/7 (late: committed at …012 for …010); 1/12 final
			for i, m := range miners {
				bx = append(bx, m.reveal(t, gas7(i)))
			}
			for v := 0; v < 3; v++ {
				bx = append(bx, r[v].tx(t, msgTruth(1, 12, "10", 1_700_000_100)))
			}
			bx = append(bx, miners[1].commit(t, wfPayloadOf(miners[1], 3)), miners[2].commit(t, wfPayloadOf(miners[2], 3)))
		case 10:
			bx = append(bx, miners[0].reveal(t, gasPayload(1, 12, "10")))
		case 11: // 31 revealed and expires at h13; 32 never revealed
			bx = append(bx, miners[1].reveal(t, wfPayloadOf(miners[1], 3)))
		}
		blocks = append(blocks, bx)
	}
	return blocks
}

// workloadGenesis has four validators of power 12, 10, 10, 10 (total 42):
// the workload's deadline settlements (submission 20 by validators 0 and 1,
// the truth of 8453/7 by validators 3 and 0) hold 22, more than the deadline
// quorum 1/2 and not more than 2/3; any three validators are a quorum.
// Truth rounds last 4 blocks, so that 8453/7 (opened at h4) is final at
// its deadline h8 and closes after its reveals at h9.
func workloadGenesis() genesis.AppState {
	g := powersGenesis(12, 10, 10, 10)
	g.Chain.TruthReportBlocks = 4
	return g
}

// workloadStatuses are the statuses the workload leaves: it reaches every
// end-of-block path it says it does.
var workloadStatuses = map[uint64]string{
	0: kernel.StatusScored, 1: kernel.StatusScored, 2: kernel.StatusCounted, 3: kernel.StatusLate, 5: kernel.StatusScored, 13: kernel.StatusDuplicate, 16: kernel.StatusDuplicate,
	18: kernel.StatusUnrevealed, 20: kernel.StatusScored, 21: kernel.StatusExpired, 24: kernel.StatusUnrevealed, 25: kernel.StatusScored, 30: kernel.StatusScored,
	31: kernel.StatusExpired, 32: kernel.StatusUnrevealed,
}

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
	for id, want := range workloadStatuses {
		if s, _ := n1.query(fmt.Sprintf("submission/%d", id)); s["status"] != want {
			t.Errorf("submission %d = %v, want %s", id, s["status"], want)
		}
	}
	checkFullHash(t, n1.app)
	checkFullHash(t, n2.app)
}

// checkFullHash recomputes the lanes from a scan of every stored key of
// the hashed set, and the record trees from the records and their slots,
// and compares them with the incrementally maintained lanes, tree nodes and
// app hash.
func checkFullHash(t *testing.T, a *App) {
	t.Helper()
	var full store.Lanes
	var trees commitment.Rebuilder
	nodes := map[string][]byte{}
	txn := a.db.NewTransactionAt(store.Latest, false)
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
		if !store.Hashed(k) {
			nodes[string(k)] = v
			continue
		}
		full.Add(k, v)
		trees.Add(k, v)
		keys++
	}
	rebuilt := 0
	roots, err := trees.Finish(func(k, v []byte) error {
		if !bytes.Equal(nodes[string(k)], v) {
			return fmt.Errorf("tree node %x: rebuilt %x, stored %x", k, v, nodes[string(k)])
		}
		rebuilt++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if rebuilt != len(nodes) {
		t.Fatalf("rebuilt %d tree nodes, the store holds %d", rebuilt, len(nodes))
	}
	if full != a.lanes || !bytes.Equal(commitment.AppHash(full.Sum(), roots), a.AppHash()) {
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
	scored := 0
	for id := 0; ; id++ {
		s, code := ref.query(fmt.Sprintf("submission/%d", id))
		if code != wire.QueryOK {
			break
		}
		if s["status"] == kernel.StatusScored {
			scored++
		}
	}
	if scored < 14 || ref.receipts != scored {
		t.Fatalf("the workload's blocks verified %d scored receipts of %d scored submissions; the harness should check every one", ref.receipts, scored)
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
