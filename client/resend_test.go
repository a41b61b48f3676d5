package client_test

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	cfg "github.com/cometbft/cometbft/config"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/testnode"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// flushMempool empties the node's mempool and its cache with CometBFT's
// unsafe_flush_mempool (rpc.unsafe): what a node killed with transactions
// in its mempool loses. The app's CheckTx state still counts them until the
// next block.
func flushMempool(t *testing.T, addr string) {
	t.Helper()
	resp, err := http.Get(strings.Replace(addr, "tcp://", "http://", 1) + "/unsafe_flush_mempool")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("unsafe_flush_mempool: %s", resp.Status)
	}
}

// TestSignerRecoversLostTxs: a key's transactions are taken by CheckTx and
// then dropped from the mempool before a block could include them (three
// flushed, a fourth sent after the flush on the count the check state still
// had, then evicted by the recheck as a gap). The Signer counts them lost
// LostAfter blocks later, sends the same bytes again from the committed
// nonce on, and every one of them is committed, in nonce order (task ids 0
// to 3), under its first hash. Without Recover, WaitTx would wait in vain.
func TestSignerRecoversLostTxs(t *testing.T) {
	n := testnode.Start(t, testnode.Options{ChainID: testChainID, Config: func(c *cfg.Config) {
		c.RPC.Unsafe = true
		c.Consensus.TimeoutCommit = time.Second // room to flush between two blocks
	}})
	ctx := testnode.Ctx(t)
	val := client.NewSigner(n.Client, testChainID, n.ReportKey)
	val.LostAfter = 2
	var mu sync.Mutex
	var recs []client.Recovery
	val.OnRecover = func(r client.Recovery) { mu.Lock(); recs = append(recs, r); mu.Unlock() }

	task := func(i int) *subnetv1.Msg {
		return client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: int64(i + 1), MaxBudget: "1", MaxLatencySeconds: "1",
			SubmissionBlocks: 1000, ReportBlocks: 10})
	}
	h, err := n.Client.Height(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n.WaitHeight(t, h+1) // just after a block: a second before the next
	var hashes []string
	send := func(i int) {
		res, err := val.Send(ctx, task(i))
		if err != nil {
			t.Fatalf("send %d: %v", i, err)
		}
		hashes = append(hashes, res.Hash)
	}
	for i := range 3 {
		send(i)
	}
	flushMempool(t, n.Addr)
	send(3)
	if got := val.InFlight(); got != 4 {
		t.Fatalf("in flight %d, want 4", got)
	}
	for i, hash := range hashes {
		res, err := val.WaitTx(ctx, hash, time.Minute)
		if err != nil || res.Height <= 0 || res.Hash != hash {
			t.Fatalf("tx %d (%s): %+v, %v", i, hash, res, err)
		}
		if id, err := res.AttrU64(wire.EventTaskPosted, "task_id"); err != nil || id != uint64(i) {
			t.Fatalf("tx %d: task %d, %v", i, id, err)
		}
	}
	mu.Lock()
	resent := map[string]bool{}
	for _, r := range recs {
		for _, h := range r.Resent {
			resent[h] = true
		}
		if len(r.Resigned)+len(r.Refused) > 0 {
			t.Errorf("recovery %+v: nothing was to be signed again or refused", r)
		}
	}
	mu.Unlock()
	for i, h := range hashes {
		if !resent[h] {
			t.Errorf("tx %d (%s) was not resent (recoveries %+v): the flush did not drop it", i, h, recs)
		}
	}
	if got, err := n.Client.CommittedNonce(ctx, val.PubKey()); err != nil || got != 4 {
		t.Fatalf("committed nonce %d, %v; want 4", got, err)
	}
	if val.InFlight() != 0 {
		t.Fatalf("in flight after the blocks: %d", val.InFlight())
	}
}

// TestSignerResignsWhenNonceTaken: a transaction is taken by CheckTx and
// flushed from the mempool; before it is found lost, another signer of the
// same key (another process) has its own transaction committed at that
// nonce. Recover finds the nonce used and the first hash in no block, so it
// signs the lost message again at the next nonce, and WaitTx follows it to
// its block under the new hash: the message runs once.
func TestSignerResignsWhenNonceTaken(t *testing.T) {
	n := testnode.Start(t, testnode.Options{ChainID: testChainID, Config: func(c *cfg.Config) {
		c.RPC.Unsafe = true
		c.Consensus.TimeoutCommit = time.Second
	}})
	ctx := testnode.Ctx(t)
	a := client.NewSigner(n.Client, testChainID, n.ReportKey)
	a.LostAfter = 2
	var recs []client.Recovery
	a.OnRecover = func(r client.Recovery) { recs = append(recs, r) }
	h, err := n.Client.Height(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n.WaitHeight(t, h+1)
	lost, err := a.Send(ctx, client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: 7, MaxBudget: "1", MaxLatencySeconds: "1",
		SubmissionBlocks: 1000, ReportBlocks: 10}))
	if err != nil {
		t.Fatal(err)
	}
	flushMempool(t, n.Addr)
	h, err = n.Client.Height(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n.WaitHeight(t, h+1) // the check state is the committed one again
	b := client.NewSigner(n.Client, testChainID, n.ReportKey)
	other, err := b.SendWait(ctx, client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: 8, MaxBudget: "1", MaxLatencySeconds: "1",
		SubmissionBlocks: 1000, ReportBlocks: 10}), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.WaitTx(ctx, lost.Hash, time.Minute)
	if err != nil || res.Height <= other.Height || res.Hash == lost.Hash {
		t.Fatalf("lost tx %s: %+v, %v; want it committed under a new hash after block %d", lost.Hash, res, err, other.Height)
	}
	if id, err := res.AttrU64(wire.EventTaskPosted, "task_id"); err != nil || id != 1 {
		t.Fatalf("re-signed tx: task %d, %v; want task 1 (task 0 is the other signer's)", id, err)
	}
	var resigned []client.Resigned
	for _, r := range recs {
		resigned = append(resigned, r.Resigned...)
	}
	if len(resigned) != 1 || resigned[0].Old != lost.Hash || resigned[0].New != res.Hash {
		t.Fatalf("recoveries %+v: want one re-sign %s -> %s", recs, lost.Hash, res.Hash)
	}
	in, err := n.Client.BlockTxHashes(ctx, res.Height)
	if err != nil || !slices.Contains(in, res.Hash) {
		t.Fatalf("block %d's txs %v (%v): want %s among them", res.Height, in, err, res.Hash)
	}
	if got, err := n.Client.CommittedNonce(ctx, a.PubKey()); err != nil || got != 2 {
		t.Fatalf("committed nonce %d, %v; want 2", got, err)
	}
}
