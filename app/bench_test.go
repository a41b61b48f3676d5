package app

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
	"github.com/scoringsubnet/validatord/x/commit"
)

// BenchmarkFinalizeBlockSubmissions measures signed workflow submissions per
// second through FinalizeBlock + Commit on a badger directory, in blocks of
// 2000, with the node's default durability (every Commit waits for the
// disk); the "pipelined" runs sync a block while the next executes (the
// last one's wait is timed too). A submission is two transactions now: its
// commit and, after the task's commit window, its reveal; each is measured
// on its own (the commits of the reveal benchmark are set up untimed).
// Signing happens before the timer; each transaction is validated (a
// reveal also opens its commitment: one SHA-256), executed, hashed into the
// app hash and committed.
//   - cold: every signature is verified inside FinalizeBlock (a node that
//     never saw the txs in its mempool);
//   - checked: the txs went through CheckTx first (untimed), as on a node
//     whose mempool received them, so FinalizeBlock finds their signatures
//     in the verified-signature cache.
//
// Before the timer the app executes warm-up blocks of as many other
// commits (the same miners, to tasks of their own) as proposals at the next
// height that are never decided (ProcessProposal only: the state, and so
// what the timed blocks read and write, is the benchmark's without them),
// so that the timed blocks find the process as a node that has run for a
// while holds it: a Go heap grown to its working size and the miners' keys
// in the expanded-key cache. Without them the first benchmark in a process
// measured about 1.5× slower than the next ones with the same code
// (docs/performance.md, "The first run in a process, and the serial
// path"): its heap grew from ~10 MB to ~450 MB during the
// timed blocks and every fresh page of it was a page fault (36,000–39,000
// in the timed part, against 1,500 in a later run). A node pays that once,
// in its first minutes. The timed txs'
// signatures are still never seen before their block (cold), and the pages
// of badger's memtable the timed writes reach first are still faulted in
// the timed part, as on a node.
func BenchmarkFinalizeBlockSubmissions(b *testing.B) {
	for _, step := range []string{"commit", "reveal"} {
		for _, checked := range []bool{false, true} {
			name := "cold"
			if checked {
				name = "checked"
			}
			b.Run(step+"/"+name, func(b *testing.B) { benchSubmissions(b, step == "reveal", checked, DurableEveryBlock) })
			b.Run(step+"/"+name+"/pipelined", func(b *testing.B) { benchSubmissions(b, step == "reveal", checked, DurablePipelined) })
		}
	}
}

// warmUp executes the given number of blocks, each of one commit by every
// signer (block j's i-th is signers[i]'s commit of payload(j·len(signers) +
// i)), as proposals at the next height that are never decided: each runs on
// the committed state, so each uses the signers' next nonces, which the txs
// signed after the warm-up take again.
func warmUp(b *testing.B, n *node, signers []*signer, blocks int, payload func(k int) *subnetv1.MsgSubmit) {
	nonces := make([]uint64, len(signers))
	for i, s := range signers {
		nonces[i] = s.nonce
	}
	for blk := 0; blk < blocks; blk++ {
		txs := make([][]byte, len(signers))
		for i, s := range signers {
			s.nonce = nonces[i]
			txs[i] = s.commit(b, payload(blk*len(signers)+i))
		}
		h := n.height + 1
		resp, err := n.app.ProcessProposal(context.Background(), &abcitypes.RequestProcessProposal{Height: h, Time: blockTime(h),
			Txs: txs, Hash: []byte(fmt.Sprintf("warm-up %d at %d", blk, h))})
		if err != nil || resp.Status != abcitypes.ResponseProcessProposal_ACCEPT {
			b.Fatalf("warm-up proposal %d: %v %v", blk, resp, err)
		}
	}
	for i, s := range signers {
		s.nonce = nonces[i]
	}
}

func benchSubmissions(b *testing.B, reveal, checked bool, dur Durability) {
	const miners, perBlock = 2000, 2000
	g := testGenesis(4)
	g.Chain.MaxUIDs = miners
	g.Membership = testMembership(miners)
	// The gas track bounds max_uids (one EVM block close rewrites every agent, and genesis proves
	// that fits a block); this benchmark measures workflow submissions, so it runs that track alone,
	// with the longest reveal window, so that every reveal of a large b.N falls inside it.
	tr := genesis.NewTrack(genesis.TrackWorkflow, decimal.NewFromInt(1))
	tr.RevealBlocks = commit.MaxRevealBlocks
	g.Tracks = []genesis.Track{tr}
	n := newNodeConfig(b, Config{DataDir: b.TempDir(), Durability: dur}, g)
	signers := make([]*signer, miners)
	var regs [][]byte
	for i := range signers {
		signers[i] = newMiner(fmt.Sprintf("bench-miner-%d", i), uint32(i+1))
		regs = append(regs, signers[i].tx(b, msgRegister()))
	}
	r := reporter(0)
	blocks := int64(b.N/perBlock + 1)
	timedTasks := b.N/miners + 1
	var posts [][]byte
	for i := 0; i < timedTasks; i++ {
		sb := int64(1000)
		if reveal {
			sb = blocks // commits end after the setup's commit blocks
		}
		posts = append(posts, r.tx(b, msgWorkflowTask(4, sb, 10)))
	}
	for i := 0; i < timedTasks; i++ { // the warm-up's tasks, open for the whole benchmark
		posts = append(posts, r.tx(b, msgWorkflowTask(4, 1000, 10)))
	}
	mustOK(b, n.block(append(regs, posts...)...))
	payload := func(k int) *subnetv1.MsgSubmit { return wfPayloadOf(signers[k%miners], uint64(k/miners)) }
	if reveal {
		var commits [][]byte
		for k := 0; k < b.N; k++ {
			commits = append(commits, signers[k%miners].commit(b, payload(k)))
		}
		for start := 0; start < len(commits); start += perBlock {
			mustOK(b, n.finalize(commits[start:min(start+perBlock, len(commits))]...))
		}
		for n.height <= 1+blocks { // to the reveal window
			n.finalize()
		}
	}
	warmUp(b, n, signers, b.N/perBlock, func(k int) *subnetv1.MsgSubmit { return payload(timedTasks*miners + k) })
	txs := make([][]byte, b.N)
	for k := range txs {
		if reveal {
			txs[k] = signers[k%miners].reveal(b, payload(k))
		} else {
			txs[k] = signers[k%miners].commit(b, payload(k))
		}
		if checked {
			resp, _ := n.app.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: txs[k]})
			if resp.Code != wire.CodeOK {
				b.Fatalf("CheckTx %d: %s", k, resp.Log)
			}
		}
	}
	vhits0, vmisses0 := n.app.values.Counts()
	cpu0 := processCPU()
	stopProfile := timedProfile(b)
	b.ResetTimer()
	for start := 0; start < len(txs); start += perBlock {
		end := min(start+perBlock, len(txs))
		resp := n.finalize(txs[start:end]...)
		b.StopTimer()
		for i, res := range resp.TxResults {
			if res.Code != wire.CodeOK {
				b.Fatalf("tx %d: %s", start+i, res.Log)
			}
		}
		b.StartTimer()
	}
	if err := n.app.durable.wait(); err != nil { // the last block on disk too
		b.Fatal(err)
	}
	b.StopTimer()
	stopProfile()
	reportCPU(b, processCPU()-cpu0)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "txs/s")
	vhits, vmisses := n.app.values.Counts()
	b.ReportMetric(float64(vhits-vhits0)/float64(b.N), "value-cache-hits/tx")
	b.ReportMetric(float64(vmisses-vmisses0)/float64(b.N), "value-cache-misses/tx")
}

// BenchmarkWorstCaseBlock measures the most a block can cost, FinalizeBlock
// + Commit on disk with the default limits: its transactions fill the
// transaction work budget with the costliest transaction commit-reveal
// has — 2,142 cold-signature reveals (every signature verified inside
// FinalizeBlock, every commitment opened), each of an artifact another
// miner revealed first under a later commit, so that each displaces that
// keeper: two submission records, a 0 pushed into the displaced miner's
// window and the task's artifact entry rewritten — and its end of block is
// saturated: 7,000 revealed submissions, each reported by 2 of 4
// validators, reach their report deadline in this block and settle
// (scored: the 2 reporters hold more than the deadline quorum) until the
// end-of-block budget stops them (the rest carry). Setup is not timed. The
// figure is in docs/performance.md; the target is ≤ 1 s on the reference
// machine.
func BenchmarkWorstCaseBlock(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		n, txs := worstCaseSetup(b)
		if err := n.app.durable.wait(); err != nil { // the setup's last block on disk, untimed
			b.Fatal(err)
		}
		b.StartTimer()
		resp := n.finalize(txs...)
		if err := n.app.durable.wait(); err != nil { // this block on disk, timed
			b.Fatal(err)
		}
		b.StopTimer()
		for j, r := range resp.TxResults {
			if r.Code != wire.CodeOK {
				b.Fatalf("tx %d: %s", j, r.Log)
			}
		}
		if got := countEvents(crbEvents(resp), wire.EventSubmissionDuplicate); got != len(txs) {
			b.Fatalf("%d of the %d reveals displaced a keeper: not a worst case", got, len(txs))
		}
		last := n.stats[len(n.stats)-1]
		if len(last.carried) == 0 {
			b.Fatal("the end of block did not reach its budget: not a worst case")
		}
		b.ReportMetric(float64(last.written), "bytes/block")
		b.ReportMetric(float64(last.txWork+last.endWork), "units/block")
	}
}

// worstCaseSetup builds the chain up to height 40 and returns the block of
// height 41 (the deadline). The workflow track has its default reveal
// window, 10 blocks. Tasks (all posted at height 1):
//   - 0 … 27 (the settled ones): commits to 11, reveals 12 … 21, reports
//     22 … 41, the deadline;
//   - 28 … 42 (the measured block's): commits to 36, reveals 37 … 46.
//
// Miners: the first 250 commit, reveal and are reported on in tasks
// 0 … 27 (7,000 submissions); in tasks 28 … 42 the next 250 (the
// displacers) commit at heights 6 and 7, the last 250 (the keepers) commit
// the same artifacts at 8 and 9 and reveal them at 37 and 38, and the
// displacers' reveals are the measured block.
func worstCaseSetup(b *testing.B) (*node, [][]byte) {
	const miners, tasks, measured, perBlock = 250, 28, 15, 2000 // 7,000 settled; 3,750 displacing reveals staged
	g := testGenesis(4)
	// 2 reporters of 11 out of 42: more than deadline_quorum (1/2), less than 2/3, so every
	// submission settles — and scores — at its deadline, the costliest path.
	g.Validators[0].Power, g.Validators[1].Power = 11, 11
	g.Chain.MaxUIDs = 3 * miners
	g.Membership = testMembership(3 * miners)
	g.Tracks = []genesis.Track{genesis.NewTrack(genesis.TrackWorkflow, decimal.NewFromInt(1))}
	n := newNode(b, b.TempDir(), g)
	signers := make([]*signer, 3*miners)
	var txs [][]byte
	for i := range signers {
		signers[i] = newMiner(fmt.Sprintf("worst-miner-%d", i), uint32(i+1))
		txs = append(txs, signers[i].tx(b, msgRegister()))
	}
	settled, displacers, keepers := signers[:miners], signers[miners:2*miners], signers[2*miners:]
	r := []*signer{reporter(0), reporter(1)}
	for k := 0; k < tasks; k++ {
		txs = append(txs, r[0].tx(b, msgWorkflowTask(4, 10, 20))) // report deadline 1+10+10+20 = 41
	}
	for k := 0; k < measured; k++ {
		txs = append(txs, r[1].tx(b, msgWorkflowTask(4, 35, 100)))
	}
	n.finalize(txs...)
	// blocksAt finalizes txs in blocks of 2000 from height at (after empty blocks up to it)
	blocksAt := func(at int64, txs [][]byte) {
		for n.height < at-1 {
			n.finalize()
		}
		for start := 0; start < len(txs); start += perBlock {
			n.finalize(txs[start:min(start+perBlock, len(txs))]...)
		}
	}
	settledPayload := func(s *signer, k int) *subnetv1.MsgSubmit { return wfPayloadOf(s, uint64(k)) }
	sharedPayload := func(i, k int) *subnetv1.MsgSubmit {
		return client.WorkflowPayload(uint64(tasks+k), artifact(fmt.Sprintf("worst %d %d", k, i)))
	}
	each := func(ss []*signer, nTasks int, tx func(i int, s *signer, k int) []byte) [][]byte {
		var out [][]byte
		for k := 0; k < nTasks; k++ {
			for i, s := range ss {
				out = append(out, tx(i, s, k))
			}
		}
		return out
	}
	blocksAt(2, each(settled, tasks, func(_ int, s *signer, k int) []byte { return s.commit(b, settledPayload(s, k)) })) // 2 … 5
	blocksAt(6, each(displacers, measured, func(i int, s *signer, k int) []byte { return s.commit(b, sharedPayload(i, k)) }))
	blocksAt(8, each(keepers, measured, func(i int, s *signer, k int) []byte { return s.commit(b, sharedPayload(i, k)) }))
	blocksAt(12, each(settled, tasks, func(_ int, s *signer, k int) []byte { return s.reveal(b, settledPayload(s, k)) })) // 12 … 15
	var reports [][]byte
	for sid := uint64(0); sid < miners*tasks; sid++ {
		reports = append(reports, r[0].tx(b, msgWorkflowReport(sid, workflowM())), r[1].tx(b, msgWorkflowReport(sid, workflowM())))
	}
	blocksAt(22, reports) // 22 … 28
	blocksAt(37, each(keepers, measured, func(i int, s *signer, k int) []byte { return s.reveal(b, sharedPayload(i, k)) }))
	for n.height < 40 {
		n.finalize()
	}
	for _, st := range n.stats {
		for j, r := range st.txResults {
			if r.Code != wire.CodeOK {
				b.Fatalf("setup height %d tx %d: %s", st.height, j, r.Log)
			}
		}
	}
	// Height 41: the deadline. As many displacing reveals as the transaction
	// work budget takes (TxWork / (UnitsTx + UnitsDuplicate) = 2,142), cold.
	all := each(displacers, measured, func(i int, s *signer, k int) []byte { return s.reveal(b, sharedPayload(i, k)) })
	fit := int(budget.DefaultLimits().TxWork / (budget.UnitsTx + budget.UnitsDuplicate))
	if fit > len(all) {
		b.Fatalf("the setup has %d displacing reveals, the block takes %d: not a full block", len(all), fit)
	}
	return n, all[:fit]
}

// timedProfile starts a CPU profile of a benchmark's timed part when
// BENCH_TIMED_PROFILE names a file (-test.cpuprofile would also profile
// the set-up: key generation, signing, the warm-up); the function it
// returns stops it. Without the variable both do nothing.
func timedProfile(b *testing.B) func() {
	path := os.Getenv("BENCH_TIMED_PROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		b.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
