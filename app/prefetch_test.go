package app

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
)

// TestPrefetchChangesNothing: a node told each next block's transactions
// ahead (App.Prefetch, as replay does) computes the same results and app
// hashes as one that is not, a forged signature among them included; a
// prefetch of a later height survives the blocks before it, and only valid
// signatures reach the cache.
func TestPrefetchChangesNothing(t *testing.T) {
	const miners = 8
	g := testGenesis(4)
	g.Chain.MaxUIDs = miners
	g.Membership = testMembership(miners)
	ahead, plain := newNode(t, t.TempDir(), g), newNode(t, t.TempDir(), g)
	signers := make([]*signer, miners)
	var setup [][]byte
	for i := range signers {
		signers[i] = newMiner(fmt.Sprintf("prefetch-miner-%d", i), uint32(i+1))
		setup = append(setup, signers[i].tx(t, msgRegister()))
	}
	r := reporter(0)
	for i := 0; i < 4; i++ {
		setup = append(setup, r.tx(t, msgWorkflowTask(4, 1000, 10)))
	}
	blocks := [][][]byte{setup}
	for j := 0; j < 4; j++ {
		var blk [][]byte
		for _, s := range signers {
			blk = append(blk, s.commit(t, wfPayloadOf(s, uint64(j))))
		}
		blocks = append(blocks, blk)
	}
	forged := append(bytes.Clone(blocks[4][3][:len(blocks[4][3])-1]), blocks[4][3][len(blocks[4][3])-1]^1)
	blocks[4][3] = forged
	ahead.app.Prefetch(ahead.height+2, blocks[1]) // a later height: left running by block 1
	for j, blk := range blocks {
		if j+1 < len(blocks) && j > 0 {
			ahead.app.Prefetch(ahead.height+2, blocks[j+1])
		}
		a, b := ahead.finalize(blk...), plain.finalize(blk...)
		if !bytes.Equal(a.AppHash, b.AppHash) {
			t.Fatalf("block %d: app hash %X with prefetch, %X without", j, a.AppHash, b.AppHash)
		}
		for i := range a.TxResults {
			if a.TxResults[i].Code != b.TxResults[i].Code {
				t.Fatalf("block %d tx %d: code %d with prefetch, %d without", j, i, a.TxResults[i].Code, b.TxResults[i].Code)
			}
		}
		if j == 4 && a.TxResults[3].Code != wire.CodeBadSignature {
			t.Fatalf("the forged tx: code %d, want bad_signature", a.TxResults[3].Code)
		}
	}
	if ahead.app.sigs.known(txHash(forged)) {
		t.Fatal("a forged signature reached the signature cache")
	}
	if !ahead.app.sigs.known(txHash(blocks[4][0])) {
		t.Fatal("a prefetched valid signature is not in the cache")
	}
}
