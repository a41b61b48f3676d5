package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/longtest"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
)

// retentionGenesis is the test genesis with one validator (its report
// alone settles everything: a lighter load per block), short task windows
// (RetentionHorizon 21) and retain_state_blocks r.
func retentionGenesis(r int64) genesis.AppState {
	g := testGenesis(1)
	g.Chain.MaxSubmissionBlocks, g.Chain.MaxReportBlocks, g.Chain.TruthReportBlocks = 10, 10, 20
	g.Chain.RetainStateBlocks = r
	g.Window.WindowSize = 20 // the miners' windows fill within the first 500 blocks
	return g
}

// stateSize counts the committed state's keys and bytes (key + value) by
// prefix name, through the app's WalkState, as a snapshot would see it (meta excluded).
type stateSize struct {
	keys, bytes int64
	byPrefix    map[string]int64 // keys per prefix name
	bytesBy     map[string]int64 // bytes per prefix name
}

func measureState(t testing.TB, a *App) stateSize {
	t.Helper()
	out := stateSize{byPrefix: map[string]int64{}, bytesBy: map[string]int64{}}
	a.WalkState(func(k []byte, valueSize int64) {
		out.keys++
		out.bytes += int64(len(k)) + valueSize
		p, _ := store.PrefixOf(k)
		out.byPrefix[p.Name]++
		out.bytesBy[p.Name] += int64(len(k)) + valueSize
	})
	return out
}

// retentionLoad is a steady synthetic load of one validator and six
// miners in cycles of retentionCycle blocks. A cycle that starts at s
// posts a workflow task and an arena task (s), two miners commit to each
// (s+1), reveal (s+2) and the validator's report settles each submission
// (s+3; the tasks close at their report deadline s+4, the arena
// submissions score at the end of s+3); on the gas track two miners
// commit a prediction for the cycle's EVM block (s), the validator's truth
// closes it (s+1) and the predictions are revealed (s+2), the close
// judging them at the end of s+2. Every 5th block is an epoch. A cycle is
// 19 transactions; the other blocks are empty, which keeps 10,000 blocks
// on three apps within a minute.
type retentionLoad struct {
	t      testing.TB
	val    *signer
	miners []*signer
	// subs are each task's submission ids (from the commits' events).
	subs map[uint64][]uint64
	// gas are the gas payloads committed this cycle.
	gas []gasCommit
	// committing: the tx index → task of the block being built.
	committing map[int]uint64
}

type gasCommit struct {
	m *signer
	p *subnetv1.MsgSubmit
}

const (
	retentionEVMBase = 1000
	retentionCycle   = 8
)

func newRetentionLoad(t testing.TB) *retentionLoad {
	l := &retentionLoad{t: t, val: reporter(0), subs: map[uint64][]uint64{}}
	for i := 0; i < 6; i++ {
		l.miners = append(l.miners, newMiner(fmt.Sprintf("retention-miner-%d", i), uint32(i+1)))
	}
	return l
}

// setup is block 1: the miners register and the validator's truth anchors
// EVM chain 1 at block retentionEVMBase+1.
func (l *retentionLoad) setup() [][]byte {
	var txs [][]byte
	for _, m := range l.miners {
		txs = append(txs, m.tx(l.t, msgRegister()))
	}
	return append(txs, l.val.tx(l.t, msgTruth(1, retentionEVMBase+1, "10", blockTime(1).Unix())))
}

// block is block h's transactions: setup at 1, then txs.
func (l *retentionLoad) block(h int64) [][]byte {
	if h == 1 {
		return l.setup()
	}
	return l.txs(h)
}

// txs builds block h's transactions (h ≥ 2): cycle k starts at 2 + 8k,
// its workflow task is 2k and its arena task 2k+1.
func (l *retentionLoad) txs(h int64) [][]byte {
	t := l.t
	k, step := (h-2)/retentionCycle, (h-2)%retentionCycle
	wf, ar := uint64(2*k), uint64(2*k+1)
	evm := uint64(retentionEVMBase + 2 + k)
	miners := l.cycleMiners(k)
	payload := func(i int, task uint64) *subnetv1.MsgSubmit {
		if task == wf {
			return wfPayloadOf(miners[i], task)
		}
		return arenaPayloadOf(miners[i], task)
	}
	var txs [][]byte
	l.committing = map[int]uint64{}
	switch step {
	case 0:
		txs = append(txs, l.val.tx(t, msgWorkflowTask(4, 1, 2)), l.val.tx(t, msgArenaTask(5, 1, 2)))
		l.gas = nil
		for i := 0; i < 2; i++ {
			p := gasPayload(1, evm, fmt.Sprint(10+k%7))
			l.gas = append(l.gas, gasCommit{miners[2+i], p})
			txs = append(txs, miners[2+i].commit(t, p))
		}
	case 1:
		for _, task := range []uint64{wf, ar} {
			for i := 0; i < 2; i++ {
				l.committing[len(txs)] = task
				txs = append(txs, miners[i].commit(t, payload(i, task)))
			}
		}
		txs = append(txs, l.val.tx(t, msgTruth(1, evm, fmt.Sprint(10+k%5), blockTime(h).Unix())))
	case 2:
		for _, task := range []uint64{wf, ar} {
			for i := 0; i < 2; i++ {
				txs = append(txs, miners[i].reveal(t, payload(i, task)))
			}
		}
		for _, c := range l.gas {
			txs = append(txs, c.m.reveal(t, c.p))
		}
	case 3:
		for _, sid := range l.subs[wf] {
			txs = append(txs, l.val.tx(t, msgWorkflowReport(sid, workflowM())))
		}
		for _, sid := range l.subs[ar] {
			txs = append(txs, l.val.tx(t, msgArenaReport(sid, arenaM())))
		}
		delete(l.subs, wf)
		delete(l.subs, ar)
	}
	return txs
}

// cycleMiners are the cycle's task miners (0, 1) and gas miners (2, 3).
func (l *retentionLoad) cycleMiners(k int64) []*signer {
	out := make([]*signer, 4)
	for i := range out {
		out[i] = l.miners[(int(k)+i)%len(l.miners)]
	}
	return out
}

// record takes the submission ids of the block's task commits and requires
// every transaction accepted.
func (l *retentionLoad) record(resp *abcitypes.ResponseFinalizeBlock) {
	for i, r := range resp.TxResults {
		if r.Code != wire.CodeOK {
			l.t.Fatalf("tx %d: code %d: %s", i, r.Code, r.Log)
		}
		task, ok := l.committing[i]
		if !ok {
			continue
		}
		sid, _ := eventAttr(r.Events, wire.EventSubmissionAdded, "submission_id")
		id, err := strconv.ParseUint(sid, 10, 64)
		if err != nil {
			l.t.Fatalf("commit tx %d: no submission id in %v", i, r.Events)
		}
		l.subs[task] = append(l.subs[task], id)
	}
}

// retentionRun drives the load for blocks on two apps in step (each
// block's FinalizeBlock and Commit run concurrently on both), requires the
// same app hash at every height, and samples the state size every `every`
// blocks on the first.
func retentionRun(t testing.TB, g genesis.AppState, blocks int64, every int64) (*node, []stateSize) {
	t.Helper()
	a, b := newNode(t, "", g), newNode(t, "", g)
	l := newRetentionLoad(t)
	var samples []stateSize
	for h := int64(1); h <= blocks; h++ {
		txs := l.block(h)
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { defer wg.Done(); b.finalizeQuiet(txs) }()
		resp := a.finalize(txs...)
		wg.Wait()
		l.record(resp)
		if string(a.hashes[h]) != string(b.hashes[h]) {
			t.Fatalf("height %d: the two apps' app hashes differ: %X, %X", h, a.hashes[h], b.hashes[h])
		}
		if h%every == 0 {
			samples = append(samples, measureState(t, a.app))
		}
	}
	return a, samples
}

// finalizeQuiet is finalize for a second app driven from another
// goroutine: it reports errors through the returned hash (a failed block
// records none, which the comparison catches) rather than t.Fatal.
func (n *node) finalizeQuiet(txs [][]byte) {
	h := n.height + 1
	ctx := context.Background()
	resp, err := n.app.FinalizeBlock(ctx, &abcitypes.RequestFinalizeBlock{Height: h, Time: blockTime(h), Txs: txs, Hash: []byte(fmt.Sprintf("block-%d", h))})
	if err != nil {
		n.hashes = append(n.hashes, nil)
		n.height = h
		return
	}
	if _, err := n.app.Commit(ctx, &abcitypes.RequestCommit{}); err != nil {
		resp.AppHash = nil
	}
	n.log = append(n.log, loggedBlock{txs: txs, hash: []byte(fmt.Sprintf("block-%d", h))})
	n.height = h
	n.hashes = append(n.hashes, resp.AppHash)
}

func retentionBlocks(t testing.TB, def int64) int64 {
	if s := os.Getenv("RETENTION_BLOCKS"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("RETENTION_BLOCKS=%q", s)
		}
		return v
	}
	return def
}

// TestRetentionBoundsState: 10,000 blocks of steady load with
// retain_state_blocks 300 on two apps (the same app hash at every height):
// the state stops growing once the retention horizon and the miners'
// windows are full — every sample from block 2,000 on is within 2% of the
// one at 2,000 — and the chain replays on a fresh node to the same app
// hash at every height. RETENTION_BLOCKS sets another length;
// RETENTION_PRINT=1 prints the samples (docs/performance.md's figures).
func TestRetentionBoundsState(t *testing.T) {
	longtest.Skip(t)
	if testing.Short() {
		t.Skip("10,000 blocks")
	}
	const r = 300
	blocks := retentionBlocks(t, 10_000)
	g := retentionGenesis(r)
	every := sampleEvery(blocks)
	n, samples := retentionRun(t, g, blocks, every)
	printSamples(t, "retain_state_blocks=300", samples, every)
	from := int((2000+every-1)/every) - 1 // the sample at block 2,000 (or the first after)
	base := samples[from]
	for i, s := range samples[from:] {
		if s.bytes*100 > base.bytes*102 || s.bytes*100 < base.bytes*98 {
			t.Fatalf("block %d: state %d keys %d bytes, at block %d %d keys %d bytes: not flat",
				int64(from+i+1)*every, s.keys, s.bytes, int64(from+1)*every, base.keys, base.bytes)
		}
	}
	last := samples[len(samples)-1]
	for _, p := range []string{"task", "submission", "task_sub", "task_miner", "truth", "epoch"} {
		if last.byPrefix[p] == 0 {
			t.Errorf("no %s left at the end: retention must keep the last %d blocks' items", p, r)
		}
	}
	// the miner index (0x30) has one entry per stored submission: retention
	// deletes a submission's entry with it
	if last.byPrefix["miner_sub"] != last.byPrefix["submission"] {
		t.Errorf("%d miner index entries, %d submissions: want one entry per submission", last.byPrefix["miner_sub"], last.byPrefix["submission"])
	}
	// what is left is what the last r blocks (and the live windows) hold
	if tasks := last.byPrefix["task"]; tasks > r+10 {
		t.Errorf("%d tasks stored, want at most retain_state_blocks + the open ones", tasks)
	}
	replayCompare(t, n, g)
}

// TestRetentionOffGrows is the same load with retention off, shorter: the
// state grows with every block (what TestRetentionBoundsState bounds).
func TestRetentionOffGrows(t *testing.T) {
	blocks := retentionBlocks(t, 1_000)
	every := sampleEvery(blocks)
	_, samples := retentionRun(t, retentionGenesis(0), blocks, every)
	printSamples(t, "retain_state_blocks=0", samples, every)
	for i := 1; i < len(samples); i++ {
		if samples[i].bytes <= samples[i-1].bytes {
			t.Fatalf("retention off: the state did not grow from sample %d to %d", i-1, i)
		}
	}
}

// sampleEvery is the sampling interval of a run: 100 blocks, or a
// hundredth of a longer run (a scan of the whole state per sample).
func sampleEvery(blocks int64) int64 { return max(100, blocks/100) }

func printSamples(t testing.TB, name string, samples []stateSize, every int64) {
	if os.Getenv("RETENTION_PRINT") == "" {
		return
	}
	var b strings.Builder
	for i, s := range samples {
		due := s.bytesBy["due_bucket"] + s.bytesBy["due_entry"] + s.bytesBy["due_cursor"]
		fmt.Fprintf(&b, "%s block %d: %d keys, %d bytes (tasks %d, submissions %d, truth %d, epochs %d; due schedules %d bytes)\n", name, int64(i+1)*every, s.keys, s.bytes,
			s.byPrefix["task"], s.byPrefix["submission"], s.byPrefix["truth"], s.byPrefix["epoch"], due)
	}
	t.Log("\n" + b.String())
}

// TestRetentionCarriesAcrossBlocks: a task with 24 submissions retired
// under an end-of-block budget of a few records per block: its deletion
// resumes mid-task over several blocks (the task outlives its first
// submissions), every block that retires deletes at most what the budget
// lets it, and once done the state equals that of a node with the default
// budget that retired it in one block.
func TestRetentionCarriesAcrossBlocks(t *testing.T) {
	const r, miners = 50, 24
	g := retentionGenesis(r)
	small := newNodeLimits(t, "", g, budget.Limits{EndWork: 150})
	full := newNode(t, "", g)
	val := reporter(0)
	var ms []*signer
	var regs [][]byte
	for i := 0; i < miners; i++ {
		ms = append(ms, newMiner(fmt.Sprintf("carry-miner-%d", i), uint32(i+1)))
		regs = append(regs, ms[i].tx(t, msgRegister()))
	}
	both := func(txs ...[]byte) *abcitypes.ResponseFinalizeBlock {
		t.Helper()
		resp := small.finalize(txs...)
		full.finalize(txs...)
		mustOK(t, resp)
		return resp
	}
	both(regs...)
	both(val.tx(t, msgWorkflowTask(4, 1, 2))) // task 0 at 2: commits 3, reveals 4, reports 5, closes 6
	var commits, reveals, reports [][]byte
	for i, m := range ms {
		commits = append(commits, m.commit(t, wfPayloadOf(m, 0)))
		reveals = append(reveals, m.reveal(t, wfPayloadOf(m, 0)))
		reports = append(reports, val.tx(t, msgWorkflowReport(uint64(i), workflowM())))
	}
	both(commits...)
	both(reveals...)
	both(reports...)
	var perBlock []uint64
	midTask := false
	for small.height < 6+r+40 {
		resp := both()
		if v, ok := eventAttr(resp.Events, wire.EventStateRetired, "submissions"); ok && v != "0" {
			k, _ := strconv.ParseUint(v, 10, 64)
			perBlock = append(perBlock, k)
			_, subCode := small.query("submission/0")
			_, taskCode := small.query("task/0")
			if subCode == wire.QueryNotFound && taskCode == wire.QueryOK {
				midTask = true
			}
		}
	}
	var total uint64
	for _, k := range perBlock {
		total += k
	}
	t.Logf("submissions retired per block: %v", perBlock)
	if total != miners || len(perBlock) < 3 || !midTask {
		t.Fatalf("retired %d submissions over %d blocks %v (mid-task seen: %v), want %d over several blocks, resumed mid-task",
			total, len(perBlock), perBlock, midTask, miners)
	}
	// The records and every other entry are the same. The app hash is not:
	// the record trees take a freed slot again in the order the slots were
	// freed, so where the next record's leaf goes depends on how the
	// deletions were spread over blocks — as the shape of any Merkle tree
	// with positions depends on its history. Nodes in consensus share the
	// history, and the budgets are consensus rules.
	if a, b := stateWithoutSlots(t, small.app), stateWithoutSlots(t, full.app); a != b {
		t.Fatalf("after retirement the small-budget node's state (slots aside) %s differs from the default node's %s", a, b)
	}
	for _, p := range []string{"task/0", "submission/0", fmt.Sprintf("submission/%d", miners-1)} {
		if _, code := small.query(p); code != wire.QueryNotFound {
			t.Errorf("%s after retirement: code %d, want not found", p, code)
		}
	}
	for _, k := range []string{"task_sub", "task_miner", "task_artifact", "task", "submission"} {
		if n := measureState(t, small.app).byPrefix[k]; n != 0 {
			t.Errorf("%d %s entries left", n, k)
		}
	}
}

// TestRetentionParamsChange: retention turned on by a params proposal
// retires what the chain settled before (the value in force at deletion
// decides), in the first blocks after activation; raised later, it keeps
// more; the chain replays to the same app hash at every height.
func TestRetentionParamsChange(t *testing.T) {
	g := retentionGenesis(0)
	g.Governance.MinUpgradeDelayBlocks = 5
	n := newNode(t, "", g)
	l := newRetentionLoad(t)
	propose := map[int64][]byte{
		300: []byte(`{"chain":{"retain_state_blocks":60}}`),  // in force from 320
		500: []byte(`{"chain":{"retain_state_blocks":200}}`), // in force from 520
	}
	tasksAt := map[int64]int64{}
	for h := int64(1); h <= 700; h++ {
		txs := l.block(h)
		if p, ok := propose[h]; ok {
			txs = append(txs, l.val.tx(t, client.ProposeParams(p, h+20, h+10)))
		}
		l.record(n.finalize(txs...))
		tasksAt[h] = measureState(t, n.app).byPrefix["task"]
	}
	// off: every task kept; from 320 (60 in force) the backlog goes at once
	// and about 60/8 cycles' tasks stay; from 520 (200) they pile up again
	// until 200 blocks' worth
	if got := tasksAt[319]; got < 75 {
		t.Fatalf("before retention: %d tasks stored, want every one (≥ 75)", got)
	}
	if got := tasksAt[320]; got > 2*(60/retentionCycle+2) {
		t.Fatalf("at activation of 60: %d tasks stored, want the last 60 blocks' only", got)
	}
	if got, want := tasksAt[700], int64(2*(200/retentionCycle)); got < want-2 || got > want+4 {
		t.Fatalf("at 700 under 200: %d tasks stored, want about %d", got, want)
	}
	if tasksAt[560] < tasksAt[519]+6 {
		t.Fatalf("raising retention to 200 at 520 kept no more tasks: %d at 519, %d at 560", tasksAt[519], tasksAt[560])
	}
	replayCompare(t, n, g)
}

// TestRetiredQueries: queries of retired items answer not found naming
// retention and export --height; live state still answers (epoch/latest,
// the miners, their windows and gas agents, the leaderboard); a commit or
// a reveal for a retired task (25), a report on a retired submission (29),
// a gas reveal (48, where it was 49 before retirement) and a truth (33) for
// a retired round are refused.
func TestRetiredQueries(t *testing.T) {
	g := retentionGenesis(100)
	n := newNode(t, "", g)
	l := newRetentionLoad(t)
	for h := int64(1); h <= 400; h++ {
		txs := l.block(h)
		l.record(n.finalize(txs...))
	}
	for _, p := range []string{"task/0", "submission/0", "truth/1/1002", "epoch/1", "baseline/1"} {
		out, code := n.query(p)
		log, _ := out["log"].(string)
		if code != wire.QueryNotFound || !strings.Contains(log, "retired by state retention") ||
			!strings.Contains(log, "validatord export --height") {
			t.Errorf("%s: code %d %q, want not found naming retention and export --height", p, code, log)
		}
	}
	for _, p := range []string{"task/9999", "submission/99999", "epoch/9999"} {
		out, code := n.query(p)
		if log, _ := out["log"].(string); code != wire.QueryNotFound || strings.Contains(log, "retired") {
			t.Errorf("%s (never existed): code %d %q, want not found without retention", p, code, log)
		}
	}
	for _, p := range []string{"epoch/latest", "miner/1", "window/1", "gas/3/1", "leaderboard/workflow", "task/96", "registration"} {
		if out, code := n.query(p); code != wire.QueryOK {
			t.Errorf("%s: code %d %v, want an answer", p, code, out)
		}
	}
	m, gm := l.miners[0], l.miners[2] // task 0's first miner; EVM block 1002's first predictor
	// each tx is tried alone on the committed state (codeOf), so each takes its signer's next nonce
	alone := func(s *signer, tx []byte) []byte { s.nonce--; return tx }
	for _, c := range []struct {
		name string
		tx   []byte
		code uint32
	}{
		{"a commit to a retired task", alone(m, m.commit(t, wfPayloadOf(m, 0))), wire.CodeUnknownTask},
		{"a reveal for a retired task", alone(m, m.reveal(t, wfPayloadOf(m, 0))), wire.CodeUnknownTask},
		{"a report on a retired submission", alone(l.val, l.val.tx(t, msgWorkflowReport(0, workflowM()))), wire.CodeUnknownSubmission},
		{"a gas reveal for a retired round (49 before retirement)", alone(gm, gm.reveal(t, gasPayload(1, retentionEVMBase+2, "10"))), wire.CodeNoCommit},
		{"a truth for a retired round", alone(l.val, l.val.tx(t, msgTruth(1, retentionEVMBase+2, "10", blockTime(n.height).Unix()))), wire.CodeEVMBlockClosed},
	} {
		if code, log, _ := codeOf(t, n, c.tx); code != c.code {
			t.Errorf("%s: code %d (%s), want %d", c.name, code, log, c.code)
		}
	}
}

// BenchmarkRetireSubmission measures what retention costs per record: the
// FinalizeBlock + Commit (badger on disk) of the block that retires one
// settled workflow task with 1,000 submissions (each with its task_miner,
// task_sub and task_artifact entries), per submission. The setup
// (registrations, commits, reveals, reports, settlement) is untimed.
// budget.UnitsRetire is sized from it.
func BenchmarkRetireSubmission(b *testing.B) {
	const subs, r = 1000, 50
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		g := retentionGenesis(r)
		g.Chain.MaxUIDs = subs
		g.Membership = testMembership(subs)
		g.Tracks = []genesis.Track{testTrack(genesis.TrackWorkflow, decimal.NewFromInt(1))}
		n := newNode(b, b.TempDir(), g)
		val := reporter(0)
		post := val.tx(b, msgWorkflowTask(4, 1, 2))
		var regs, commits, reveals, reports [][]byte
		for k := 0; k < subs; k++ {
			m := newMiner(fmt.Sprintf("retire-bench-%d", k), uint32(k+1))
			regs = append(regs, m.tx(b, msgRegister()))
			commits = append(commits, m.commit(b, wfPayloadOf(m, 0)))
			reveals = append(reveals, m.reveal(b, wfPayloadOf(m, 0)))
			reports = append(reports, val.tx(b, msgWorkflowReport(uint64(k), workflowM())))
		}
		for _, txs := range [][][]byte{regs, {post}, commits, reveals, reports} {
			mustOK(b, n.finalize(txs...))
		}
		for n.height < 6+r-1 { // the task closes at 6; retired at 6 + r
			n.finalize()
		}
		b.StartTimer()
		resp := n.finalize()
		b.StopTimer()
		if v, _ := eventAttr(resp.Events, wire.EventStateRetired, "submissions"); v != fmt.Sprint(subs) {
			b.Fatalf("retired %q submissions, want %d", v, subs)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*subs)/1000, "µs/submission")
}

// stateWithoutSlots digests every entry of the hashed set but the record
// trees' slots and free queue (store.PrefixRecordSlot … PrefixRecordFree).
func stateWithoutSlots(t *testing.T, a *App) string {
	t.Helper()
	txn := a.db.NewTransactionAt(store.Latest, false)
	defer txn.Discard()
	it := txn.NewIterator(badgerIterOpts())
	defer it.Close()
	h := sha256.New()
	for it.Rewind(); it.Valid(); it.Next() {
		k := it.Item().Key()
		if !store.Hashed(k) || (k[0] >= store.PrefixRecordSlot && k[0] <= store.PrefixRecordFree) {
			continue
		}
		v, err := it.Item().ValueCopy(nil)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "%x=%x;", k, v)
	}
	return hex.EncodeToString(h.Sum(nil))
}
