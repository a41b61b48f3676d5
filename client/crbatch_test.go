package client_test

import (
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// commitOf is testSender's commit to p under uid 1 with a zero salt.
func commitOf(t *testing.T, p *subnetv1.MsgSubmit) *subnetv1.Msg {
	t.Helper()
	m, err := client.Commit(testChainID, testSender, 1, p, client.Salt{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCommitAndRevealBatchShape: the builders refuse what the chain would
// refuse whole, with its code (81 no entries or more than 256, 82 a target
// twice), and a message that is not a commit or a reveal; a good batch
// carries the entries in order.
func TestCommitAndRevealBatchShape(t *testing.T) {
	wf, gas, gas2 := client.WorkflowPayload(3, make([]byte, 32)), client.GasPayload(1, 100, "2"), client.GasPayload(1, 100, "3")
	var many []*subnetv1.Msg
	for b := range uint64(wire.MaxBatch + 1) {
		many = append(many, commitOf(t, client.GasPayload(1, b, "1")))
	}
	for _, tc := range []struct {
		name string
		err  error
		code uint32
	}{
		{"no commits", errOf(client.CommitBatch()), wire.CodeBatchSize},
		{"257 commits", errOf(client.CommitBatch(many...)), wire.CodeBatchSize},
		{"an EVM block twice", errOf(client.CommitBatch(commitOf(t, gas), commitOf(t, wf), commitOf(t, gas2))), wire.CodeDuplicateBatchEntry},
		{"no reveals", errOf(client.RevealBatch()), wire.CodeBatchSize},
		{"a task twice, as a workflow and an arena run", errOf(client.RevealBatch(client.Reveal(wf, client.Salt{}), client.Reveal(client.ArenaPayload(3, make([]byte, 32)), client.Salt{}))), wire.CodeDuplicateBatchEntry},
		{"a reveal in a commit batch", errOf(client.CommitBatch(client.Reveal(wf, client.Salt{}))), 0},
		{"a commit in a reveal batch", errOf(client.RevealBatch(commitOf(t, wf))), 0},
	} {
		var te *wire.TxError
		switch {
		case tc.err == nil:
			t.Errorf("%s: built", tc.name)
		case tc.code != 0 && (!errors.As(tc.err, &te) || te.Code != tc.code):
			t.Errorf("%s: %v, want code %d", tc.name, tc.err, tc.code)
		}
	}
	b, err := client.CommitBatch(commitOf(t, gas), commitOf(t, wf))
	if err != nil || len(b.GetCommitBatch().Entries) != 2 || b.GetCommitBatch().Entries[1].GetTaskId() != 3 {
		t.Fatalf("commit batch %v, %v", b, err)
	}
	r, err := client.RevealBatch(client.Reveal(gas, client.Salt{1}), client.Reveal(wf, client.Salt{2}))
	if err != nil || len(r.GetRevealBatch().Entries) != 2 || r.GetRevealBatch().Entries[1].Salt[0] != 2 {
		t.Fatalf("reveal batch %v, %v", r, err)
	}
}

func errOf(_ *subnetv1.Msg, err error) error { return err }

// TestBatchEntries: a batch's block result read back per entry: target,
// code, log, and the submission an applied entry created.
func TestBatchEntries(t *testing.T) {
	ev := testEvent
	res := client.TxResult{Events: []client.Event{
		ev(wire.EventCommitEntry, "index", "0", "evm_chain_id", "1", "evm_block", "100", "code", "0", "name", "ok"),
		ev(wire.EventSubmissionAdded, "submission_id", "7", "uid", "1"),
		ev(wire.EventCommitEntry, "index", "1", "evm_chain_id", "1", "evm_block", "120", "code", "34", "name", "prediction_too_far", "log", "too far"),
		ev(wire.EventCommitEntry, "index", "2", "task_id", "3", "code", "0", "name", "ok"),
		ev(wire.EventSubmissionAdded, "submission_id", "8"),
	}}
	seven, eight := uint64(7), uint64(8)
	want := []client.EntryOutcome{
		{Target: client.Target{Gas: true, EVMChainID: 1, EVMBlock: 100}, Code: 0, Name: "ok", SubmissionID: &seven},
		{Target: client.Target{Gas: true, EVMChainID: 1, EVMBlock: 120}, Code: 34, Name: "prediction_too_far", Log: "too far"},
		{Target: client.Target{TaskID: 3}, Code: 0, Name: "ok", SubmissionID: &eight},
	}
	if got := client.BatchEntries(res, wire.EventCommitEntry); !reflect.DeepEqual(got, want) {
		t.Fatalf("entries %+v, want %+v", got, want)
	}
}

// TestSaltStoreTargets: the targets of a store's entries, tasks first and
// EVM blocks in numeric order; a temporary file is none.
func TestSaltStoreTargets(t *testing.T) {
	st := store(t)
	if ts, err := st.Targets(); err != nil || ts != nil {
		t.Fatalf("empty store: %v, %v", ts, err)
	}
	for _, p := range []*subnetv1.MsgSubmit{client.GasPayload(1, 100, "1"), client.GasPayload(1, 99, "1"), client.WorkflowPayload(12, make([]byte, 32)),
		client.GasPayload(8453, 5, "1"), client.WorkflowPayload(2, make([]byte, 32))} {
		tg, _ := client.TargetOf(p)
		if err := st.Create(client.PendingReveal{Target: tg, Sender: testSender, UID: 1, Payload: p}); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(st.Dir(), ".tmp-evm-1-7.json-123"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	want := []client.Target{{TaskID: 2}, {TaskID: 12}, {Gas: true, EVMChainID: 1, EVMBlock: 99}, {Gas: true, EVMChainID: 1, EVMBlock: 100},
		{Gas: true, EVMChainID: 8453, EVMBlock: 5}}
	if got, err := st.Targets(); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("targets %v, %v; want %v", got, err, want)
	}
}

// TestSubmitRunAndRevealInBatches: a gas agent commits to EVM blocks 100
// … 103 and 120 in one transaction (120 is past max_prediction_ahead: that
// entry is refused and its salt file removed), then reveals the run in
// batches as the truths become final: 100 and 101 first, then 102 and 103,
// whose truths are sent only after the first two were revealed. Nothing
// stays pending.
func TestSubmitRunAndRevealInBatches(t *testing.T) {
	c, val, miner, uid := flowNode(t)
	ctx := ctxT(t)
	salts := store(t)
	chain := uint64(1)
	now := time.Now().Unix()
	sendWait(t, val, client.Truth(chain, 99, "20", now-3600), wire.EventTruthReceived, "evm_block")
	var ps []*subnetv1.MsgSubmit
	for _, b := range []uint64{100, 101, 102, 103, 120} {
		ps = append(ps, client.GasPayload(chain, b, "21.5"))
	}
	done := async(func() (client.BatchResult, error) { return miner.SubmitAllAndReveal(ctx, salts, uid, ps) })
	// until the store holds exactly the four applied entries, committed
	waitStore := func(want int) {
		t.Helper()
		for {
			ts, err := salts.Targets()
			committed := 0
			for _, tg := range ts {
				if e, err := salts.Load(tg); err == nil && e.CommitHeight > 0 {
					committed++
				}
			}
			if err == nil && len(ts) == want && committed == want {
				return
			}
			select {
			case o := <-done:
				t.Fatalf("the run ended early: %+v, %v", o.res, o.err)
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	waitStore(4)
	sendWait(t, val, client.Truth(chain, 100, "20", now+200), wire.EventTruthReceived, "evm_block")
	sendWait(t, val, client.Truth(chain, 101, "20", now+201), wire.EventTruthReceived, "evm_block")
	waitStore(2)
	sendWait(t, val, client.Truth(chain, 102, "20", now+202), wire.EventTruthReceived, "evm_block")
	sendWait(t, val, client.Truth(chain, 103, "20", now+203), wire.EventTruthReceived, "evm_block")
	o := <-done
	if o.err != nil || o.res.Commit == nil || len(o.res.CommitEntries) != 5 || o.res.CommitEntries[4].Code != wire.CodePredictionTooFar {
		t.Fatalf("run: %+v, %v", o.res, o.err)
	}
	if len(o.res.Reveals) < 2 || len(o.res.RevealEntries) != 4 || len(o.res.Pending) != 0 {
		t.Fatalf("reveals: %d txs, entries %+v, pending %v", len(o.res.Reveals), o.res.RevealEntries, o.res.Pending)
	}
	for i, e := range o.res.RevealEntries {
		sub, err := c.Submission(ctx, *e.SubmissionID)
		if e.Code != wire.CodeOK || err != nil || sub.RevealHeight == 0 {
			t.Fatalf("reveal entry %d: %+v; submission %+v, %v", i, e, sub, err)
		}
	}
	if ts, err := salts.Targets(); err != nil || len(ts) != 0 {
		t.Fatalf("left in the store: %v, %v", ts, err)
	}
}

// testEvent is an event of type typ with the attributes kv (key, value, …).
func testEvent(typ string, kv ...string) client.Event {
	e := client.Event{Type: typ}
	for i := 0; i < len(kv); i += 2 {
		e.Attributes = append(e.Attributes, client.Attribute{Key: kv[i], Value: kv[i+1]})
	}
	return e
}

// TestGasRun: one price for every block or one per block; a run of no
// blocks, more than 256, past the largest block number or with another
// count of prices is refused.
func TestGasRun(t *testing.T) {
	run, err := client.GasRun(8453, 100, 3, []string{"1.5"})
	if err != nil || len(run) != 3 || run[2].GetGas().EvmBlock != 102 || run[2].GetGas().Price != "1.5" || run[0].GetGas().EvmChainId != 8453 {
		t.Fatalf("one price: %v, %v", run, err)
	}
	run, err = client.GasRun(1, 7, 2, []string{"1", "2"})
	if err != nil || run[0].GetGas().Price != "1" || run[1].GetGas().Price != "2" || run[1].GetGas().EvmBlock != 8 {
		t.Fatalf("a price per block: %v, %v", run, err)
	}
	for _, tc := range []struct {
		first  uint64
		n      int
		prices []string
	}{{1, 0, []string{"1"}}, {1, wire.MaxBatch + 1, []string{"1"}}, {^uint64(0), 2, []string{"1"}}, {1, 3, []string{"1", "2"}}, {1, 1, nil}} {
		if _, err := client.GasRun(1, tc.first, tc.n, tc.prices); err == nil {
			t.Errorf("run of %d from %d with %d prices: built", tc.n, tc.first, len(tc.prices))
		}
	}
}

// TestRevealBatchesFitATransaction: 256 gas reveals with 18-place prices
// do not fit one 16 KiB transaction; RevealBatches splits them, in order,
// into batches that each do when signed. 256 gas commits fit one.
func TestRevealBatchesFitATransaction(t *testing.T) {
	var reveals []*subnetv1.Msg
	for b := range uint64(wire.MaxBatch) {
		reveals = append(reveals, client.Reveal(client.GasPayload(8453, 20_000_000+b, "21.300000000000000001"), client.Salt{1}))
	}
	batches, err := client.RevealBatches(reveals...)
	if err != nil || len(batches) != 2 {
		t.Fatalf("%d batches, %v; want 2", len(batches), err)
	}
	next := uint64(20_000_000)
	for i, b := range batches {
		tx, err := wire.SignTx("a-chain-id-of-some-length", key("miner"), 1<<40, b)
		if err != nil || len(tx) > 16*1024 {
			t.Fatalf("batch %d: %d bytes signed, %v", i, len(tx), err)
		}
		for _, e := range b.GetRevealBatch().Entries {
			if e.GetSubmit().GetGas().EvmBlock != next {
				t.Fatalf("batch %d: block %d, want %d", i, e.GetSubmit().GetGas().EvmBlock, next)
			}
			next++
		}
	}
	if next != 20_000_000+wire.MaxBatch {
		t.Fatalf("%d reveals in the batches, want %d", next-20_000_000, wire.MaxBatch)
	}
	// 256 commits do fit: `tx submit gas --blocks 256` is one transaction
	var commits []*subnetv1.Msg
	for b := range uint64(wire.MaxBatch) {
		commits = append(commits, commitOf(t, client.GasPayload(8453, 20_000_000+b, "1")))
	}
	cb, err := client.CommitBatch(commits...)
	if tx, serr := wire.SignTx("a-chain-id-of-some-length", key("miner"), 1<<40, cb); err != nil || serr != nil || len(tx) > 16*1024 {
		t.Fatalf("256 commits: %d bytes signed, %v, %v", len(tx), err, serr)
	}
	if one, err := client.RevealBatch(reveals...); err == nil {
		if tx, _ := wire.SignTx("c", key("miner"), 1, one); len(tx) <= 16*1024 {
			t.Fatalf("256 reveals take %d bytes in one transaction: the split is not needed", len(tx))
		}
	}
}

// TestCommitBatchCrash: every salt of a commit batch is on disk before the
// batch leaves. A process that dies before the broadcast leaves entries
// that the next run with the same payloads resumes (same salts, so the
// same commitments); one that dies after the node took the batch leaves
// entries whose stored hash finds it: each gets its own entry's submission,
// an entry the batch refused is removed, and committing the payloads again
// is refused, since they are on chain.
func TestCommitBatchCrash(t *testing.T) {
	c, val, miner, uid := flowNode(t)
	ctx := ctxT(t)
	salts := store(t)
	t1, t2 := postTask(t, val, 20), postTask(t, val, 20)
	ps := []*subnetv1.MsgSubmit{client.WorkflowPayload(t1, client.ArtifactHash("b1")), client.WorkflowPayload(t2, client.ArtifactHash("b2"))}
	nonce := nextNonce(t, c, miner)
	dead := client.NewSigner(&crashingNode{Client: c}, testChainID, key("miner"))
	if _, err := dead.CommitPayloads(ctx, salts, uid, ps); !errors.Is(err, errCrash) {
		t.Fatalf("commit batch through a dying process: %v", err)
	}
	var kept []client.PendingReveal
	for _, tg := range []client.Target{{TaskID: t1}, {TaskID: t2}} {
		e, err := salts.Load(tg)
		if err != nil || e.CommitTx == "" || e.CommitHeight != 0 {
			t.Fatalf("entry of %s after the crash: %+v, %v", tg, e, err)
		}
		kept = append(kept, e)
	}
	if got := nextNonce(t, c, miner); got != nonce {
		t.Fatalf("next nonce %d, want %d: the batch left", got, nonce)
	}
	res, err := miner.CommitPayloads(ctx, salts, uid, ps)
	if err != nil || len(res.CommitEntries) != 2 {
		t.Fatalf("resumed batch: %+v, %v", res, err)
	}
	for i, e := range res.CommitEntries {
		want, _ := client.Commitment(testChainID, miner.PubKey(), uid, ps[i], kept[i].Salt)
		if sub, err := c.Submission(ctx, *e.SubmissionID); err != nil || sub.Commitment != hex.EncodeToString(want) {
			t.Fatalf("entry %d: submission %+v, %v; want the stored salt's commitment %x", i, sub, err, want)
		}
	}

	// dies after the node took the batch; its entry for task 9999 (no such
	// task) is refused
	t3, t4 := postTask(t, val, 20), postTask(t, val, 20)
	ps = []*subnetv1.MsgSubmit{client.WorkflowPayload(t3, client.ArtifactHash("b3")), client.WorkflowPayload(9999, client.ArtifactHash("b9")),
		client.WorkflowPayload(t4, client.ArtifactHash("b4"))}
	dead = client.NewSigner(&crashingNode{Client: c, deliver: true}, testChainID, key("miner"))
	if _, err := dead.CommitPayloads(ctx, salts, uid, ps); !errors.Is(err, errCrash) {
		t.Fatalf("commit batch through a dying process: %v", err)
	}
	e3, err := salts.Load(client.Target{TaskID: t3})
	if err != nil {
		t.Fatal(err)
	}
	inBlock, err := c.WaitTx(ctx, e3.CommitTx, waitFor)
	if err != nil {
		t.Fatalf("the stored hash names no batch: %v", err)
	}
	if _, err := miner.CommitPayloads(ctx, salts, uid, ps); !errors.Is(err, client.ErrRevealExists) {
		t.Fatalf("the same batch again, on chain: %v", err)
	}
	targets := []client.Target{{TaskID: t3}, {TaskID: 9999}, {TaskID: t4}}
	out, left, err := miner.RevealOpen(ctx, salts, targets)
	if err != nil || len(out.Reveals) != 0 || len(left) != 2 || len(out.Waiting) != 3 {
		t.Fatalf("reveal in the commit window: %+v, left %v, %v", out, left, err)
	}
	for _, e := range client.BatchEntries(inBlock, wire.EventCommitEntry) {
		got, err := salts.Load(e.Target)
		if e.Code != wire.CodeOK {
			if !errors.Is(err, client.ErrNoPendingReveal) {
				t.Fatalf("the refused entry %s is still stored: %v", e.Target, err)
			}
			continue
		}
		if err != nil || got.CommitHeight != inBlock.Height || got.SubmissionID == nil || *got.SubmissionID != *e.SubmissionID {
			t.Fatalf("entry %s: %+v, %v; want submission %d at height %d", e.Target, got, err, *e.SubmissionID, inBlock.Height)
		}
	}
}

// TestCommitBatchResentAfterItLanded: a resumed batch whose earlier copy
// landed after all (its stored hash named a copy that never left, as when
// the copy the node took was signed again by a resend) is refused entry by
// entry as second commits (28); the entries stay stored, because the
// earlier copy's commitment is the stored salt's, and they reveal it.
func TestCommitBatchResentAfterItLanded(t *testing.T) {
	c, val, miner, uid := flowNode(t)
	ctx := ctxT(t)
	salts := store(t)
	t1 := postTask(t, val, 6)
	ps := []*subnetv1.MsgSubmit{client.WorkflowPayload(t1, client.ArtifactHash("r1"))}
	dead := client.NewSigner(&crashingNode{Client: c, deliver: true}, testChainID, key("miner"))
	if _, err := dead.CommitPayloads(ctx, salts, uid, ps); !errors.Is(err, errCrash) {
		t.Fatalf("commit batch through a dying process: %v", err)
	}
	e, err := salts.Load(client.Target{TaskID: t1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitTx(ctx, e.CommitTx, waitFor); err != nil {
		t.Fatalf("the first copy: %v", err)
	}
	e.CommitTx = hex.EncodeToString(make([]byte, 32)) // a copy no block holds
	if err := salts.Update(e); err != nil {
		t.Fatal(err)
	}
	miner = client.NewSigner(c, testChainID, key("miner")) // the next run's, which reads the nonce anew
	miner.Poll = 20 * time.Millisecond
	// a batch of one refused entry is refused whole, with the entry's code
	res, err := miner.CommitPayloads(ctx, salts, uid, ps)
	var te *client.TxError
	if !errors.As(err, &te) || te.Code != wire.CodeDuplicateSubmission {
		t.Fatalf("the batch again: %+v, %v; want it refused as a second commit", res, err)
	}
	if _, err := salts.Load(client.Target{TaskID: t1}); err != nil {
		t.Fatalf("the entry after the refused copy: %v; want it kept", err)
	}
	// beside a new entry the batch applies: the resumed entry is refused
	// alone, and stays
	t2 := postTask(t, val, 6)
	ps = append(ps, client.WorkflowPayload(t2, client.ArtifactHash("r2")))
	res, err = miner.CommitPayloads(ctx, salts, uid, ps)
	if err != nil || len(res.CommitEntries) != 2 || res.CommitEntries[0].Code != wire.CodeDuplicateSubmission || res.CommitEntries[1].Code != wire.CodeOK {
		t.Fatalf("the batch with a new entry: %+v, %v", res, err)
	}
	kept, err := salts.Load(client.Target{TaskID: t1})
	if err != nil || kept.CommitHeight == 0 {
		t.Fatalf("the resumed entry refused in an applied batch: %+v, %v; want it kept, committed", kept, err)
	}
	out, err := miner.RevealAll(ctx, salts, []client.Target{{TaskID: t1}, {TaskID: t2}}, 20*time.Millisecond)
	if err != nil || len(out.RevealEntries) != 2 || out.RevealEntries[0].Code != wire.CodeOK || out.RevealEntries[1].Code != wire.CodeOK {
		t.Fatalf("reveal with the stored salt: %+v, %v", out, err)
	}
}
