package app

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
)

// Scaled-down limits: the same code paths as the chain's 8/12/19.2 MiB, at
// sizes a test reaches in seconds.
var smallLimits = budget.Limits{BlockWrites: 256 << 10, TxWrites: 256 << 10, EndWrites: 384 << 10,
	TxWork: 200_000, EndWork: 20_000, CommitWrites: 1 << 20}

// Most one end-of-block item may overshoot the limits by: a settlement's
// record, or an EVM block close (genesis-bounded; units per agent).
const (
	itemBytes = 64 << 10
	itemUnits = 64 * budget.UnitsAgent
)

// boundGenesis: 4 validators of power 10 (one is 1/4, below 1/3), 64 uids,
// the arena and workflow tracks with short windows, epochs every 5 blocks.
func boundGenesis() genesis.AppState {
	g := testGenesis(4)
	g.Chain.MaxUIDs = 64
	g.Membership = testMembership(64)
	g.Chain.TruthReportBlocks = 3
	return g
}

// resync sets every signer's nonce to its account's next nonce (a refused
// transaction consumes none).
func resync(n *node, ss ...*signer) {
	base, _ := n.app.base()
	st := store.State{O: store.NewOverlay(base)}
	for _, s := range ss {
		s.nonce = st.Account(s.pub()).NextNonce
	}
}

// checkBlockBounds fails unless every decided block stayed within the
// limits (plus one item of overshoot per end-of-block step).
func checkBlockBounds(t *testing.T, n *node) {
	t.Helper()
	lim := n.app.limits
	for _, r := range n.stats {
		if r.written > lim.EndWrites+itemBytes || r.txWork > lim.TxWork || r.endWork > lim.EndWork+itemUnits {
			t.Fatalf("height %d wrote %d bytes (end limit %d), tx work %d (limit %d), end work %d (limit %d)",
				r.height, r.written, lim.EndWrites, r.txWork, lim.TxWork, r.endWork, lim.EndWork)
		}
	}
}

// drained reports whether no queue holds work due by the committed height
// (work of later heights may wait). It reads through a throwaway overlay.
func drained(n *node) bool {
	base, _ := n.app.base()
	st := store.State{O: store.NewOverlay(base)}
	for _, k := range []byte{store.DueTasks, store.DueTruths, store.DueGasClose, store.DueArena} {
		if _, due := (store.Due{St: st, Kind: k}).Next(n.height, func() bool { return true }); due {
			return false
		}
	}
	return true
}

// TestArenaFloodCannotHaltCommit is the arena flood: reports that
// complete quorum on many arena submissions are held back and released in
// one block. Before, the end of block scored every one of them and wrote
// past badger's transaction limit, so Commit panicked on every node, for
// good. Now arena scoring takes what its reserved bytes allow and queues
// the rest: every block fits, and every submission is scored in order.
func TestArenaFloodCannotHaltCommit(t *testing.T) {
	g := boundGenesis()
	n := newNodeLimits(t, t.TempDir(), g, smallLimits)
	mem := newNodeLimits(t, "", g, smallLimits)
	run := func(txs ...[]byte) {
		t.Helper()
		for _, x := range []*node{n, mem} {
			if _, err := x.decide(x.height+1, blockTime(x.height+1), txs, []byte(fmt.Sprint("flood-", x.height+1))); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(n.hashes[n.height], mem.hashes[mem.height]) {
			t.Fatalf("height %d: disk and memory apps differ", n.height)
		}
	}
	miners := make([]*signer, 60)
	var txs [][]byte
	for i := range miners {
		miners[i] = newMiner(fmt.Sprint("flood-miner-", i), uint32(i+1))
		txs = append(txs, miners[i].tx(t, msgRegister()))
	}
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	for k := 0; k < 5; k++ {
		txs = append(txs, r[k%3].tx(t, msgArenaTask(5, 2, 50))) // commits to 3, reveals at 4, reports from 5
	}
	run(txs...)
	txs = nil
	for k := 0; k < 5; k++ {
		for _, m := range miners {
			txs = append(txs, m.commit(t, arenaPayloadOf(m, uint64(k))))
		}
	}
	run(txs...) // 300 commits
	run()
	txs = nil
	for k := 0; k < 5; k++ {
		for _, m := range miners {
			txs = append(txs, m.reveal(t, arenaPayloadOf(m, uint64(k))))
		}
	}
	run(txs...) // 300 reveals, in the reveal window's one block
	for sid := 0; sid < 300; sid++ {
		if s, _ := n.query(fmt.Sprintf("submission/%d", sid)); s["status"] != kernel.StatusPending {
			t.Fatalf("submission %d = %v after the reveals, want pending", sid, s["status"])
		}
	}
	// Two validators report now (2/3 exactly: pending); the third releases quorum on all 300 in one block.
	txs = nil
	for sid := uint64(0); sid < 300; sid++ {
		txs = append(txs, r[0].tx(t, msgArenaReport(sid, arenaM())), r[1].tx(t, msgArenaReport(sid, arenaM())))
	}
	run(txs...)
	txs = nil
	for sid := uint64(0); sid < 300; sid++ {
		txs = append(txs, r[2].tx(t, msgArenaReport(sid, arenaM())))
	}
	run(txs...)
	carried := 0
	for i := 0; i < 40 && !drained(n); i++ {
		run()
		carried++
	}
	if !drained(n) {
		t.Fatal("the arena queue did not drain")
	}
	if carried < 2 {
		t.Fatalf("the flood was scored within %d blocks: the limits did not bind, the test proves nothing", carried)
	}
	checkBlockBounds(t, n)
	for sid := 0; sid < 300; sid++ {
		if s, _ := n.query(fmt.Sprintf("submission/%d", sid)); s["status"] != "scored" {
			t.Fatalf("submission %d = %v after the queue drained", sid, s["status"])
		}
	}
	t.Logf("300 final arena submissions scored over %d blocks; largest block %d bytes", carried+1, maxWritten(n))
}

// TestDeadlineFloodCannotHaltCommit is the attack-free variant of finding
// 1: only 2 of 4 validators report, so nothing settles before the shared
// report deadline, and an empty block at that deadline settles every
// submission at once and queues them for scoring. The two reporters hold
// 30 of 50: more than the deadline quorum (1/2), not more than 2/3. One
// commit in five is never revealed, so the deadline also expires those
// (unrevealed) among the settlements. Every block fits, every revealed
// submission is scored, every other is unrevealed.
func TestDeadlineFloodCannotHaltCommit(t *testing.T) {
	g := boundGenesis()
	g.Validators[0].Power, g.Validators[1].Power = 15, 15
	n := newNodeLimits(t, t.TempDir(), g, smallLimits)
	miners := make([]*signer, 60)
	var txs [][]byte
	for i := range miners {
		miners[i] = newMiner(fmt.Sprint("deadline-miner-", i), uint32(i+1))
		txs = append(txs, miners[i].tx(t, msgRegister()))
	}
	r := []*signer{reporter(0), reporter(1)}
	for k := 0; k < 5; k++ {
		txs = append(txs, r[k%2].tx(t, msgArenaTask(5, 3, 3))) // commits to 4, reveals at 5, report deadline 1+3+1+3 = 8
	}
	mustOK(t, n.block(txs...))
	txs = nil
	for k := 0; k < 5; k++ {
		for _, m := range miners {
			txs = append(txs, m.commit(t, arenaPayloadOf(m, uint64(k))))
		}
	}
	mustOK(t, n.block(txs...)) // submission k*60+i: miner i, task k
	n.block()
	n.block()
	revealed := func(sid int) bool { return sid%5 != 0 }
	txs = nil
	for sid := 0; sid < 300; sid++ {
		if m := miners[sid%60]; revealed(sid) {
			txs = append(txs, m.reveal(t, arenaPayloadOf(m, uint64(sid/60))))
		}
	}
	mustOK(t, n.block(txs...)) // height 5: the reveal window
	txs = nil
	for sid := uint64(0); sid < 300; sid++ {
		if revealed(int(sid)) {
			txs = append(txs, r[0].tx(t, msgArenaReport(sid, arenaM())), r[1].tx(t, msgArenaReport(sid, arenaM())))
		}
	}
	mustOK(t, n.block(txs...))
	for n.height < 8 || (!drained(n) && n.height < 60) {
		n.block()
	}
	if !drained(n) {
		t.Fatal("the deadline's work did not drain")
	}
	checkBlockBounds(t, n)
	carried := 0
	for _, st := range n.stats {
		carried += len(st.carried)
	}
	if carried == 0 {
		t.Fatal("the deadline settled in one block: the limits did not bind, the test proves nothing")
	}
	for sid := 0; sid < 300; sid++ {
		want := kernel.StatusScored
		if !revealed(sid) {
			want = kernel.StatusUnrevealed
		}
		if s, _ := n.query(fmt.Sprintf("submission/%d", sid)); s["status"] != want {
			t.Fatalf("submission %d = %v, want %s", sid, s["status"], want)
		}
	}
}

func maxWritten(n *node) int {
	m := 0
	for _, r := range n.stats {
		m = max(m, r.written)
	}
	return m
}

// TestTaskFloodAtOneDeadline is the task flood: 3,000 tasks
// (posted by two validators over several blocks) share one report
// deadline. Before, settling each looked up every registered miner and
// every post rewrote the whole due list. Now posting is one keyed entry,
// settlement reads a task's own submissions, and the deadline's work is
// metered and carried.
func TestTaskFloodAtOneDeadline(t *testing.T) {
	g := boundGenesis()
	n := newNodeLimits(t, "", g, smallLimits)
	m := newMiner("flood-miner", 1)
	mustOK(t, n.block(m.tx(t, msgRegister())))
	r := []*signer{reporter(0), reporter(1)}
	deadline := int64(12)
	for n.height < 6 {
		var txs [][]byte
		h := n.height + 1
		for i := 0; i < 600; i++ {
			// report deadline h + sb + 1 (the reveal window) + 1 = deadline
			sb := deadline - h - 2
			txs = append(txs, r[i%2].tx(t, msgWorkflowTask(4, sb, 1)))
		}
		mustOK(t, n.block(txs...))
	}
	// the miner commits to tasks 0 and 1 (commits to 10, the reveal at 11)
	// and reveals only the first
	mustOK(t, n.block(m.commit(t, wfPayload(0)), m.commit(t, wfPayload(1))))
	for n.height < deadline-2 {
		n.block()
	}
	mustOK(t, n.block(m.reveal(t, wfPayload(0))))
	for n.height < deadline || (!drained(n) && n.height < deadline+40) {
		n.block()
	}
	if !drained(n) {
		t.Fatal("the due tasks did not drain")
	}
	checkBlockBounds(t, n)
	carried := 0
	for _, st := range n.stats {
		for _, c := range st.carried {
			if c == "settle_tasks" {
				carried++
			}
		}
	}
	if carried == 0 {
		t.Fatal("3,000 tasks at one deadline settled in one block: the work limit did not bind")
	}
	base, _ := n.app.base()
	st := store.State{O: store.NewOverlay(base)}
	for v := 0; v < 2; v++ {
		if open := st.U64(store.KeyOpenTasks(v)); open != 0 {
			t.Fatalf("validator %d still has %d open tasks after every deadline passed", v, open)
		}
	}
	if s, _ := n.query("submission/0"); s["status"] != kernel.StatusExpired {
		t.Fatalf("the revealed submission = %v, want expired (no reports)", s["status"])
	}
	if s, _ := n.query("submission/1"); s["status"] != kernel.StatusUnrevealed {
		t.Fatalf("the commit never revealed = %v, want unrevealed", s["status"])
	}
}

// TestAdversarialBlocks drives, for fixed seeds, heights of worst-case
// blocks from miners and a validator below 1/3 (and honest validators
// holding back reports to release them at once): task floods stacked on
// one deadline, floods of commits to the open tasks and of their reveals
// (valid ones among refused ones: wrong and short salts, another miner's
// opening, too early, second commits, late commits; some commits never
// revealed, so the deadline settles them as unrevealed), mass reports,
// far-future and minority truth rounds, gas commits at the window's edge
// revealed when the honest majority's truths become final and closed at
// the end of the reveal window. Every block must commit within the limits
// (the harness checks Prepare/Process/Finalize agree, and the last line
// never runs), every queue must drain once the flood stops, and an
// in-memory app fed the same blocks must agree at every height.
func TestAdversarialBlocks(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			res := adversarialRun(t, seed, 30)
			if res.carried == 0 {
				t.Fatal("no block carried work: the flood did not reach the limits, the test proves nothing")
			}
			t.Logf("codes %v; statuses %v; %d blocks carried", crbCodeNames(res.tally), res.statuses, res.carried)
			// the run did what it claims: commits and reveals taken, each
			// kind of refused reveal sent, commits that expired unrevealed,
			// duplicates, gas closes that counted revealed predictions
			for _, code := range []uint32{wire.CodeBadCommitment, wire.CodeRevealWindow, wire.CodeRevealMismatch, wire.CodeDuplicateSubmission} {
				if res.tally.codes[code] == 0 {
					t.Errorf("no transaction was refused with %s", wire.CodeName(code))
				}
			}
			for _, ev := range []string{wire.EventSubmissionAdded, wire.EventSubmissionRevealed, wire.EventSubmissionDuplicate, wire.EventGasWindowClosed} {
				if res.tally.events[ev] == 0 {
					t.Errorf("no %s event", ev)
				}
			}
			for _, st := range []string{kernel.StatusUnrevealed, kernel.StatusScored, kernel.StatusDuplicate} {
				if res.statuses[st] == 0 {
					t.Errorf("no submission ended %s", st)
				}
			}
		})
	}
}

// FuzzAdversarialBlocks runs the adversarial generator from a fuzzed seed,
// with a shorter flood.
func FuzzAdversarialBlocks(f *testing.F) {
	f.Add(uint64(7))
	f.Add(uint64(1 << 40))
	f.Fuzz(func(t *testing.T, seed uint64) { adversarialRun(t, seed, 12) })
}

// adversarialResult is what a run did: how many blocks carried end-of-block
// work, the decided blocks' result codes and events, and the submissions'
// final statuses.
type adversarialResult struct {
	carried  int
	tally    crbTally
	statuses map[string]int
}

func adversarialRun(t *testing.T, seed uint64, flood int) adversarialResult {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	g := boundGenesis()
	disk := newNodeLimits(t, t.TempDir(), g, smallLimits)
	mem := newNodeLimits(t, "", g, smallLimits)
	miners := make([]*signer, 40)
	for i := range miners {
		miners[i] = newMiner(fmt.Sprintf("adv-%d-miner-%d", seed, i), uint32(i+1))
	}
	cr := crbNewMiners(rng, miners)
	honest := []*signer{reporter(0), reporter(1), reporter(2)}
	minority := reporter(3)
	all := append(append(append([]*signer{}, miners...), honest...), minority)
	// honest[2] holds its reports back, to release them at once
	evm := uint64(1000)
	var res adversarialResult
	for h := int64(1); h <= int64(flood)+60; h++ {
		resync(disk, all...)
		var txs [][]byte
		add := func(s *signer, msg *subnetv1.Msg) { txs = append(txs, s.tx(t, msg)) }
		base, _ := disk.app.base()
		st := store.State{O: store.NewOverlay(base)}
		c := st.Counters()
		if h > 1 {
			cr.reveals(t, &txs, st, h) // every height: the reveals whose window is open
		}
		if h == 1 {
			for _, m := range miners {
				add(m, msgRegister())
			}
			for _, v := range honest {
				add(v, msgTruth(1, evm, "10", blockTime(h).Unix()))
			}
		} else if h <= int64(flood) {
			action := rng.IntN(5)
			switch h {
			case 2, 3: // every run stacks at least two floods on the deadline
				action = 0
			case int64(flood):
				action = 4
			}
			switch action {
			case 0: // task flood on one deadline, by the minority validator
				for i := 0; i < 600; i++ {
					add(minority, msgWorkflowTask(2, max(1, int64(flood)-h), 2))
				}
			case 1: // an arena task and a flood of commits to the open tasks
				add(honest[rng.IntN(2)], msgArenaTask(5, 5, 20))
				for id := c.NextTaskId; id > 0 && id > c.NextTaskId-6; id-- {
					for _, m := range miners[:rng.IntN(len(miners))] {
						cr.commitTask(t, &txs, st, h, m, id-1)
					}
				}
			case 2: // honest validators report; one of them holds its reports back
				for _, sub := range crbReportable(st, h, 0, 200) {
					txs = append(txs, crbReport(t, honest[0], sub))
				}
				for _, sub := range crbReportable(st, h, 1, 200) {
					txs = append(txs, crbReport(t, honest[1], sub))
				}
			case 3: // the minority's truth rounds: far future, in the window, in the far future of time
				for b := evm + 1; b <= evm+12; b++ {
					add(minority, msgTruth(1, b, "1", blockTime(h).Unix()+int64(rng.IntN(400))))
				}
				for _, m := range miners {
					b := evm + uint64(1+rng.IntN(9)) // up to one past max_prediction_ahead
					if b-st.GasChain(1).LastClosedBlock > g.Chain.MaxPredictionAhead {
						txs = append(txs, crbCommitNext(t, m, gasPayload(1, b, "11"))) // 34
						continue
					}
					cr.commit(t, &txs, m, gasPayload(1, b, fmt.Sprintf("%d.%d", 9+rng.IntN(3), rng.IntN(10))))
				}
			case 4: // release the held reports at once
				for _, sub := range crbReportable(st, h, 2, 1000) {
					txs = append(txs, crbReport(t, honest[2], sub))
				}
			}
		} else if h%7 == 0 { // calm: the honest majority makes the next EVM block final
			evm++
			for _, v := range honest {
				add(v, msgTruth(1, evm, "10", blockTime(h).Unix()))
			}
		}
		for _, x := range []*node{disk, mem} {
			resp, err := x.decide(h, blockTime(h), txs, []byte(fmt.Sprint("adv-", h)))
			if err != nil {
				t.Fatal(err)
			}
			if x == disk {
				res.tally.add(resp)
			}
		}
		if !bytes.Equal(disk.hashes[h], mem.hashes[h]) {
			t.Fatalf("seed %d height %d: disk and memory apps differ", seed, h)
		}
		resync(mem, all...)
	}
	if !drained(disk) {
		t.Fatalf("seed %d: queues still hold work 60 blocks after the flood stopped", seed)
	}
	checkBlockBounds(t, disk)
	for _, r := range disk.stats {
		if len(r.carried) > 0 {
			res.carried++
		}
	}
	res.statuses = crbStatuses(t, disk)
	return res
}
