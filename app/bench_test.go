package app

import (
	"context"
	"fmt"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/genesis"
)

// BenchmarkFinalizeBlockSubmissions measures signed workflow submissions per
// second through FinalizeBlock + Commit on a badger directory (synchronous
// writes), in blocks of 2000. Signing happens before the timer; each
// submission is validated, executed, hashed into the app hash and committed.
//   - cold: every signature is verified inside FinalizeBlock (a node that
//     never saw the txs in its mempool);
//   - checked: the txs went through CheckTx first (untimed), as on a node
//     whose mempool received them, so FinalizeBlock finds their signatures
//     in the verified-signature cache.
func BenchmarkFinalizeBlockSubmissions(b *testing.B) {
	for _, checked := range []bool{false, true} {
		name := "cold"
		if checked {
			name = "checked"
		}
		b.Run(name, func(b *testing.B) { benchSubmissions(b, checked) })
	}
}

func benchSubmissions(b *testing.B, checked bool) {
	const miners, perBlock = 2000, 2000
	g := testGenesis(4)
	g.Chain.MaxUIDs = miners
	// The gas track bounds max_uids (one EVM block close rewrites every agent, and genesis proves
	// that fits a block); this benchmark measures workflow submissions, so it runs that track alone.
	g.Tracks = []genesis.Track{{Name: "workflow", Share: decimal.NewFromInt(1), ActivityCutoffBlocks: genesis.DefaultTaskActivityCutoff}}
	n := newNode(b, b.TempDir(), g)
	signers := make([]*signer, miners)
	var regs [][]byte
	for i := range signers {
		signers[i] = newSigner(fmt.Sprintf("bench-miner-%d", i))
		regs = append(regs, signers[i].tx(b, msgRegister()))
	}
	r := reporter(0)
	var posts [][]byte
	for i := 0; i < b.N/miners+1; i++ {
		posts = append(posts, r.tx(b, msgWorkflowTask(4, 1000, 10)))
	}
	mustOK(b, n.block(append(regs, posts...)...))
	txs := make([][]byte, b.N)
	for k := range txs {
		txs[k] = signers[k%miners].tx(b, msgWorkflowSubmit(uint64(k/miners)))
		if checked {
			resp, _ := n.app.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: txs[k]})
			if resp.Code != wire.CodeOK {
				b.Fatalf("CheckTx %d: %s", k, resp.Log)
			}
		}
	}
	b.ResetTimer()
	for start := 0; start < len(txs); start += perBlock {
		end := min(start+perBlock, len(txs))
		resp := n.finalize(txs[start:end]...)
		if resp.TxResults[0].Code != wire.CodeOK {
			b.Fatalf("tx %d: %s", start, resp.TxResults[0].Log)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "subs/s")
}

// BenchmarkWorstCaseBlock measures the most a block can cost, FinalizeBlock
// + Commit on disk with the default limits: its transactions fill the
// transaction work budget (3,750 cold-signature submissions, every
// signature verified inside FinalizeBlock), and its end of block is
// saturated: 7,000 submissions, each reported by 2 of 4 validators, reach
// their report deadline in this block and settle (scored: the 2 reporters
// hold more than the deadline quorum) until the end-of-block budget stops
// them (the rest carry). Setup is not timed. The figure is
// in docs/performance.md; the target is ≤ 1 s on the reference machine.
func BenchmarkWorstCaseBlock(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		n, txs := worstCaseSetup(b)
		b.StartTimer()
		resp := n.finalize(txs...)
		b.StopTimer()
		for j, r := range resp.TxResults {
			if r.Code != wire.CodeOK {
				b.Fatalf("tx %d: %s", j, r.Log)
			}
		}
		last := n.stats[len(n.stats)-1]
		if len(last.carried) == 0 {
			b.Fatal("the end of block did not reach its budget: not a worst case")
		}
		b.ReportMetric(float64(last.written), "bytes/block")
		b.ReportMetric(float64(last.txWork+last.endWork), "units/block")
	}
}

func worstCaseSetup(b *testing.B) (*node, [][]byte) {
	const miners, tasks, perBlock = 250, 28, 2000 // 7,000 submissions
	g := testGenesis(4)
	// 2 reporters of 11 out of 42: more than deadline_quorum (1/2), less than 2/3, so every
	// submission settles — and scores — at its deadline, the costliest path.
	g.Validators[0].Power, g.Validators[1].Power = 11, 11
	g.Chain.MaxUIDs = 2 * miners
	g.Tracks = []genesis.Track{{Name: "workflow", Share: decimal.NewFromInt(1), ActivityCutoffBlocks: genesis.DefaultTaskActivityCutoff}}
	n := newNode(b, b.TempDir(), g)
	signers := make([]*signer, 2*miners)
	var txs [][]byte
	for i := range signers {
		signers[i] = newSigner(fmt.Sprintf("worst-miner-%d", i))
		txs = append(txs, signers[i].tx(b, msgRegister()))
	}
	r := []*signer{reporter(0), reporter(1)}
	for k := 0; k < tasks; k++ {
		txs = append(txs, r[0].tx(b, msgWorkflowTask(4, 10, 20))) // report deadline 1+10+20 = 31
	}
	for k := 0; k < 3750/miners; k++ { // tasks `tasks`…: the measured block's submissions
		txs = append(txs, r[1].tx(b, msgWorkflowTask(4, 100, 100)))
	}
	n.finalize(txs...)
	txs = nil
	for k := 0; k < tasks; k++ {
		for _, s := range signers[:miners] {
			txs = append(txs, s.tx(b, msgWorkflowSubmit(uint64(k))))
		}
	}
	for start := 0; start < len(txs); start += perBlock {
		n.finalize(txs[start:min(start+perBlock, len(txs))]...)
	}
	txs = nil
	for sid := uint64(0); sid < miners*tasks; sid++ {
		txs = append(txs, r[0].tx(b, msgWorkflowReport(sid, workflowM())), r[1].tx(b, msgWorkflowReport(sid, workflowM())))
	}
	for start := 0; start < len(txs); start += perBlock {
		n.finalize(txs[start:min(start+perBlock, len(txs))]...)
	}
	for n.height < 30 {
		n.finalize()
	}
	for _, st := range n.stats {
		for j, r := range st.txResults {
			if r.Code != wire.CodeOK {
				b.Fatalf("setup height %d tx %d: %s", st.height, j, r.Log)
			}
		}
	}
	// Height 31: the deadline. 3,750 submissions (TxWork / UnitsTx) to task `tasks`, cold.
	txs = nil
	for k := 0; k < 3750; k++ {
		s := signers[miners+k%miners]
		txs = append(txs, s.tx(b, msgWorkflowSubmit(uint64(tasks+k/miners))))
	}
	return n, txs
}
