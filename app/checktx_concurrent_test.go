package app

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/wire"
)

// TestCheckTxDoesNotTakeTheExecutionLock: CheckTx answers while block
// execution holds the app's lock (what CometBFT's per-connection locks
// allow), and a proposal's execution no longer delays the mempool.
func TestCheckTxDoesNotTakeTheExecutionLock(t *testing.T) {
	n := newNode(t, t.TempDir(), testGenesis(1))
	m := newSigner("miner-a")
	tx := m.tx(t, msgRegister())
	n.app.mu.Lock()
	defer n.app.mu.Unlock()
	done := make(chan *abcitypes.ResponseCheckTx, 1)
	go func() {
		resp, _ := n.app.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: tx})
		done <- resp
	}()
	select {
	case resp := <-done:
		if resp == nil || resp.Code != wire.CodeOK {
			t.Fatalf("CheckTx under the execution lock: %+v", resp)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("CheckTx waited 30 s for the lock block execution holds")
	}
}

// TestCheckTxBesideBlocks runs CheckTx in a loop on other goroutines while
// blocks execute and commit (run it with -race: make test does). Two nodes
// run the same blocks, one of them with the mempool busy the whole time:
// every block's results and app hash are the same on both, whether its
// signatures came from CheckTx's cache or were verified in the block.
func TestCheckTxBesideBlocks(t *testing.T) {
	const miners, perBlock, blocks = 32, 48, 8
	g := testGenesis(4)
	g.Chain.MaxUIDs = miners
	g.Membership = testMembership(miners)
	busy, quiet := newNode(t, t.TempDir(), g), newNode(t, t.TempDir(), g)
	signers := make([]*signer, miners)
	var setup [][]byte
	for i := range signers {
		signers[i] = newMiner(fmt.Sprintf("beside-miner-%d", i), uint32(i+1))
		setup = append(setup, signers[i].tx(t, msgRegister()))
	}
	r := reporter(0)
	for i := 0; i < perBlock*blocks/miners+1; i++ {
		setup = append(setup, r.tx(t, msgWorkflowTask(4, 1000, 10)))
	}
	mustOK(t, busy.block(setup...))
	mustOK(t, quiet.block(setup...))
	txs := make([][][]byte, blocks)
	for k := 0; k < perBlock*blocks; k++ {
		s := signers[k%miners]
		txs[k/perBlock] = append(txs[k/perBlock], s.commit(t, wfPayloadOf(s, uint64(k/miners))))
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	var checked atomic.Int64
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; !stop.Load(); i++ {
				blk := txs[i%blocks]
				tx := blk[(i*7)%len(blk)]
				if i%5 == 0 {
					tx = append(bytes.Clone(tx[:len(tx)-1]), tx[len(tx)-1]^1) // a broken signature
				}
				if _, err := busy.app.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: tx}); err != nil {
					t.Error(err)
					return
				}
				checked.Add(1)
			}
		}()
	}
	for j := 0; j < blocks; j++ {
		a, b := busy.block(txs[j]...), quiet.block(txs[j]...)
		mustOK(t, a)
		if !bytes.Equal(a.AppHash, b.AppHash) {
			t.Fatalf("block %d: app hash %X beside CheckTx, %X without", j, a.AppHash, b.AppHash)
		}
	}
	stop.Store(true)
	wg.Wait()
	if checked.Load() == 0 {
		t.Fatal("no CheckTx ran beside the blocks")
	}
	t.Logf("%d CheckTx calls beside %d blocks", checked.Load(), blocks)
}
