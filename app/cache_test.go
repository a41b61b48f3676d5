package app

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/store"
)

// TestValueCacheChangesNoHash: the same chain of commits, with a proposal
// that loses before every decided block (the same miners committing other
// payloads: every account and task the decided block writes, written
// otherwise and never committed), runs on an app with its value cache and
// on one without: every height's app hash is the same. The cache was
// used: it answered reads and holds the accounts read.
func TestValueCacheChangesNoHash(t *testing.T) {
	const miners, blocks = 40, 12
	run := func(cached bool) ([][]byte, *App) {
		g := testGenesis(4)
		g.Chain.MaxUIDs = miners
		g.Membership = testMembership(miners)
		n := newNodeConfig(t, Config{DataDir: t.TempDir()}, g)
		if !cached {
			n.app.values = store.NewValueCache(0, 0)
		}
		signers := make([]*signer, miners)
		var setup [][]byte
		for i := range signers {
			signers[i] = newMiner(fmt.Sprintf("cache-miner-%d", i), uint32(i+1))
			setup = append(setup, signers[i].tx(t, msgRegister()))
		}
		r := reporter(0)
		for i := 0; i < blocks; i++ {
			setup = append(setup, r.tx(t, msgWorkflowTask(4, int64(2+i), 10))) // windows closing along the run
		}
		mustOK(t, n.block(setup...))
		for h := 0; h < blocks-2; h++ {
			nonces := make([]uint64, miners)
			lost := make([][]byte, miners)
			for i, s := range signers {
				nonces[i] = s.nonce
				lost[i] = s.commit(t, wfPayloadOf(signers[(i+1)%miners], uint64(h+1)))
				s.nonce = nonces[i]
			}
			next := n.height + 1
			resp, err := n.app.ProcessProposal(context.Background(), &abcitypes.RequestProcessProposal{Height: next,
				Time: blockTime(next), Txs: lost, Hash: []byte(fmt.Sprintf("lost %d", next))})
			if err != nil || resp.Status != abcitypes.ResponseProcessProposal_ACCEPT {
				t.Fatalf("losing proposal at %d: %v %v", next, resp, err)
			}
			won := make([][]byte, miners)
			for i, s := range signers {
				won[i] = s.commit(t, wfPayloadOf(s, uint64(h+1)))
			}
			mustOK(t, n.finalize(won...))
		}
		return n.hashes, n.app
	}
	with, a := run(true)
	without, _ := run(false)
	for h := range with {
		if !bytes.Equal(with[h], without[h]) {
			t.Fatalf("height %d: app hash %x with the caches, %x without", h, with[h], without[h])
		}
	}
	if hits, _ := a.values.Counts(); hits == 0 {
		t.Fatal("the value cache answered no read")
	}
	if a.values.Len() < miners {
		t.Fatalf("the value cache holds %d keys, fewer than the %d accounts read in every block", a.values.Len(), miners)
	}
}
