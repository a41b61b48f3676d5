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
	g.Tracks = []genesis.Track{{Name: "workflow", Share: decimal.NewFromInt(1)}}
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
		txs[k] = signers[k%miners].tx(b, msgWorkflowSubmit(uint64(k/miners), int64(k%3)))
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
