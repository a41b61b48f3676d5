package client_test

import (
	"context"
	"encoding/hex"
	"errors"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

var errCrash = errors.New("the process died here")

// crashingNode is a node whose Broadcast dies: before the transaction left
// (deliver false) or right after the node took it (deliver true).
type crashingNode struct {
	*client.Client
	deliver bool
}

func (n *crashingNode) Broadcast(ctx context.Context, tx []byte) (client.TxResult, error) {
	if n.deliver {
		if _, err := n.Client.Broadcast(ctx, tx); err != nil {
			return client.TxResult{}, err
		}
	}
	return client.TxResult{}, errCrash
}

// flowNode is a node with a registered miner (its signer polls often) and
// the validator's signer.
func flowNode(t *testing.T) (*client.Client, *client.Signer, *client.Signer, uint32) {
	t.Helper()
	n := startNode(t)
	c := dial(t, n.addr)
	val := client.NewSigner(c, testChainID, n.reportKey)
	miner := minerSigner(c)
	uid := uint32(sendWait(t, miner, registerMsg(t, c, miner), wire.EventMinerRegistered, "uid"))
	return c, val, miner, uid
}

// minerSigner is the miner key's signer on node, polling every 10 ms.
func minerSigner(node client.Node) *client.Signer {
	s := client.NewSigner(node, testChainID, key("miner"))
	s.Poll = 10 * time.Millisecond
	return s
}

func postTask(t *testing.T, val *client.Signer, submissionBlocks int64) uint64 {
	t.Helper()
	return sendWait(t, val, client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: 4, MaxBudget: "2", MaxLatencySeconds: "60",
		SubmissionBlocks: submissionBlocks, ReportBlocks: 10}), wire.EventTaskPosted, "task_id")
}

func nextNonce(t *testing.T, c *client.Client, s *client.Signer) uint64 {
	t.Helper()
	n, err := c.NextNonce(ctxT(t), s.PubKey())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestCrashBetweenStoreAndBroadcast: the salt is on disk before the commit
// leaves. A process that dies before the broadcast leaves an entry that the
// next run resumes (same salt, so the same commitment) and reveals; one that
// dies after the node took the commit leaves an entry whose stored hash
// finds the commit, and the reveal opens it.
func TestCrashBetweenStoreAndBroadcast(t *testing.T) {
	c, val, miner, uid := flowNode(t)
	ctx := ctxT(t)
	salts := store(t)
	before := postTask(t, val, 20)

	// dies before the broadcast: nothing sent, the entry is there
	p := client.WorkflowPayload(before, client.ArtifactHash("before", before))
	nonce := nextNonce(t, c, miner)
	dead := client.NewSigner(&crashingNode{Client: c}, testChainID, key("miner"))
	if _, _, err := dead.CommitPayload(ctx, salts, uid, p); !errors.Is(err, errCrash) {
		t.Fatalf("commit through a dying process: %v", err)
	}
	stored, err := salts.Load(client.Target{TaskID: before})
	if err != nil || stored.CommitTx == "" || stored.CommitHeight != 0 || stored.UID != uid {
		t.Fatalf("entry after the crash: %+v, %v", stored, err)
	}
	if got := nextNonce(t, c, miner); got != nonce {
		t.Fatalf("next nonce %d, want %d: the commit left", got, nonce)
	}
	// the next run: the same payload resumes the entry, another is refused
	if _, _, err := miner.CommitPayload(ctx, salts, uid, client.WorkflowPayload(before, client.ArtifactHash("other"))); !errors.Is(err, client.ErrRevealExists) {
		t.Fatalf("another payload for the target: %v", err)
	}
	res, err := miner.SubmitAndReveal(ctx, salts, uid, p)
	if err != nil || res.Reveal == nil || res.Pending != "" {
		t.Fatalf("resumed submit: %+v, %v", res, err)
	}
	id, _ := res.Commit.AttrU64(wire.EventSubmissionAdded, "submission_id")
	want, _ := client.Commitment(testChainID, miner.PubKey(), uid, p, stored.Salt)
	if sub, err := c.Submission(ctx, id); err != nil || sub.Commitment != hex.EncodeToString(want) || sub.RevealHeight != res.Reveal.Height {
		t.Fatalf("submission %d = %+v, %v; want the stored salt's commitment %x", id, sub, err, want)
	}

	// dies after the node took the commit
	after := postTask(t, val, 20)
	p = client.WorkflowPayload(after, client.ArtifactHash("after", after))
	dead = client.NewSigner(&crashingNode{Client: c, deliver: true}, testChainID, key("miner"))
	if _, _, err := dead.CommitPayload(ctx, salts, uid, p); !errors.Is(err, errCrash) {
		t.Fatalf("commit through a dying process: %v", err)
	}
	stored, err = salts.Load(client.Target{TaskID: after})
	if err != nil {
		t.Fatal(err)
	}
	inBlock, err := c.WaitTx(ctx, stored.CommitTx, waitFor)
	if err != nil {
		t.Fatalf("the stored hash names no commit: %v", err)
	}
	nonce = nextNonce(t, c, miner)
	got, res2, err := miner.CommitPayload(ctx, salts, uid, p)
	if err != nil || got.CommitHeight != inBlock.Height || got.SubmissionID == nil || res2.Hash != stored.CommitTx || nextNonce(t, c, miner) != nonce {
		t.Fatalf("resume of a commit on chain: %+v %+v %v (nonce %d)", got, res2, err, nonce)
	}
	if err := client.WaitRevealWindow(ctx, c, got, 10*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	rev, err := miner.RevealPending(ctx, salts, got.Target)
	if err != nil || rev.Height <= inBlock.Height {
		t.Fatalf("reveal: %+v, %v", rev, err)
	}
	if _, err := salts.Load(got.Target); !errors.Is(err, client.ErrNoPendingReveal) {
		t.Fatalf("entry after the reveal: %v", err)
	}
}

// TestRevealWindow: a reveal is never sent outside its window (before it:
// ErrRevealTooEarly; after it: ErrRevealClosed, the entry stays); a refused
// commit leaves no entry; a gas prediction's SubmitAndReveal waits for the
// EVM block's truth and reveals inside the window it opens.
func TestRevealWindow(t *testing.T) {
	c, val, miner, uid := flowNode(t)
	ctx := ctxT(t)
	salts := store(t)

	var te *client.TxError
	if _, _, err := miner.CommitPayload(ctx, salts, uid, client.WorkflowPayload(999, client.ArtifactHash("x"))); !errors.As(err, &te) || te.Code != wire.CodeUnknownTask {
		t.Fatalf("commit to an unknown task: %v", err)
	}
	if _, err := salts.Load(client.Target{TaskID: 999}); !errors.Is(err, client.ErrNoPendingReveal) {
		t.Fatalf("entry of a refused commit: %v", err)
	}

	long := postTask(t, val, 1000)
	p, _, err := miner.CommitPayload(ctx, salts, uid, client.WorkflowPayload(long, client.ArtifactHash("long")))
	if err != nil {
		t.Fatal(err)
	}
	tv, _ := c.Task(ctx, long)
	nonce := nextNonce(t, c, miner)
	_, err = miner.RevealPending(ctx, salts, p.Target)
	var we *client.RevealWindowError
	if !errors.Is(err, client.ErrRevealTooEarly) || !errors.As(err, &we) || we.First != tv.SubmitDeadline+1 || we.Last != tv.RevealDeadline || we.Closed {
		t.Fatalf("reveal in the commit window: %v (%+v)", err, we)
	}
	if nextNonce(t, c, miner) != nonce {
		t.Fatal("an early reveal was sent")
	}

	short := postTask(t, val, 5)
	p, _, err = miner.CommitPayload(ctx, salts, uid, client.WorkflowPayload(short, client.ArtifactHash("short")))
	if err != nil {
		t.Fatal(err)
	}
	tv, _ = c.Task(ctx, short)
	waitHeight(t, c, tv.RevealDeadline)
	if _, err := miner.RevealPending(ctx, salts, p.Target); !errors.Is(err, client.ErrRevealClosed) || !errors.As(err, &we) || we.Last != tv.RevealDeadline {
		t.Fatalf("reveal after the window: %v", err)
	}
	if _, err := salts.Load(p.Target); err != nil {
		t.Fatalf("the entry of a missed window is kept: %v", err)
	}
	if _, err := miner.SubmitAndReveal(ctx, salts, uid, client.WorkflowPayload(short, client.ArtifactHash("short"))); !errors.Is(err, client.ErrRevealExists) {
		t.Fatalf("commit again over a committed entry: %v", err)
	}

	// gas: the reveal waits for the truth of the EVM block
	chain := uint64(1)
	now := time.Now().Unix()
	sendWait(t, val, client.Truth(chain, 99, "20", now-3600), wire.EventTruthReceived, "evm_block")
	gp := client.GasPayload(chain, 100, "21.5")
	gt, _ := client.TargetOf(gp)
	done := async(func() (client.SubmitResult, error) { return miner.SubmitAndReveal(ctx, salts, uid, gp) })
	for {
		if e, err := salts.Load(gt); err == nil && e.CommitHeight > 0 {
			break
		}
		select {
		case o := <-done:
			t.Fatalf("gas submit ended before the truth: %+v", o)
		case <-time.After(10 * time.Millisecond):
		}
	}
	sendWait(t, val, client.Truth(chain, 100, "20", now+200), wire.EventTruthReceived, "evm_block")
	o := <-done
	tr, err := c.Truth(ctx, chain, 100)
	if o.err != nil || err != nil || o.res.Reveal == nil || o.res.Reveal.Height < *tr.RevealFrom || o.res.Reveal.Height > *tr.RevealUntil {
		t.Fatalf("gas submit %+v, %v; truth %+v, %v", o.res, o.err, tr, err)
	}
}

// outcome is what a flow run by async returned.
type outcome[T any] struct {
	res T
	err error
}

// async runs f in a goroutine; its outcome arrives on the channel.
func async[T any](f func() (T, error)) <-chan outcome[T] {
	done := make(chan outcome[T], 1)
	go func() {
		res, err := f()
		done <- outcome[T]{res, err}
	}()
	return done
}
