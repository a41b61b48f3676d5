package app

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"strconv"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
)

// commitBatchMsg is s's MsgCommitBatch of the payloads, built by the
// client (its shape checked).
func commitBatchMsg(t testing.TB, s *signer, ps ...*subnetv1.MsgSubmit) *subnetv1.Msg {
	t.Helper()
	var ms []*subnetv1.Msg
	for _, p := range ps {
		m, err := client.Commit(testChainID, s.pub(), s.uid, p, s.salt(p))
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	b, err := client.CommitBatch(ms...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// revealBatchMsg is s's MsgRevealBatch of the payloads (with the salts its
// commits used), built by the client.
func revealBatchMsg(t testing.TB, s *signer, ps ...*subnetv1.MsgSubmit) *subnetv1.Msg {
	t.Helper()
	var ms []*subnetv1.Msg
	for _, p := range ps {
		ms = append(ms, client.Reveal(p, s.salt(p)))
	}
	b, err := client.RevealBatch(ms...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rawCommitBatch and rawRevealBatch carry the entries as they are, without
// the client's shape check, so that a test can send what the chain refuses.
func rawCommitBatch(entries ...*subnetv1.Msg) *subnetv1.Msg {
	b := &subnetv1.MsgCommitBatch{}
	for _, m := range entries {
		b.Entries = append(b.Entries, m.GetCommit())
	}
	return &subnetv1.Msg{Sum: &subnetv1.Msg_CommitBatch{CommitBatch: b}}
}

func rawRevealBatch(entries ...*subnetv1.Msg) *subnetv1.Msg {
	b := &subnetv1.MsgRevealBatch{}
	for _, m := range entries {
		b.Entries = append(b.Entries, m.GetReveal())
	}
	return &subnetv1.Msg{Sum: &subnetv1.Msg_RevealBatch{RevealBatch: b}}
}

// gasTS is the EVM timestamp of block b in these tests: 2 s or more after
// the block time of height 2 (…012), where the commits are, so every
// commit counts (commit_margin_seconds 2).
func gasTS(b uint64) int64 { return 1_700_000_014 + int64(b) - 100 }

// gasPrice is the truth of EVM block b; minerPrice a miner's prediction.
func gasPrice(b uint64) string { return strconv.FormatUint(8+b%5, 10) }

func minerPrice(m *signer, b uint64) string { return strconv.FormatUint(9+uint64(m.uid)+b%3, 10) }

// gasRun is m's predictions of the EVM blocks.
func gasRun(m *signer, blocks ...uint64) []*subnetv1.MsgSubmit {
	var out []*subnetv1.MsgSubmit
	for _, b := range blocks {
		out = append(out, gasPayload(1, b, minerPrice(m, b)))
	}
	return out
}

func evmBlocks(from uint64, k int) []uint64 {
	var out []uint64
	for i := range k {
		out = append(out, from+uint64(i))
	}
	return out
}

// crbChain is a chain of 3 validators of power 10 (a truth is final, and a
// submission settles, at the third) with miners m1 (uid 1) and m2 (uid 2),
// a workflow task 0 and an arena task 1 (commits up to height 4, reveals
// at 5, reports from 6), and EVM chain 1 anchored at block 99 (height 1;
// max_prediction_ahead 8: blocks 100 … 107 take commits). It is at height 1.
func crbChain(t *testing.T) (*node, []*signer, []*signer) {
	g := testGenesis(3)
	g.Chain.MaxPredictionAhead = 8
	n := newNode(t, "", g)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	m := []*signer{newMiner("crb-miner-1", 1), newMiner("crb-miner-2", 2)}
	txs := [][]byte{m[0].tx(t, msgRegister()), m[1].tx(t, msgRegister()), r[0].tx(t, msgWorkflowTask(4, 3, 3)), r[0].tx(t, msgArenaTask(5, 3, 3))}
	mustOK(t, n.block(append(txs, crbTruths(t, r, 99)...)...))
	return n, r, m
}

// crbTruths are every validator's truths of the EVM blocks of chain 1.
func crbTruths(t *testing.T, r []*signer, blocks ...uint64) [][]byte {
	var txs [][]byte
	for _, b := range blocks {
		ts := gasTS(b)
		if b == 99 {
			ts = 1_700_000_000
		}
		for _, v := range r {
			txs = append(txs, v.tx(t, msgTruth(1, b, gasPrice(b), ts)))
		}
	}
	return txs
}

// twoChains runs the same heights on a chain of single transactions and a
// chain of batches and checks that each block's results are as expected
// and its work is the same.
type twoChains struct {
	t               *testing.T
	single, batched *node
}

// step decides one block on each chain. Every tx must succeed; each batch
// must have an ok entry event per entry.
func (c twoChains) step(one, many [][]byte) {
	c.t.Helper()
	mustOK(c.t, c.single.block(one...))
	resp := c.batched.block(many...)
	mustOK(c.t, resp)
	for i, r := range resp.TxResults {
		for _, e := range r.Events {
			if (e.Type == wire.EventCommitEntry || e.Type == wire.EventRevealEntry) && entryCode(e) != "0" {
				c.t.Fatalf("height %d tx %d: %v", c.batched.height, i, e)
			}
		}
	}
	s, b := c.single.stats[len(c.single.stats)-1], c.batched.stats[len(c.batched.stats)-1]
	if s.txWork != b.txWork || s.endWork != b.endWork {
		c.t.Fatalf("height %d: work %d + %d as single transactions, %d + %d as batches: a batch is charged per entry",
			c.single.height, s.txWork, s.endWork, b.txWork, b.endWork)
	}
}

// same checks that the two chains answer the paths alike and returns how
// many of them are a scored submission.
func (c twoChains) same(paths []string) int {
	c.t.Helper()
	scored := 0
	for _, p := range paths {
		a, ca := c.single.query(p)
		b, cb := c.batched.query(p)
		// the accounts' nonces differ, so the app hash does; the score
		// digest covers every stored score
		delete(a, "app_hash")
		delete(b, "app_hash")
		if ca != cb || !reflect.DeepEqual(a, b) {
			c.t.Fatalf("%s: as single transactions (code %d)\n%v\nas batches (code %d)\n%v", p, ca, a, cb, b)
		}
		if a["status"] == kernel.StatusScored {
			scored++
		}
	}
	return scored
}

// entryCode is the code attribute of a commit_entry or reveal_entry event.
func entryCode(e abcitypes.Event) string {
	for _, a := range e.Attributes {
		if a.Key == "code" {
			return a.Value
		}
	}
	return ""
}

// entryCodes are the codes of a tx's entry events, in order.
func entryCodes(r *abcitypes.ExecTxResult) []string {
	var out []string
	for _, e := range r.Events {
		switch e.Type {
		case wire.EventCommitEntry, wire.EventRevealEntry, wire.EventTruthEntry, wire.EventReportEntry:
			out = append(out, entryCode(e))
		}
	}
	return out
}

func codeList(codes ...uint32) []string {
	var out []string
	for _, c := range codes {
		out = append(out, strconv.FormatUint(uint64(c), 10))
	}
	return out
}

// TestCommitBatchGasRunSameAsSingles: two gas agents each commit to a run
// of k = 8 EVM blocks (100 … 107, all that max_prediction_ahead allows) in
// one transaction, and reveal it in two after the truths are final (100 …
// 103, then 104 … 107), or send the same 16 commits and 16 reveals one a
// transaction: every submission, receipt, agent, leaderboard and the score
// digest are the same, and so is every block's work.
func TestCommitBatchGasRunSameAsSingles(t *testing.T) {
	single, rs, ms := crbChain(t)
	batched, rb, mb := crbChain(t)
	c := twoChains{t, single, batched}
	blocks := evmBlocks(100, 8)
	sends := func(batch func(testing.TB, *signer, ...*subnetv1.MsgSubmit) *subnetv1.Msg, each func(*signer, testing.TB, *subnetv1.MsgSubmit) []byte, bs []uint64) (one, many [][]byte) {
		for i := range ms {
			for _, p := range gasRun(ms[i], bs...) {
				one = append(one, each(ms[i], t, p))
			}
			many = append(many, mb[i].tx(t, batch(t, mb[i], gasRun(mb[i], bs...)...)))
		}
		return one, many
	}
	commit := func(s *signer, t testing.TB, p *subnetv1.MsgSubmit) []byte { return s.commit(t, p) }
	reveal := func(s *signer, t testing.TB, p *subnetv1.MsgSubmit) []byte { return s.reveal(t, p) }
	c.step(sends(commitBatchMsg, commit, blocks))                            // height 2
	c.step(crbTruths(t, rs, blocks[:4]...), crbTruths(t, rb, blocks[:4]...)) // 3: 100 … 103 final
	one, many := sends(revealBatchMsg, reveal, blocks[:4])
	c.step(append(one, crbTruths(t, rs, blocks[4:]...)...), append(many, crbTruths(t, rb, blocks[4:]...)...)) // 4
	c.step(sends(revealBatchMsg, reveal, blocks[4:]))                                                         // 5
	c.step(nil, nil)
	paths := []string{"digest", "leaderboard/gas", "gas/1/1", "gas/2/1", "gaschain/1"}
	for s := range 16 {
		paths = append(paths, fmt.Sprint("submission/", s))
	}
	// memory 2: each agent's first closed block fills half its memory, the
	// next seven are scored
	if scored := c.same(paths); scored != 14 {
		t.Fatalf("%d of 16 predictions scored, want 14", scored)
	}
}

// crbSteps runs a miner's commits and reveals of ps (tasks, gas blocks 100
// and 101, or both) as single transactions on one chain and as one commit
// batch and one reveal batch per miner on the other, then every
// validator's reports of the task submissions as single transactions on
// both; it returns the queries to compare.
func crbSteps(t *testing.T, c twoChains, rs, rb, ms, mb []*signer, ps func(m *signer) []*subnetv1.MsgSubmit) []string {
	var one, many [][]byte
	kinds := map[uint64]string{} // the task submissions' tracks, by id
	ids := 0
	for i := range ms {
		for _, p := range ps(ms[i]) {
			one = append(one, ms[i].commit(t, p))
			switch {
			case p.GetWorkflow() != nil:
				kinds[uint64(ids)] = "workflow"
			case p.GetArena() != nil:
				kinds[uint64(ids)] = "arena"
			}
			ids++
		}
		many = append(many, mb[i].tx(t, commitBatchMsg(t, mb[i], ps(mb[i])...)))
	}
	c.step(one, many) // height 2
	c.step(nil, nil)  // 3
	c.step(crbTruths(t, rs, 100, 101), crbTruths(t, rb, 100, 101))
	one, many = nil, nil
	for i := range ms {
		for _, p := range ps(ms[i]) {
			one = append(one, ms[i].reveal(t, p))
		}
		many = append(many, mb[i].tx(t, revealBatchMsg(t, mb[i], ps(mb[i])...)))
	}
	c.step(one, many) // 5: reveals, gas 100 and 101 close
	one, many = nil, nil
	for v := range rs {
		for id := range uint64(ids) {
			// measured values that differ by validator and submission
			rep := msgArenaReport(id, &subnetv1.ArenaMeasurement{TotalTokens: 8000 + 100*int64(v) + 7*int64(id), ToolCalls: 6,
				Iterations: 2, ExecutionTime: "200", EstimatedCost: "0.04", CriteriaPassed: int64(1 + (v+int(id))%5)})
			switch kinds[id] {
			case "":
				continue
			case "workflow":
				rep = msgWorkflowReport(id, withWorkflow(func(w *subnetv1.WorkflowMeasurement) { w.LatencySeconds = fmt.Sprint(10 + 3*v + int(id)) }))
			}
			one, many = append(one, rs[v].tx(t, rep)), append(many, rb[v].tx(t, rep))
		}
	}
	c.step(one, many) // 6: reports, every task submission settles
	paths := []string{"digest", "leaderboard/workflow", "leaderboard/arena", "leaderboard/gas", "baseline/1", "task/0/results", "task/1/results",
		"window/1", "window/2", "gas/1/1", "gas/2/1"}
	for s := range ids {
		paths = append(paths, fmt.Sprint("submission/", s))
	}
	return paths
}

// TestCommitBatchTasksAndMixedSameAsSingles: each miner's commits to a
// workflow task and an arena task (and, mixed, to EVM blocks 100 and 101
// between them) in one commit batch and their reveals in one reveal batch
// leave the same submissions, receipts, windows, baselines, agents and
// score digest as the same commits and reveals one a transaction, with the
// same block work.
func TestCommitBatchTasksAndMixedSameAsSingles(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ps     func(m *signer) []*subnetv1.MsgSubmit
		scored int
	}{
		{"tasks", func(m *signer) []*subnetv1.MsgSubmit {
			return []*subnetv1.MsgSubmit{wfPayloadOf(m, 0), arenaPayloadOf(m, 1)}
		}, 4},
		// the gas predictions are the agents' first closed blocks: memory
		// 2 is full at the second, so each agent's block 101 is scored
		{"mixed", func(m *signer) []*subnetv1.MsgSubmit {
			return []*subnetv1.MsgSubmit{wfPayloadOf(m, 0), gasRun(m, 100)[0], arenaPayloadOf(m, 1), gasRun(m, 101)[0]}
		}, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			single, rs, ms := crbChain(t)
			batched, rb, mb := crbChain(t)
			c := twoChains{t, single, batched}
			paths := crbSteps(t, c, rs, rb, ms, mb, tc.ps)
			if scored := c.same(paths); scored != tc.scored {
				t.Fatalf("%d submissions scored, want %d", scored, tc.scored)
			}
		})
	}
}

// TestCommitBatchRefusedEntriesChangeNothing: a batch with refused entries
// — a gas commit past max_prediction_ahead (34), a reveal with a wrong
// salt (50), a reveal before its block's truth is final (49), a commit to
// a task whose window closed (27) — leaves the same app hash as the batch
// without them (one transaction either way, so the nonces agree): the
// refused entries changed nothing, the others applied, and each refused
// one has its code and log in its entry event.
func TestCommitBatchRefusedEntriesChangeNothing(t *testing.T) {
	with, r1, m1 := crbChain(t)
	without, r2, m2 := crbChain(t)
	a, b := m1[0], m2[0]
	check := func(resp1, resp2 *abcitypes.ResponseFinalizeBlock, want []string) {
		t.Helper()
		mustOK(t, resp1)
		mustOK(t, resp2)
		if got := entryCodes(resp1.TxResults[0]); !reflect.DeepEqual(got, want) {
			t.Fatalf("height %d: entry codes %v, want %v", with.height, got, want)
		}
		for _, e := range resp1.TxResults[0].Events {
			if (e.Type == wire.EventCommitEntry || e.Type == wire.EventRevealEntry) && entryCode(e) != "0" {
				if _, ok := eventAttr([]abcitypes.Event{e}, e.Type, "log"); !ok {
					t.Fatalf("refused entry without a log: %v", e)
				}
			}
		}
		if !bytes.Equal(resp1.AppHash, resp2.AppHash) {
			t.Fatalf("height %d: the refused entries changed the state", with.height)
		}
	}
	ok := strconv.Itoa(int(wire.CodeOK))
	all := gasRun(a, 100, 101, 102, 103, 120)
	// height 2: block 120 is past 99 + 8
	check(with.block(a.tx(t, rawCommitBatch(crbCommitMsg(t, a, all[0]), crbCommitMsg(t, a, all[1]), crbCommitMsg(t, a, all[4]),
		crbCommitMsg(t, a, all[2]), crbCommitMsg(t, a, all[3])))),
		without.block(b.tx(t, commitBatchMsg(t, b, all[:4]...))),
		[]string{ok, ok, strconv.Itoa(int(wire.CodePredictionTooFar)), ok, ok})
	mustOK(t, with.block(crbTruths(t, r1, 100, 101, 102)...))
	mustOK(t, without.block(crbTruths(t, r2, 100, 101, 102)...))
	// height 4: 101 with a wrong salt, 103 before its truth is final
	bad := client.Reveal(all[1], client.Salt{1})
	check(with.block(append([][]byte{a.tx(t, rawRevealBatch(crbRevealMsg(a, all[0]), bad, crbRevealMsg(a, all[2]), crbRevealMsg(a, all[3])))},
		crbTruths(t, r1, 103)...)...),
		without.block(append([][]byte{b.tx(t, revealBatchMsg(t, b, all[0], all[2]))}, crbTruths(t, r2, 103)...)...),
		codeList(wire.CodeOK, wire.CodeRevealMismatch, wire.CodeOK, wire.CodeRevealWindow))
	// height 5: task 0's commit window closed at 4
	check(with.block(a.tx(t, rawRevealBatch(crbRevealMsg(a, all[3]), client.Reveal(wfPayloadOf(a, 0), a.salt(wfPayloadOf(a, 0)))))),
		without.block(b.tx(t, revealBatchMsg(t, b, all[3]))),
		codeList(wire.CodeOK, wire.CodeNoCommit))
	check(with.block(a.tx(t, rawCommitBatch(crbCommitMsg(t, a, wfPayloadOf(a, 0)), crbCommitMsg(t, a, gasRun(a, 104)[0])))),
		without.block(b.tx(t, commitBatchMsg(t, b, gasRun(b, 104)...))),
		codeList(wire.CodeSubmissionDeadline, wire.CodeOK))
}

// TestCommitBatchRefusedWhole: a batch refused by its shape (no entries or
// more than 256: 81; a target twice: 82), by its sender (not a miner: 11)
// or because every entry is refused (the first entry's code) changes
// nothing, not even the nonce: the app hash is the block's without it,
// and CheckTx gives the same code.
func TestCommitBatchRefusedWhole(t *testing.T) {
	n, r, m := crbChain(t)
	a := m[0]
	mustOK(t, n.block(a.tx(t, commitBatchMsg(t, a, gasRun(a, 100, 101)...))))
	mustOK(t, n.block(crbTruths(t, r, 100)...))
	var many []*subnetv1.Msg
	for b := range uint64(wire.MaxBatch + 1) {
		many = append(many, crbCommitMsg(t, a, gasPayload(1, 1000+b, "1")))
	}
	p100, p101 := gasRun(a, 100)[0], gasRun(a, 101)[0]
	stranger := newMiner("crb-stranger", 3)
	empty := &subnetv1.Msg{Sum: &subnetv1.Msg_Commit{Commit: &subnetv1.MsgCommit{}}}
	cases := []struct {
		name string
		tx   []byte
		code uint32
	}{
		{"commit batch with no entries", a.next(rawCommitBatch()), wire.CodeBatchSize},
		{"reveal batch with no entries", a.next(rawRevealBatch()), wire.CodeBatchSize},
		{"commit batch of 257 entries", a.next(rawCommitBatch(many...)), wire.CodeBatchSize},
		{"commit batch naming an EVM block twice", a.next(rawCommitBatch(crbCommitMsg(t, a, gasPayload(1, 102, "3")), crbCommitMsg(t, a, gasPayload(1, 103, "3")), crbCommitMsg(t, a, gasPayload(1, 102, "4")))), wire.CodeDuplicateBatchEntry},
		{"commit batch naming a task twice", a.next(rawCommitBatch(crbCommitMsg(t, a, wfPayloadOf(a, 0)), crbCommitMsg(t, a, wfPayload(0)))), wire.CodeDuplicateBatchEntry},
		{"reveal batch naming an EVM block twice", a.next(rawRevealBatch(crbRevealMsg(a, p100), crbRevealMsg(a, gasPayload(1, 100, "99")))), wire.CodeDuplicateBatchEntry},
		{"reveal batch of a workflow and an arena run of one task", a.next(rawRevealBatch(crbRevealMsg(a, wfPayloadOf(a, 0)), crbRevealMsg(a, client.ArenaPayload(0, artifact("x"))))), wire.CodeDuplicateBatchEntry},
		{"commit batch whose only entry is empty", a.next(rawCommitBatch(empty)), wire.CodeEmptyMsg},
		{"reveal batch whose only entry has no submit", a.next(&subnetv1.Msg{Sum: &subnetv1.Msg_RevealBatch{RevealBatch: &subnetv1.MsgRevealBatch{Entries: []*subnetv1.MsgReveal{{}}}}}), wire.CodeEmptyMsg},
		{"commit batch by a key that is no miner", stranger.next(commitBatchMsg(t, stranger, gasRun(stranger, 102)...)), wire.CodeNotMiner},
		{"reveal batch by a validator's report key", r[0].next(revealBatchMsg(t, r[0], p100)), wire.CodeNotMiner},
		{"commit batch whose every entry is refused (the first entry's code)", a.next(commitBatchMsg(t, a, gasPayload(1, 120, "3"), gasPayload(1, 99, "3"))), wire.CodePredictionTooFar},
		{"reveal batch whose every entry is refused (the first entry's code)", a.next(rawRevealBatch(crbRevealMsg(a, p101), client.Reveal(p100, client.Salt{1}))), wire.CodeRevealWindow},
	}
	h := n.height + 1
	want := finalizeOnly(t, n, h, nil)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := finalizeOnly(t, n, h, [][]byte{tc.tx})
			res := resp.TxResults[0]
			if res.Code != tc.code {
				t.Fatalf("code %d (%s), want %d (%s): %s", res.Code, wire.CodeName(res.Code), tc.code, wire.CodeName(tc.code), res.Log)
			}
			if res.Log == "" || len(res.Events) != 0 {
				t.Fatalf("refused batch: log %q, events %v", res.Log, res.Events)
			}
			if !bytes.Equal(resp.AppHash, want.AppHash) {
				t.Fatal("a refused batch changed the app hash")
			}
			chk, _ := n.app.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: tc.tx})
			if chk.Code != tc.code {
				t.Fatalf("CheckTx code %d, FinalizeBlock %d", chk.Code, tc.code)
			}
		})
	}
}

// TestCommitBatchEmptyEntriesAreRefusedAlone: entries without a target are
// refused one by one (2), never as duplicates of each other; the batch's
// good entry applies.
func TestCommitBatchEmptyEntriesAreRefusedAlone(t *testing.T) {
	n, _, m := crbChain(t)
	a := m[0]
	empty := &subnetv1.Msg{Sum: &subnetv1.Msg_Commit{Commit: &subnetv1.MsgCommit{}}}
	noGas := &subnetv1.Msg{Sum: &subnetv1.Msg_Commit{Commit: &subnetv1.MsgCommit{Target: &subnetv1.MsgCommit_Gas{}}}}
	resp := n.block(a.tx(t, rawCommitBatch(empty, crbCommitMsg(t, a, gasRun(a, 100)[0]), empty, noGas)))
	mustOK(t, resp)
	if got, want := entryCodes(resp.TxResults[0]), codeList(wire.CodeEmptyMsg, wire.CodeOK, wire.CodeEmptyMsg, wire.CodeEmptyMsg); !reflect.DeepEqual(got, want) {
		t.Fatalf("entry codes %v, want %v", got, want)
	}
	if sub, _ := n.query("submission/0"); sub["status"] != kernel.StatusCommitted {
		t.Fatalf("the good entry: %v", sub)
	}
	resp = n.block(a.tx(t, rawRevealBatch(&subnetv1.Msg{Sum: &subnetv1.Msg_Reveal{Reveal: &subnetv1.MsgReveal{}}},
		&subnetv1.Msg{Sum: &subnetv1.Msg_Reveal{Reveal: &subnetv1.MsgReveal{Submit: &subnetv1.MsgSubmit{}}}}, crbRevealMsg(a, gasRun(a, 100)[0]))))
	if got, want := resp.TxResults[0].Code, wire.CodeEmptyMsg; got != want {
		t.Fatalf("reveal batch of two empty entries and an early one: code %d (%s), want %d", got, resp.TxResults[0].Log, want)
	}
}

// TestCommitBatchChargedPerEntry: a commit batch of 8 entries is charged
// what its 8 commits are charged as single transactions, before its
// signature is verified; with one unit less in the block's transaction
// work it is refused (40) having charged and run nothing.
func TestCommitBatchChargedPerEntry(t *testing.T) {
	n, _, m := crbChain(t)
	a := m[0]
	ps := gasRun(a, evmBlocks(100, 8)...)
	deliver := func(raw []byte, work int64) (*abcitypes.ExecTxResult, int64, *store.Overlay) {
		base, _ := n.app.base()
		bo := store.NewOverlay(base)
		blk := &kernel.Block{Height: n.height + 1, Time: blockTime(n.height + 1).Unix(), Chain: n.app.chain}
		lim := n.app.limits
		if work > 0 {
			lim.TxWork = work
		}
		meter := budget.NewMeter(lim, bo)
		res := n.app.deliverTx(bo, raw, blk, meter)
		return res, meter.TxWork(), bo
	}
	res, one, _ := deliver(a.next(crbCommitMsg(t, a, ps[0])), 0)
	if res.Code != wire.CodeOK {
		t.Fatalf("single commit: code %d (%s)", res.Code, res.Log)
	}
	all := int64(len(ps)) * one
	raw := a.next(commitBatchMsg(t, a, ps...))
	for _, tc := range []struct {
		work, charged int64
		code          uint32
	}{{0, all, wire.CodeOK}, {all, all, wire.CodeOK}, {all - 1, 0, wire.CodeBlockFull}} {
		res, charged, bo := deliver(raw, tc.work)
		if res.Code != tc.code {
			t.Fatalf("tx work limit %d: code %d (%s), want %d", tc.work, res.Code, res.Log, tc.code)
		}
		if charged != tc.charged {
			t.Fatalf("tx work limit %d: %d units charged, want %d (%d a single commit)", tc.work, charged, tc.charged, one)
		}
		if _, found := (store.State{O: bo}).Submission(7); found != (tc.code == wire.CodeOK) {
			t.Fatalf("tx work limit %d: the 8th commit's submission exists %v after code %d", tc.work, found, res.Code)
		}
	}
}

// TestRevealBatchOpensOnlyOwnCommits: a copier who sends miner A's commit
// batch (a workflow for task 0 and EVM blocks 100 … 103) with A's
// commitments as its own, then A's exact openings (payloads and salts) in a
// reveal batch placed before A's in the block, opens nothing: each
// commitment binds A's key and uid (50). A key that never committed gets 48
// for the same openings. A's submissions, agent and the leaderboards are
// exactly as on a chain without the copier, and the copier's commits end
// unrevealed.
func TestRevealBatchOpensOnlyOwnCommits(t *testing.T) {
	attacked, r, m := crbChain(t)
	clean, rc, mc := crbChain(t)
	a, copier := m[0], m[1]
	third := newMiner("crb-miner-3", 3)
	blocks := evmBlocks(100, 4)
	payloads := func(s *signer) []*subnetv1.MsgSubmit {
		return append([]*subnetv1.MsgSubmit{wfPayloadOf(s, 0)}, gasRun(s, blocks...)...)
	}
	aBatch := commitBatchMsg(t, a, payloads(a)...)
	copied := &subnetv1.MsgCommitBatch{}
	for _, e := range aBatch.GetCommitBatch().Entries {
		copied.Entries = append(copied.Entries, &subnetv1.MsgCommit{Target: e.Target, Commitment: e.Commitment})
	}
	mustOK(t, attacked.block(third.tx(t, msgRegister()), a.tx(t, aBatch), copier.tx(t, &subnetv1.Msg{Sum: &subnetv1.Msg_CommitBatch{CommitBatch: copied}}))) // 2
	mustOK(t, clean.block(mc[0].tx(t, commitBatchMsg(t, mc[0], payloads(mc[0])...))))
	attacked.block() // 3
	clean.block()
	mustOK(t, attacked.block(crbTruths(t, r, blocks...)...)) // 4
	mustOK(t, clean.block(crbTruths(t, rc, blocks...)...))
	// 5, the reveal window of task 0 and of the four blocks: A's openings,
	// as the copier and the third key read them from A's reveal batch in
	// the mempool, go first
	var openings []*subnetv1.Msg
	for _, p := range payloads(a) {
		openings = append(openings, crbRevealMsg(a, p))
	}
	resp := attacked.block(copier.tx(t, rawRevealBatch(openings...)), third.tx(t, rawRevealBatch(openings...)), a.tx(t, revealBatchMsg(t, a, payloads(a)...)))
	for i, want := range []uint32{wire.CodeRevealMismatch, wire.CodeNoCommit, wire.CodeOK} {
		if got := resp.TxResults[i].Code; got != want {
			t.Fatalf("tx %d: code %d (%s), want %d", i, got, resp.TxResults[i].Log, want)
		}
	}
	mustOK(t, clean.block(mc[0].tx(t, revealBatchMsg(t, mc[0], payloads(mc[0])...))))
	var reps, repsClean [][]byte
	for v := range r {
		reps = append(reps, r[v].tx(t, msgWorkflowReport(0, workflowM())))
		repsClean = append(repsClean, rc[v].tx(t, msgWorkflowReport(0, workflowM())))
	}
	mustOK(t, attacked.block(reps...)) // 6: A's workflow settles
	mustOK(t, clean.block(repsClean...))
	for attacked.height < 9 { // past task 0's report deadline (8): the copier's commit is settled
		attacked.block()
		clean.block()
	}
	for s := range 5 {
		x, _ := attacked.query(fmt.Sprint("submission/", s))
		y, _ := clean.query(fmt.Sprint("submission/", s))
		if !reflect.DeepEqual(x, y) {
			t.Fatalf("A's submission %d with the copier\n%v\nwithout\n%v", s, x, y)
		}
		// memory 2: A's first closed block fills half its memory
		if want := s != 1; (x["status"] == kernel.StatusScored) != want {
			t.Fatalf("A's submission %d: %v, scored want %v", s, x["status"], want)
		}
		if c, _ := attacked.query(fmt.Sprint("submission/", s+5)); c["status"] != kernel.StatusUnrevealed {
			t.Fatalf("the copier's submission %d: %v, want unrevealed", s+5, c["status"])
		}
	}
	for _, p := range []string{"gas/1/1", "leaderboard/gas", "leaderboard/workflow", "window/1"} {
		x, _ := attacked.query(p)
		y, _ := clean.query(p)
		delete(x, "app_hash")
		delete(y, "app_hash")
		if !reflect.DeepEqual(x, y) {
			t.Fatalf("%s with the copier\n%v\nwithout\n%v", p, x, y)
		}
	}
	if g, code := attacked.query("gas/2/1"); code == wire.QueryOK && fmt.Sprint(g["score"]) != "<nil>" && fmt.Sprint(g["score"]) != "" {
		t.Fatalf("the copier's agent has a score: %v", g)
	}
}
