package app

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
)

// batchChain is a chain of 4 validators (power 10: a submission settles at
// its third report) with 5 miners who each revealed a workflow run of task
// 0 and an arena run of task 1 (submissions 2u and 2u+1 of miner u), reports
// open from height 6.
func batchChain(t *testing.T) (*node, []*signer) {
	n := newNode(t, "", testGenesis(4))
	r := []*signer{reporter(0), reporter(1), reporter(2), reporter(3)}
	var miners []*signer
	var reg, commits, reveals [][]byte
	for u := range 5 {
		m := newMiner(fmt.Sprint("batch-miner-", u), uint32(u+1))
		miners = append(miners, m)
		reg = append(reg, m.tx(t, msgRegister()))
	}
	mustOK(t, n.block(append(reg, r[0].tx(t, msgWorkflowTask(4, 3, 3)), r[0].tx(t, msgArenaTask(5, 3, 3)))...))
	for _, m := range miners {
		commits = append(commits, m.commit(t, wfPayloadOf(m, 0)), m.commit(t, arenaPayloadOf(m, 1)))
		reveals = append(reveals, m.reveal(t, wfPayloadOf(m, 0)), m.reveal(t, arenaPayloadOf(m, 1)))
	}
	mustOK(t, n.block(commits...))
	n.block()
	n.block()
	mustOK(t, n.block(reveals...))
	return n, r
}

// batchReports are validator v's reports on the 10 submissions: measured
// values that differ by validator and submission, so that the medians
// depend on which votes count; validator 2 names submission 2 a near-copy
// of submission 0 (a minority: the verdict stays none).
func batchReports(v int) []*subnetv1.Msg {
	var out []*subnetv1.Msg
	for s := range 10 {
		var m *subnetv1.Msg
		if s%2 == 0 {
			w := workflowM()
			w.OutputQuality = fmt.Sprintf("0.%d%d", 5+v, s)
			w.LatencySeconds = fmt.Sprint(10 + 3*v + s)
			m = msgWorkflowReport(uint64(s), w)
		} else {
			a := arenaM()
			a.TotalTokens += int64(100*v + 7*s)
			a.CriteriaPassed = int64(1 + (v+s)%5)
			m = msgArenaReport(uint64(s), a)
		}
		if v == 2 && s == 2 {
			m = client.DuplicateOf(m, 0)
		}
		out = append(out, m)
	}
	return out
}

// TestReportBatchSameAsSingleReports: the same reports sent as one batch
// per validator or as one transaction each leave the same submissions
// (votes, statuses, receipts), windows, leaderboards and score digest, and
// the block is charged the same work: a batch is charged per entry. Each
// validator also reports a submission that does not exist: refused alone
// as a transaction (charged nothing: refused before the budget) and as an
// entry (charged, as every entry is), it changes nothing either way. The
// reports come in two blocks (validators 0 and 1, then 2), so every
// submission settles in the second by validator 2's report (30 of 40 >
// 2/3), the workflow ones at once and the arena ones at the end of the
// block.
func TestReportBatchSameAsSingleReports(t *testing.T) {
	single, rs := batchChain(t)
	batched, rb := batchChain(t)
	for _, vs := range [][]int{{0, 1}, {2}} {
		var one, many [][]byte
		for _, v := range vs {
			reps := append(batchReports(v), msgWorkflowReport(99, workflowM())) // refused: no such submission
			for _, m := range reps {
				one = append(one, rs[v].tx(t, m))
			}
			b, err := client.ReportBatch(reps...)
			if err != nil {
				t.Fatal(err)
			}
			many = append(many, rb[v].tx(t, b))
		}
		for i, r := range single.block(one...).TxResults {
			if want := map[bool]uint32{false: wire.CodeOK, true: wire.CodeUnknownSubmission}[i%11 == 10]; r.Code != want {
				t.Fatalf("single report %d: code %d (%s), want %d", i, r.Code, r.Log, want)
			}
		}
		resp := batched.block(many...)
		mustOK(t, resp)
		for i, r := range resp.TxResults {
			if got := countEvents(r.Events, wire.EventReportEntry); got != 11 {
				t.Fatalf("batch %d: %d report_entry events, want 11", i, got)
			}
			if last := r.Events[len(r.Events)-1]; last.Type != wire.EventReportEntry || last.Attributes[3].Value != "unknown_submission" {
				t.Fatalf("batch %d: last event %v, want entry 10 refused as unknown_submission", i, last)
			}
		}
		s, b := single.stats[len(single.stats)-1], batched.stats[len(batched.stats)-1]
		if s.txWork+int64(len(vs))*budget.UnitsTx != b.txWork || s.endWork != b.endWork {
			t.Fatalf("height %d: work %d + %d as single reports, %d + %d as batches (want %d more units of tx work: the refused entries')",
				single.height, s.txWork, s.endWork, b.txWork, b.endWork, int64(len(vs))*budget.UnitsTx)
		}
	}
	paths := []string{"digest", "leaderboard/workflow", "leaderboard/arena", "baseline/1", "task/0/results", "task/1/results"}
	for s := range 10 {
		paths = append(paths, fmt.Sprint("submission/", s))
	}
	for u := 1; u <= 5; u++ {
		paths = append(paths, fmt.Sprint("window/", u))
	}
	scored := 0
	for _, a := range sameAnswers(t, single, batched, "single reports", paths) {
		if a["status"] == kernel.StatusScored {
			scored++
		}
	}
	if scored != 10 {
		t.Fatalf("%d of 10 submissions scored, want all", scored)
	}
}

// sameAnswers requires the same answer to each query path of the node
// that got single transactions (as what) and the one that got batches, but
// for the app hash (the accounts' nonces differ; the score digest covers
// every stored score), and returns the answers.
func sameAnswers(t *testing.T, single, batched *node, what string, paths []string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, p := range paths {
		a, ca := single.query(p)
		b, cb := batched.query(p)
		delete(a, "app_hash")
		delete(b, "app_hash")
		if ca != cb || !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: as %s (code %d)\n%v\nas batches (code %d)\n%v", p, what, ca, a, cb, b)
		}
		out = append(out, a)
	}
	return out
}

// TestReportBatchChargedPerEntry: a batch of N entries is charged N ×
// budget.UnitsTx, refused entries included, before its signature is
// verified; a block whose transaction work has room for one entry fewer
// refuses it with block_full (40) having charged and run nothing, and
// CheckTx refuses it when no block's budget could pay for it.
func TestReportBatchChargedPerEntry(t *testing.T) {
	n, r := batchChain(t)
	reps := batchReports(0)
	reps = append(reps, msgWorkflowReport(99, workflowM())) // refused: no such submission
	b, err := client.ReportBatch(reps...)
	if err != nil {
		t.Fatal(err)
	}
	chargedPerEntry(t, n, r[0].tx(t, b), len(reps), func(st store.State) (int, string) {
		sub, _ := st.Submission(0)
		return len(sub.Votes), "submission 0"
	})
}

// chargedPerEntry delivers the batch raw of entries entries at the next
// height with a transaction work limit of exactly its entries' units and
// one unit less, in a block and in the mempool: it must be charged entries
// × budget.UnitsTx when it applies, nothing when refused (block_full), and
// votes (the votes of a target of its first entry, named by what) must
// show it applied exactly when it was accepted.
func chargedPerEntry(t *testing.T, n *node, raw []byte, entries int, votes func(store.State) (int, string)) {
	t.Helper()
	want := int64(entries) * budget.UnitsTx
	for _, tc := range []struct {
		work    int64
		mempool bool
		code    uint32
	}{{want, false, wire.CodeOK}, {want - 1, false, wire.CodeBlockFull}, {want, true, wire.CodeOK}, {want - 1, true, wire.CodeBlockFull}} {
		base, _ := n.app.base()
		bo := store.NewOverlay(base)
		blk := &kernel.Block{Height: n.height + 1, Time: blockTime(n.height + 1).Unix(), Chain: n.app.chain, Mempool: tc.mempool}
		lim := n.app.limits
		lim.TxWork = tc.work
		meter := budget.NewMeter(lim, bo)
		res := n.app.deliverTx(bo, raw, blk, meter)
		if res.Code != tc.code {
			t.Fatalf("tx work limit %d, mempool %v: code %d (%s), want %d", tc.work, tc.mempool, res.Code, res.Log, tc.code)
		}
		charged := want
		if tc.mempool || tc.code != wire.CodeOK {
			charged = 0 // CheckTx charges no block; a refused batch is charged nothing
		}
		if meter.TxWork() != charged {
			t.Fatalf("tx work limit %d, mempool %v: %d units charged, want %d", tc.work, tc.mempool, meter.TxWork(), charged)
		}
		if v, what := votes(store.State{O: bo}); (tc.code == wire.CodeOK) != (v == 1) || v > 1 {
			t.Fatalf("tx work limit %d, mempool %v: %s has %d votes after code %d", tc.work, tc.mempool, what, v, res.Code)
		}
	}
}

// TestReportBatchEntryInvalidatedInTheBlock: an entry that an earlier
// transaction of the same block made invalid (the validator's single
// report on that submission) is refused alone; the batch applies its other
// entries, and PrepareProposal keeps it and ProcessProposal accepts the
// block (decide checks both against FinalizeBlock).
func TestReportBatchEntryInvalidatedInTheBlock(t *testing.T) {
	n, r := batchChain(t)
	reps := batchReports(0)
	b, err := client.ReportBatch(reps...)
	if err != nil {
		t.Fatal(err)
	}
	resp := n.block(r[0].tx(t, reps[4]), r[0].tx(t, b))
	mustOK(t, resp)
	var codes []string
	for _, e := range resp.TxResults[1].Events {
		if e.Type == wire.EventReportEntry {
			codes = append(codes, e.Attributes[2].Value)
		}
	}
	if got, want := fmt.Sprint(codes), fmt.Sprint([]string{"0", "0", "0", "0", "31", "0", "0", "0", "0", "0"}); got != want {
		t.Fatalf("entry codes %s, want %s", got, want)
	}
	for s := range 10 {
		sub, _ := n.query(fmt.Sprint("submission/", s))
		if votes, _ := sub["votes"].([]any); len(votes) != 1 {
			t.Fatalf("submission %d has %d votes, want 1", s, len(votes))
		}
	}
}
