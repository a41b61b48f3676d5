package app

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
)

// checkTwins is two nodes with the same state: one answers CheckTx one
// request at a time, the other CheckTxs in runs.
type checkTwins struct {
	one, runs *node
	miners    []*signer
}

// checkSetup is a genesis for the given number of miners and the txs
// that register them (uids 1..miners) and post tasks workflow tasks.
func checkSetup(tb testing.TB, miners, tasks int) (genesis.AppState, []*signer, [][]byte) {
	g := testGenesis(4)
	g.Chain.MaxUIDs = miners
	g.Membership = testMembership(miners)
	signers := make([]*signer, miners)
	var setup [][]byte
	for i := range signers {
		signers[i] = newMiner(fmt.Sprintf("checktxs-miner-%d", i), uint32(i+1))
		setup = append(setup, signers[i].tx(tb, msgRegister()))
	}
	r := reporter(0)
	for i := 0; i < tasks; i++ {
		setup = append(setup, r.tx(tb, msgWorkflowTask(4, 1000, 10)))
	}
	return g, signers, setup
}

func newCheckTwins(t *testing.T, miners, tasks int) *checkTwins {
	g, signers, setup := checkSetup(t, miners, tasks)
	tw := &checkTwins{one: newNode(t, t.TempDir(), g), runs: newNode(t, t.TempDir(), g), miners: signers}
	mustOK(t, tw.one.block(setup...))
	mustOK(t, tw.runs.block(setup...))
	return tw
}

// check answers txs one by one on one and in runs of the given sizes
// (cycled) on runs, and fails on the first answer that differs.
func (tw *checkTwins) check(t *testing.T, txs [][]byte, sizes []int) []*abcitypes.ResponseCheckTx {
	t.Helper()
	var want []*abcitypes.ResponseCheckTx
	for _, tx := range txs {
		r, err := tw.one.app.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: tx})
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, r)
	}
	var got []*abcitypes.ResponseCheckTx
	for k, at := 0, 0; at < len(txs); k++ {
		n := min(sizes[k%len(sizes)], len(txs)-at)
		var reqs []*abcitypes.RequestCheckTx
		for _, tx := range txs[at : at+n] {
			reqs = append(reqs, &abcitypes.RequestCheckTx{Tx: tx})
		}
		rs, err := tw.runs.app.CheckTxs(context.Background(), reqs)
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) != n {
			t.Fatalf("CheckTxs answered %d of %d requests", len(rs), n)
		}
		got = append(got, rs...)
		at += n
	}
	for i := range want {
		if got[i].Code != want[i].Code || got[i].Log != want[i].Log || got[i].Codespace != want[i].Codespace {
			t.Fatalf("tx %d: in a run %d %q, alone %d %q", i, got[i].Code, got[i].Log, want[i].Code, want[i].Log)
		}
	}
	return got
}

// commits is one commit per miner per task, tasks first..first+n-1, in
// rounds over the miners.
func (tw *checkTwins) commits(t *testing.T, first, n int) [][]byte {
	var txs [][]byte
	for task := first; task < first+n; task++ {
		for _, s := range tw.miners {
			txs = append(txs, s.commit(t, wfPayloadOf(s, uint64(task))))
		}
	}
	return txs
}

func breakSig(tx []byte) []byte { return append(bytes.Clone(tx[:len(tx)-1]), tx[len(tx)-1]^1) }

// TestCheckTxsMatchesCheckTx: answered in runs, with their signatures
// batched, transactions get exactly the answers CheckTx gives them one at
// a time, through valid runs, broken signatures, replays, bytes that do
// not decode and senders nobody registered; and the runs did batch.
func TestCheckTxsMatchesCheckTx(t *testing.T) {
	tw := newCheckTwins(t, 24, 8)
	valid := tw.commits(t, 1, 4) // 96 commits, each sender's nonces in order
	tw.check(t, valid, []int{1, 5, 16, 64, 3, 7})
	st := tw.runs.app.CheckRuns()
	if st.Batches == 0 || st.Failed != 0 {
		t.Fatalf("valid runs: %+v, want batches and none failed", st)
	}
	if st.Checks != len(valid) || st.Rechecks != 0 {
		t.Fatalf("valid runs: %+v, want %d checks and no recheck", st, len(valid))
	}
	rechecks := []*abcitypes.RequestCheckTx{{Tx: valid[0], Type: abcitypes.CheckTxType_Recheck}, {Tx: valid[1], Type: abcitypes.CheckTxType_Recheck}}
	if _, err := tw.runs.app.CheckTxs(context.Background(), rechecks); err != nil {
		t.Fatal(err)
	}
	if st := tw.runs.app.CheckRuns(); st.Checks != len(valid) || st.Rechecks != 2 {
		t.Fatalf("after a run of 2 rechecks: %+v, want %d checks and 2 rechecks", st, len(valid))
	}

	stranger := newMiner("checktxs-stranger", 999)
	var mixed [][]byte
	for i, tx := range tw.commits(t, 5, 4) {
		switch i % 9 {
		case 2:
			mixed = append(mixed, breakSig(tx))
		case 4:
			mixed = append(mixed, tx, tx) // the second is a replay
		case 6:
			mixed = append(mixed, []byte("not a transaction"))
			mixed = append(mixed, tx)
		case 8:
			mixed = append(mixed, stranger.commit(t, wfPayloadOf(stranger, 5)))
			mixed = append(mixed, tx)
		default:
			mixed = append(mixed, tx)
		}
	}
	got := tw.check(t, mixed, []int{16, 2, 64, 9})
	codes := map[uint32]int{}
	for _, r := range got {
		codes[r.Code]++
	}
	if codes[wire.CodeOK] == 0 || codes[wire.CodeBadSignature] == 0 || len(codes) < 4 {
		t.Fatalf("the mixed run's answers %v: want accepted, bad signatures and other refusals", codes)
	}
}

// TestCheckTxsBadSignatureSender: a sender who slips a bad signature
// into its runs costs one failed batch, once: its key becomes a suspect,
// its later transactions are verified one at a time, and every other
// sender's stay batched. Here miner 0 breaks the signature of its
// transaction in every run it appears in (every other run of 16), and
// later miner 1 once; every run is still batched, two batches fail and
// two senders become suspects. (With one cooldown for everyone, as
// before, one bad signature per 256 transactions from any registered key
// turned batching off for all.) The answers are CheckTx's, one at a time.
func TestCheckTxsBadSignatureSender(t *testing.T) {
	tw := newCheckTwins(t, 32, 12)
	txs := tw.commits(t, 1, 12) // 384, task-major over the 32 miners
	const run = 16
	broken := 0
	for at := 0; at < len(txs); at += run {
		for i := at; i < at+run; i++ {
			if i%len(tw.miners) == 0 {
				txs[i] = breakSig(txs[i])
				broken++
				break
			}
		}
	}
	txs[300] = breakSig(txs[300]) // miner 300 % 32 = 12, once
	got := tw.check(t, txs, []int{run})
	if got[0].Code != wire.CodeBadSignature || got[300].Code != wire.CodeBadSignature || got[1].Code != wire.CodeOK {
		t.Fatalf("codes: tx 0 %d, tx 300 %d, tx 1 %d", got[0].Code, got[300].Code, got[1].Code)
	}
	st := tw.runs.app.CheckRuns()
	if runs := len(txs) / run; st.Batches != runs {
		t.Errorf("%+v: %d batches, want one per run (%d): one sender's bad signatures turned batching off for the others", st, st.Batches, runs)
	}
	if st.Failed != 2 || st.Suspects != 2 {
		t.Errorf("%+v: want 2 failed batches and 2 suspects (miner 0's %d bad signatures fail one batch)", st, broken)
	}
	// the suspects' transactions are out of the batches once they are
	// suspects: miner 0's 11 after tx 0, and miner 12's 2 after tx 300 (its
	// commit to task 10; tasks 11 and 12 hold the 2)
	if want := len(txs) - 12 + 1 - 2; st.Batched != want {
		t.Errorf("%+v: %d batched, want %d", st, st.Batched, want)
	}
}

// TestCheckTxsSkipsFreshKeys: signatures by keys the node does not hold
// expanded are left to each transaction's turn (after its cheap checks),
// so a flood from fresh keys is not batched.
func TestCheckTxsSkipsFreshKeys(t *testing.T) {
	tw := newCheckTwins(t, 4, 2)
	var txs [][]byte
	for i := 0; i < 32; i++ {
		s := newMiner(fmt.Sprintf("checktxs-fresh-%d", i), uint32(100+i))
		txs = append(txs, s.commit(t, wfPayloadOf(s, 1)))
	}
	tw.check(t, txs, []int{32})
	if st := tw.runs.app.CheckRuns(); st.Batches != 0 {
		t.Fatalf("fresh keys: %+v, want no batch", st)
	}
}

// BenchmarkCheckTx measures what the mempool's check of a signed workflow
// commit costs a node, one request at a time (CheckTx, as CometBFT's plain
// local client asks) and in runs of 16 (CheckTxs, as mempoolconn hands
// them over under load), with the senders' keys already expanded (256
// registered miners that have sent before). The check state is reset by a
// block every 2,000 txs, as on a node whose mempool a block empties; the
// blocks are not timed.
func BenchmarkCheckTx(b *testing.B) {
	for _, run := range []int{1, 16} {
		b.Run(fmt.Sprint("run=", run), func(b *testing.B) { benchCheckTx(b, run) })
	}
}

func benchCheckTx(b *testing.B, run int) {
	const miners, chunk = 256, 2000
	tasks := b.N/miners + 2
	g, signers, setup := checkSetup(b, miners, tasks)
	n := newNode(b, b.TempDir(), g)
	for start := 0; start < len(setup); start += chunk {
		mustOK(b, n.block(setup[start:min(start+chunk, len(setup))]...))
	}
	// Each key verified once more in CheckTx (the block's own check was the
	// first): expanded from here on. The empty block resets the check state.
	for i, s := range signers {
		nonce := s.nonce
		if resp, _ := n.app.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: s.commit(b, wfPayloadOf(s, uint64(tasks-1)))}); resp.Code != wire.CodeOK {
			b.Fatalf("warm-up CheckTx %d: %s", i, resp.Log)
		}
		s.nonce = nonce
	}
	n.finalize()
	txs := make([][]byte, b.N)
	for k := range txs {
		s := signers[k%miners]
		txs[k] = s.commit(b, wfPayloadOf(s, uint64(k/miners)))
	}
	ctx := context.Background()
	var cpu time.Duration // of the timed parts only
	b.ResetTimer()
	for start := 0; start < len(txs); start += chunk {
		part := txs[start:min(start+chunk, len(txs))]
		cpu0 := processCPU()
		for at := 0; at < len(part); at += run {
			var reqs []*abcitypes.RequestCheckTx
			for _, tx := range part[at:min(at+run, len(part))] {
				reqs = append(reqs, &abcitypes.RequestCheckTx{Tx: tx})
			}
			var res []*abcitypes.ResponseCheckTx
			if run == 1 {
				r, _ := n.app.CheckTx(ctx, reqs[0])
				res = append(res, r)
			} else {
				res, _ = n.app.CheckTxs(ctx, reqs)
			}
			for i, r := range res {
				if r.Code != wire.CodeOK {
					b.Fatalf("tx %d: %s", start+at+i, r.Log)
				}
			}
		}
		b.StopTimer()
		cpu += processCPU() - cpu0
		mustOK(b, n.finalize(part...))
		b.StartTimer()
	}
	b.StopTimer()
	reportCPU(b, cpu)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "txs/s")
}
