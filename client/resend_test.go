package client_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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

// flushableNode starts a node whose mempool a test can flush (rpc.unsafe)
// and whose blocks come a second apart: room to flush between two blocks.
func flushableNode(t *testing.T) *testnode.Node {
	return testnode.Start(t, testnode.Options{ChainID: testChainID, Config: func(c *cfg.Config) {
		c.RPC.Unsafe = true
		c.Consensus.TimeoutCommit = time.Second
	}})
}

// TestSignerRecoversLostTxs: a key's transactions are taken by CheckTx and
// then dropped from the mempool before a block could include them (three
// flushed, a fourth sent after the flush on the count the check state still
// had, then evicted by the recheck as a gap). The Signer counts them lost
// LostAfter blocks later, sends the same bytes again from the committed
// nonce on, and every one of them is committed, in nonce order (task ids 0
// to 3), under its first hash. Without Recover, WaitTx would wait in vain.
func TestSignerRecoversLostTxs(t *testing.T) {
	n := flushableNode(t)
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
	n := flushableNode(t)
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

// flakyNode is a node whose broadcasts can be made to go unanswered (the
// node killed between the look-up and the send; with delivered, killed
// after CheckTx took the transaction but before it answered), its queries
// still served.
type flakyNode struct {
	*client.Client
	down, delivered atomic.Bool
}

func (f *flakyNode) Broadcast(ctx context.Context, tx []byte) (client.TxResult, error) {
	if f.down.Load() {
		if f.delivered.Load() {
			if _, err := f.Client.Broadcast(ctx, tx); err != nil {
				return client.TxResult{}, err
			}
		}
		return client.TxResult{}, errors.New("connection refused")
	}
	return f.Client.Broadcast(ctx, tx)
}

// TestSignerKeepsWhatRecoverCouldNotSend: a lost transaction whose nonce
// went to another transaction must be signed again, but no node answers the
// broadcast; with a second lost one behind it, the broadcast that fails is
// the resend of that one, before the re-sign is tried. Either way the
// Signer keeps both in flight (the one it tried to sign again under its
// new hash: the broadcast's fate is unknown), and once the node answers
// again every one is committed. Before, such a failure dropped the transactions still to be
// signed again from the flight: at 900 commits/s with a node killed every
// 20 s, 14 transactions CheckTx took ended in no block while every sender
// had nothing in flight. With delivered, the re-signed copy reached the
// mempool and only the answer was lost: it is committed, found under its new
// hash, and the message runs once (signing it again at the next free nonce
// would have run it twice).
func TestSignerKeepsWhatRecoverCouldNotSend(t *testing.T) {
	for _, c := range []struct{ behind, delivered bool }{{false, false}, {true, false}, {false, true}} {
		behind := c.behind
		t.Run(fmt.Sprintf("behind=%v,delivered=%v", c.behind, c.delivered), func(t *testing.T) {
			n := flushableNode(t)
			ctx := testnode.Ctx(t)
			node := &flakyNode{Client: n.Client}
			a := client.NewSigner(node, testChainID, n.ReportKey)
			a.LostAfter = 2
			task := func(steps int64) *subnetv1.Msg {
				return client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: steps, MaxBudget: "1", MaxLatencySeconds: "1",
					SubmissionBlocks: 1000, ReportBlocks: 10})
			}
			h, err := n.Client.Height(ctx)
			if err != nil {
				t.Fatal(err)
			}
			n.WaitHeight(t, h+1)
			var lost []string
			for i := range 1 + btoi(behind) {
				res, err := a.Send(ctx, task(int64(7+i)))
				if err != nil {
					t.Fatal(err)
				}
				lost = append(lost, res.Hash)
			}
			flushMempool(t, n.Addr)
			if _, err := a.Recover(ctx); err != nil { // the first look: LostAfter counts from here
				t.Fatal(err)
			}
			h, err = n.Client.Height(ctx)
			if err != nil {
				t.Fatal(err)
			}
			n.WaitHeight(t, h+1)
			b := client.NewSigner(n.Client, testChainID, n.ReportKey)
			other, err := b.SendWait(ctx, task(9), time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			n.WaitHeight(t, other.Height+3) // past LostAfter
			node.down.Store(true)
			node.delivered.Store(c.delivered)
			if _, err := a.Recover(ctx); err == nil {
				t.Fatal("Recover with no node answering: no error")
			}
			if got := a.InFlight(); got != len(lost) {
				t.Fatalf("in flight after a failed Recover: %d, want %d", got, len(lost))
			}
			node.down.Store(false)
			for _, hash := range lost {
				res, err := a.WaitTx(ctx, hash, time.Minute)
				if err != nil || res.Height <= other.Height {
					t.Fatalf("lost tx %s: %+v, %v; want it committed after block %d", hash, res, err, other.Height)
				}
			}
			if got, err := n.Client.CommittedNonce(ctx, a.PubKey()); err != nil || got != uint64(2+btoi(behind)) {
				t.Fatalf("committed nonce %d, %v; want %d", got, err, 2+btoi(behind))
			}
		})
	}
}

// TestWaitTxReturnsARefusal: a truth CheckTx took is lost from the
// mempool, and meanwhile the same key's truth of a later EVM block closes
// the chain past it, so the app refuses the lost one when Recover sends it
// again (code 33 evm_block_closed). WaitTx returns that refusal (the
// caller, e.g. the oracle, then moves on) rather than polling for a
// transaction that can no longer be in any block until its timeout.
func TestWaitTxReturnsARefusal(t *testing.T) {
	n := flushableNode(t)
	ctx := testnode.Ctx(t)
	a := client.NewSigner(n.Client, testChainID, n.ReportKey)
	a.LostAfter = 2
	now := time.Now().Unix()
	lost, err := a.Send(ctx, client.Truth(1, 5, "1", now))
	if err != nil {
		t.Fatal(err)
	}
	flushMempool(t, n.Addr)
	h, err := n.Client.Height(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n.WaitHeight(t, h+1) // the check state, which still counted the lost one, is reset
	b := client.NewSigner(n.Client, testChainID, n.ReportKey)
	later, err := b.SendWait(ctx, client.Truth(1, 6, "1", now), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	n.WaitHeight(t, later.Height+1)
	_, err = a.WaitTx(ctx, lost.Hash, 30*time.Second)
	var te *client.TxError
	if !errors.As(err, &te) || te.Code != wire.CodeEVMBlockClosed {
		t.Fatalf("WaitTx of the lost truth: %v, want its refusal (code %d)", err, wire.CodeEVMBlockClosed)
	}
	if got := a.InFlight(); got != 0 {
		t.Fatalf("in flight after the refusal: %d", got)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// hookNode runs before, once, ahead of the next broadcast after it is set:
// another process of the same key acting between the Signer's read of the
// nonce and its broadcast.
type hookNode struct {
	*client.Client
	mu     sync.Mutex
	before func()
}

func (h *hookNode) Broadcast(ctx context.Context, tx []byte) (client.TxResult, error) {
	h.mu.Lock()
	f := h.before
	h.before = nil
	h.mu.Unlock()
	if f != nil {
		f()
	}
	return h.Client.Broadcast(ctx, tx)
}

// TestSignerResignsPastAnotherSendersMempoolTx: a lost transaction's nonce
// went to another sender of the same key, so Recover signs it again at the
// committed nonce; just before that broadcast the other sender has a new
// transaction taken into the mempool at that very nonce. The re-signed copy
// is refused as nonce_used: that says nothing about the message, so the
// Signer reads the pending nonce again and signs past the other one, and
// WaitTx follows the message to its block. Before, the refusal was taken
// for the message's answer: the validator daemon and a person's `tx` on one
// key lost a governance proposal this way under load.
func TestSignerResignsPastAnotherSendersMempoolTx(t *testing.T) {
	n := flushableNode(t)
	ctx := testnode.Ctx(t)
	node := &hookNode{Client: n.Client}
	a := client.NewSigner(node, testChainID, n.ReportKey)
	a.LostAfter = 2
	task := func(steps int64) *subnetv1.Msg {
		return client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: steps, MaxBudget: "1", MaxLatencySeconds: "1",
			SubmissionBlocks: 1000, ReportBlocks: 10})
	}
	h, err := n.Client.Height(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n.WaitHeight(t, h+1)
	lost, err := a.Send(ctx, task(7))
	if err != nil {
		t.Fatal(err)
	}
	flushMempool(t, n.Addr)
	h, err = n.Client.Height(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n.WaitHeight(t, h+1)
	b := client.NewSigner(n.Client, testChainID, n.ReportKey)
	if _, err := b.SendWait(ctx, task(8), time.Minute); err != nil {
		t.Fatal(err)
	}
	var pending client.TxResult
	node.mu.Lock()
	node.before = func() {
		var err error
		if pending, err = b.Send(ctx, task(9)); err != nil {
			t.Errorf("the other sender's second tx: %v", err)
		}
	}
	node.mu.Unlock()
	res, err := a.WaitTx(ctx, lost.Hash, time.Minute)
	if err != nil || res.Height <= 0 || res.Hash == lost.Hash {
		t.Fatalf("lost tx %s: %+v, %v; want it committed under a new hash", lost.Hash, res, err)
	}
	other, err := b.WaitTx(ctx, pending.Hash, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	steps := func(r client.TxResult) uint64 {
		id, err := r.AttrU64(wire.EventTaskPosted, "task_id")
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	if a, b := steps(res), steps(other); a != 2 || b != 1 {
		t.Fatalf("task ids: re-signed %d, the other sender's second %d; want 2 and 1", a, b)
	}
	if got, err := n.Client.CommittedNonce(ctx, a.PubKey()); err != nil || got != 3 {
		t.Fatalf("committed nonce %d, %v; want 3", got, err)
	}
}
