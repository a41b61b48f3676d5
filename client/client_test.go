package client_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

const waitFor = 20 * time.Second

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// sendWait sends msg and returns the value of attribute key of event typ.
// registerMsg is the signer's registration with its work solved against
// the node's newest block (client.RegisterWork).
func registerMsg(t *testing.T, c *client.Client, s *client.Signer) *subnetv1.Msg {
	t.Helper()
	var slices int
	msg, err := client.RegisterWork(ctxT(t), c, s.ChainID(), s.PubKey(), func(client.WorkProgress) { slices++ })
	if err != nil || slices == 0 {
		t.Fatalf("registration work: %v (%d progress calls)", err, slices)
	}
	return msg
}

func sendWait(t *testing.T, s *client.Signer, msg *subnetv1.Msg, typ, key string) uint64 {
	t.Helper()
	res, err := s.SendWait(ctxT(t), msg, waitFor)
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	if res.Height <= 0 {
		t.Fatalf("result without height: %+v", res)
	}
	v, err := res.AttrU64(typ, key)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// store is an empty SaltStore of the test chain in a temp home.
func store(t *testing.T) *client.SaltStore {
	t.Helper()
	st, err := client.NewSaltStore(t.TempDir(), testChainID, testSender)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// waitHeight waits until the app has committed height h.
func waitHeight(t *testing.T, c *client.Client, h int64) {
	t.Helper()
	if _, err := c.WaitAppHeight(ctxT(t), h, 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
}

// submitted is SubmitAndReveal that must succeed; it returns the
// submission id, and checks that the reveal landed inside the task's window.
func submitted(t *testing.T, c *client.Client, s *client.Signer, st *client.SaltStore, uid uint32, p *subnetv1.MsgSubmit) uint64 {
	t.Helper()
	res, err := s.SubmitAndReveal(ctxT(t), st, uid, p)
	if err != nil || res.Reveal == nil || res.Pending != "" {
		t.Fatalf("submit and reveal: %+v, %v", res, err)
	}
	sub, err := res.Commit.AttrU64(wire.EventSubmissionAdded, "submission_id")
	if err != nil {
		t.Fatal(err)
	}
	target, _ := client.TargetOf(p)
	tv, err := c.Task(ctxT(t), target.TaskID)
	if err != nil || res.Commit.Height > tv.SubmitDeadline || res.Reveal.Height <= tv.SubmitDeadline || res.Reveal.Height > tv.RevealDeadline {
		t.Fatalf("commit at %d, reveal at %d; task %+v (%v)", res.Commit.Height, res.Reveal.Height, tv, err)
	}
	if v, err := res.Reveal.AttrU64(wire.EventSubmissionRevealed, "submission_id"); err != nil || v != sub {
		t.Fatalf("reveal of submission %d: %v %v", sub, v, err)
	}
	waitHeight(t, c, tv.RevealDeadline) // reports come after the reveal window
	return sub
}

// TestEveryTrackThroughTheClient drives the three tracks through a real node
// with the builders and a Signer (commits and reveals through the salt
// store), and reads every query back as a typed view.
func TestEveryTrackThroughTheClient(t *testing.T) {
	n := startNode(t)
	ctx := ctxT(t)
	c := dial(t, n.addr)
	st, err := c.NodeStatus(ctx)
	if err != nil || st.ChainID != testChainID || st.Height < 1 {
		t.Fatalf("node status %+v, %v", st, err)
	}
	val := client.NewSigner(c, st.ChainID, n.reportKey)
	miner := client.NewSigner(c, st.ChainID, key("miner"))
	miner.Poll = 10 * time.Millisecond
	if _, err := miner.UID(ctx); !errors.Is(err, client.ErrNotMiner) {
		t.Fatalf("uid before registration: %v", err)
	}
	uid := uint32(sendWait(t, miner, registerMsg(t, c, miner), wire.EventMinerRegistered, "uid"))
	if got, err := miner.UID(ctx); err != nil || got != uid {
		t.Fatalf("uid %d, %v; want %d", got, err, uid)
	}
	salts := store(t)
	task := sendWait(t, val, client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: 4, MaxBudget: "2", MaxLatencySeconds: "60",
		SubmissionBlocks: 20, ReportBlocks: 100}), wire.EventTaskPosted, "task_id")
	sub := submitted(t, c, miner, salts, uid, client.WorkflowPayload(task, client.ArtifactHash("workflow", task)))
	sendWait(t, val, client.ReportWorkflow(sub, &subnetv1.WorkflowMeasurement{OutputQuality: "0.9", StepsCompleted: 3, Cost: "0.5",
		LatencySeconds: "30", Retries: 2, DeclaredRetryBudget: 1, Timeouts: 1}), wire.EventReportReceived, "submission_id")
	got, err := c.Submission(ctx, sub)
	if err != nil || got.Status != "scored" || got.Receipt == nil || got.Receipt.Score == "" || len(got.Votes) != 1 ||
		got.Votes[0].Workflow == nil || got.Votes[0].Workflow.DeclaredRetryBudget != 1 || got.Votes[0].Arena != nil || got.TaskID == nil || *got.TaskID != task ||
		got.RevealHeight <= got.Height || got.Duplicate || len(got.Receipt.Commit) != 3 {
		t.Fatalf("submission %d = %+v, %v", sub, got, err)
	}
	if tv, err := c.Task(ctx, task); err != nil || tv.Workflow == nil || tv.Workflow.TotalSteps != 4 || tv.Arena != nil || tv.Submissions != 1 {
		t.Fatalf("task = %+v, %v", tv, err)
	}
	if w, err := c.Window(ctx, uid); err != nil || w.Workflow == nil || len(w.Workflow.Scores) != 1 || w.Workflow.Aggregate == nil || w.Arena != nil {
		t.Fatalf("window = %+v, %v", w, err)
	}
	// register, commit, reveal
	if acc, err := c.Account(ctx, miner.PubKey()); err != nil || !acc.Miner || acc.UID == nil || *acc.UID != uid || acc.NextNonce != 3 {
		t.Fatalf("account = %+v, %v", acc, err)
	}
	if acc, err := c.Account(ctx, val.PubKey()); err != nil || acc.Validator == nil || *acc.Validator != "val0" {
		t.Fatalf("validator's account = %+v, %v", acc, err)
	}
	// Arena: scored at the end of the block against the default baseline.
	arena := n.gen.Arena
	atask := sendWait(t, val, client.PostArenaTask(&subnetv1.ArenaTask{Category: arena.Categories[0].Name, Difficulty: arena.Difficulties[0].Name,
		CriteriaTotal: 10, SubmissionBlocks: 20, ReportBlocks: 100}), wire.EventTaskPosted, "task_id")
	asub := submitted(t, c, miner, salts, uid, client.ArenaPayload(atask, client.ArtifactHash("arena", atask)))
	sendWait(t, val, client.ReportArena(asub, &subnetv1.ArenaMeasurement{TotalTokens: 2500, ToolCalls: 8, Iterations: 3,
		ExecutionTime: "42", EstimatedCost: "0.05", CriteriaPassed: 9}), wire.EventReportReceived, "submission_id")
	if b, err := c.Baseline(ctx, atask); err != nil || b.Baseline == nil || !b.UsesDefault {
		t.Fatalf("baseline = %+v, %v", b, err)
	}
	// Gas: a truth anchors EVM chain 1; a prediction of block 100 is
	// committed, block 100's truth (timestamped after the commit) makes
	// its reveal window open, and the window's end closes it.
	now := time.Now().Unix()
	chain := n.gen.Chain.GasChains[0]
	sendWait(t, val, client.Truth(chain, 99, "20", now-3600), wire.EventTruthReceived, "evm_block")
	gp := client.GasPayload(chain, 100, "21.5")
	pending, res, err := miner.CommitPayload(ctx, salts, uid, gp)
	if err != nil || pending.CommitHeight != res.Height || pending.SubmissionID == nil {
		t.Fatalf("gas commit: %+v %+v %v", pending, res, err)
	}
	if err := client.CheckRevealWindow(ctx, c, pending); !errors.Is(err, client.ErrRevealTooEarly) {
		t.Fatalf("gas reveal before the truth: %v", err)
	}
	sendWait(t, val, client.Truth(chain, 100, "20", now+200), wire.EventTruthReceived, "evm_block")
	tr, err := c.Truth(ctx, chain, 100)
	if err != nil || tr.Status != "final" || tr.ClosedHeight == nil || tr.RevealFrom == nil || *tr.RevealFrom != *tr.ClosedHeight+1 ||
		*tr.RevealUntil != *tr.ClosedHeight+testRevealBlocks || tr.MinPrice == nil || len(tr.Votes) != 1 {
		t.Fatalf("truth = %+v, %v", tr, err)
	}
	if err := client.WaitRevealWindow(ctx, c, pending, 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	rev, err := miner.RevealPending(ctx, salts, pending.Target)
	if err != nil || rev.Height < *tr.RevealFrom || rev.Height > *tr.RevealUntil {
		t.Fatalf("gas reveal %+v, %v; truth %+v", rev, err, tr)
	}
	waitHeight(t, c, *tr.RevealUntil) // closed at the end of the window
	if g, err := c.GasAgent(ctx, uid, chain); err != nil || g.Closed != 1 || len(g.Memory) != 1 || !g.Memory[0].Included {
		gs, _ := c.Submission(ctx, *pending.SubmissionID)
		t.Fatalf("gas agent = %+v, %v; submission %+v", g, err, gs)
	}
	if _, err := c.Truth(ctx, chain, 5); !isQueryNotFound(err) {
		t.Fatalf("truth of a block nobody reported: %v", err)
	}
	as, _ := c.Submission(ctx, asub)
	if as == nil || as.Status != "scored" {
		t.Fatalf("arena submission = %+v", as)
	}
	if r, err := c.TaskResults(ctx, atask); err != nil || r.Scored != 1 || len(r.Results) != 1 || r.Results[0].SubmissionID != asub ||
		r.Results[0].Rank != 1 || r.Results[0].OverallScore != as.Receipt.Score || r.Category != arena.Categories[0].Name {
		t.Fatalf("task %d results = %+v, %v", atask, r, err)
	}
	if _, err := c.TaskResults(ctx, 0); !isQueryNotFound(err) {
		t.Fatalf("results of the workflow task: %v", err)
	}
	for _, track := range []string{"workflow", "arena"} { // gas scores once the memory is full
		lb, err := c.Leaderboard(ctx, track)
		if err != nil || lb.Track != track || len(lb.Miners) != 1 || lb.Miners[0].UID != uid {
			t.Fatalf("leaderboard %s = %+v, %v", track, lb, err)
		}
	}
	m, err := c.Miner(ctx, uid)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Aggregate("workflow"); !ok {
		t.Fatalf("miner = %+v", m)
	}
	// An epoch every 5 blocks (long passed).
	ep, err := c.LatestEpoch(ctx)
	if err != nil || ep.Epoch == nil || ep.Epoch.Number < 1 || len(ep.Epoch.U16) == 0 {
		t.Fatalf("latest epoch = %+v, %v", ep, err)
	}
	if one, err := c.Epoch(ctx, 1); err != nil || one.Epoch.Number != 1 {
		t.Fatalf("epoch 1 = %+v, %v", one, err)
	}
	w, err := client.Weights(ctx, c, client.WeightsRequest{Epoch: 1})
	if err != nil || w.Epoch != 1 || len(w.UIDs) != len(w.Weights) || w.ScoreDigest == "" || w.AppHash == "" || w.NetUID != nil {
		t.Fatalf("weights of epoch 1 = %+v, %v", w, err)
	}
	if d, err := c.Digest(ctx); err != nil || len(d.ScoreDigest) != 64 || d.ScoreEntries == 0 {
		t.Fatalf("digest = %+v, %v", d, err)
	}
	if s, err := c.Status(ctx); err != nil || s.ChainID == nil || *s.ChainID != testChainID || s.AppHash == "" {
		t.Fatalf("status = %+v, %v", s, err)
	}
	if v, err := c.Validators(ctx); err != nil || v.TotalPower != 10 || len(v.Validators) != 1 {
		t.Fatalf("validators = %+v, %v", v, err)
	}
	if p, err := c.Params(ctx); err != nil || p.ChainID != testChainID || len(p.AppState) == 0 {
		t.Fatalf("params = %+v, %v", p, err)
	}
}

// TestErrorsAndNonces: refusals and failed queries are typed errors with the
// code and its name; the Signer recovers from a wrong nonce; several
// transactions of one key may be in the mempool at once.
func isQueryNotFound(err error) bool {
	var qe *client.QueryError
	return errors.As(err, &qe) && qe.Code == wire.QueryNotFound
}

func TestErrorsAndNonces(t *testing.T) {
	n := startNode(t)
	ctx := ctxT(t)
	c := dial(t, n.addr)

	if _, err := client.Dial("127.0.0.1:26657"); !errors.As(err, new(*client.AddrError)) {
		t.Fatalf("dial without scheme: %v", err)
	}
	var qe *client.QueryError
	if _, err := c.Miner(ctx, 999); !errors.As(err, &qe) || qe.Code != wire.QueryNotFound || qe.Name != "not_found" {
		t.Fatalf("miner 999: %v", err)
	}
	if _, err := c.Query(ctx, "no/such/path"); !errors.As(err, &qe) || qe.Code != wire.QueryBadRequest || qe.Name != "bad_request" {
		t.Fatalf("bad path: %v", err)
	}

	miner := client.NewSigner(c, testChainID, key("miner"))
	if _, err := miner.SendWait(ctx, registerMsg(t, c, miner), waitFor); err != nil {
		t.Fatal(err)
	}
	// a commit for a block of an EVM chain no truth anchored yet
	unanchored := func(block uint64) *subnetv1.Msg {
		m, err := client.Commit(testChainID, miner.PubKey(), 1, client.GasPayload(1, block, "1"), client.Salt{})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	var te *client.TxError
	res, err := miner.Send(ctx, registerMsg(t, c, miner))
	if !errors.As(err, &te) || te.Code != wire.CodeAlreadyMiner || te.Name != "already_miner" || res.Code != wire.CodeAlreadyMiner {
		t.Fatalf("second registration: %+v, %v", res, err)
	}

	// A stale and a future nonce: the Signer re-reads it and the send goes through.
	for _, wrong := range []uint64{0, 99} {
		miner.SetNonce(wrong)
		if _, err := miner.SendWait(ctx, unanchored(1), waitFor); !errors.As(err, &te) || te.Code != wire.CodeEVMChainUnanchored {
			t.Fatalf("nonce %d: %v, want the app's verdict on the message (code %d)", wrong, err, wire.CodeEVMChainUnanchored)
		}
	}

	// BroadcastCommit of bytes signed at a used nonce: CheckTx's refusal.
	stale := client.NewSigner(c, testChainID, key("miner"))
	stale.SetNonce(0)
	tx, err := stale.Sign(ctx, unanchored(2))
	if err != nil {
		t.Fatal(err)
	}
	if res, err := c.BroadcastCommit(ctx, tx); !errors.As(err, &te) || te.Code != wire.CodeNonceUsed || res.Height != 0 {
		t.Fatalf("stale nonce: %+v, %v", res, err)
	}
	// The refusal carries the key's next nonce typed (CheckTx's data), and the hint names it;
	// so does broadcast_tx_sync's.
	if next, ok := te.NextNonce(); !ok || next != 1 || !strings.Contains(te.Hint, "the next nonce is 1") {
		t.Fatalf("stale nonce: next nonce %d, %v; hint %q", next, ok, te.Hint)
	}
	if _, err := c.Broadcast(ctx, tx); !errors.As(err, &te) || te.Code != wire.CodeNonceUsed {
		t.Fatalf("stale nonce, sync: %v", err)
	} else if next, ok := te.NextNonce(); !ok || next != 1 {
		t.Fatalf("stale nonce, sync: next nonce %d, %v", next, ok)
	}

	// Three transactions of one key in the mempool, then their blocks.
	val := client.NewSigner(c, testChainID, n.reportKey)
	var hashes []string
	for i := range 3 {
		res, err := val.Send(ctx, client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: int64(i + 1), MaxBudget: "1",
			MaxLatencySeconds: "1", SubmissionBlocks: 1000, ReportBlocks: 10}))
		if err != nil {
			t.Fatal(err)
		}
		hashes = append(hashes, res.Hash)
	}
	for i, h := range hashes {
		res, err := c.WaitTx(ctx, h, waitFor)
		if err != nil || res.Height <= 0 || res.Hash != h {
			t.Fatalf("tx %d: %+v, %v", i, res, err)
		}
		if id, err := res.AttrU64(wire.EventTaskPosted, "task_id"); err != nil || id != uint64(i) {
			t.Fatalf("tx %d: task %d, %v", i, id, err)
		}
	}
	if acc, err := c.Account(ctx, val.PubKey()); err != nil || acc.NextNonce != 3 {
		t.Fatalf("validator account %+v, %v", acc, err)
	}

	// A fixed nonce is not re-read: its refusal is the answer.
	miner.FixNonce(0)
	if _, err := miner.Send(ctx, unanchored(3)); !errors.As(err, &te) || te.Code != wire.CodeNonceUsed {
		t.Fatalf("fixed stale nonce: %v", err)
	}
	miner.Resync()
	// A refusal through SendWait is a TxError too.
	res, err = miner.SendWait(ctx, client.Reveal(client.WorkflowPayload(0, []byte("short")), client.Salt{}), waitFor)
	if !errors.As(err, &te) || te.Code != wire.CodeBadArtifactHash {
		t.Fatalf("bad artifact: %+v, %v", res, err)
	}

	// Waiting for a transaction nobody sent ends at the timeout, not as a TxError.
	if _, err := c.WaitTx(ctx, client.TxHash([]byte("never sent")), 300*time.Millisecond); err == nil || errors.As(err, &te) {
		t.Fatalf("wait for an unknown tx: %v", err)
	}
}
