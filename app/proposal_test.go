package app

import (
	"bytes"
	"context"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"

	abcitypes "github.com/cometbft/cometbft/abci/types"
)

// TestPrepareProposal keeps valid txs in order, drops the ones invalid after
// the ones before them (a replayed nonce, garbage) and respects MaxTxBytes.
func TestPrepareProposal(t *testing.T) {
	n := newNode(t, "", testGenesis(1))
	a := newSigner("miner-a")
	reg := a.tx(t, msgRegister())
	replay := a.at(0, msgRegister())
	task := reporter(0).tx(t, msgWorkflowTask(2, 3, 3))
	cases := []struct {
		name string
		txs  [][]byte
		max  int64
		want [][]byte
	}{
		{"all valid", [][]byte{reg, task}, 1 << 20, [][]byte{reg, task}},
		{"replayed nonce dropped", [][]byte{reg, replay, task}, 1 << 20, [][]byte{reg, task}},
		{"garbage dropped", [][]byte{[]byte("junk"), reg}, 1 << 20, [][]byte{reg}},
		{"byte bound", [][]byte{reg, task}, int64(len(reg)), [][]byte{reg}},
		{"nothing fits", [][]byte{reg}, int64(len(reg)) - 1, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, err := n.app.PrepareProposal(context.Background(), &abcitypes.RequestPrepareProposal{
				Txs: c.txs, MaxTxBytes: c.max, Height: 1, Time: blockTime(1)})
			if err != nil {
				t.Fatal(err)
			}
			if len(resp.Txs) != len(c.want) {
				t.Fatalf("kept %d txs, want %d", len(resp.Txs), len(c.want))
			}
			for i := range c.want {
				if !bytes.Equal(resp.Txs[i], c.want[i]) {
					t.Fatalf("tx %d differs", i)
				}
			}
		})
	}
}

// TestProcessProposal rejects a block holding an invalid tx, accepts a valid
// one, and FinalizeBlock of the accepted block (cached) equals a fresh run.
func TestProcessProposal(t *testing.T) {
	g := testGenesis(1)
	n := newNode(t, "", g)
	fresh := newNode(t, "", g)
	a := newSigner("miner-a")
	reg := a.tx(t, msgRegister())
	bad := a.at(5, msgRegister())
	ctx := context.Background()
	rej, _ := n.app.ProcessProposal(ctx, &abcitypes.RequestProcessProposal{Txs: [][]byte{reg, bad}, Height: 1, Time: blockTime(1), Hash: []byte("x")})
	if rej.Status != abcitypes.ResponseProcessProposal_REJECT {
		t.Fatal("block with an invalid tx accepted")
	}
	acc, _ := n.app.ProcessProposal(ctx, &abcitypes.RequestProcessProposal{Txs: [][]byte{reg}, Height: 1, Time: blockTime(1), Hash: []byte("block-1")})
	if acc.Status != abcitypes.ResponseProcessProposal_ACCEPT {
		t.Fatal("valid block rejected")
	}
	r1 := n.block(reg) // same hash "block-1": takes the cached result
	r2 := fresh.block(reg)
	if !bytes.Equal(r1.AppHash, r2.AppHash) {
		t.Fatal("cached ProcessProposal result differs from a fresh FinalizeBlock")
	}
}

// TestCheckTxSequentialNonces: one sender can queue nonces 0, 1, 2 (and
// register then commit) before a block; a replay is refused; the check state
// restarts from the committed state at Commit.
func TestCheckTxSequentialNonces(t *testing.T) {
	n := newNode(t, "", testGenesis(1))
	a, r := newMiner("miner-a", 1), reporter(0)
	ctx := context.Background()
	check := func(tx []byte) uint32 {
		resp, err := n.app.CheckTx(ctx, &abcitypes.RequestCheckTx{Tx: tx})
		if err != nil {
			t.Fatal(err)
		}
		return resp.Code
	}
	task := r.tx(t, msgWorkflowTask(2, 3, 3))
	reg := a.tx(t, msgRegister())
	sub := a.commit(t, wfPayload(0))
	for i, tx := range [][]byte{task, reg, sub} {
		if c := check(tx); c != wire.CodeOK {
			t.Fatalf("tx %d: code %d", i, c)
		}
	}
	if c := check(reg); c != wire.CodeNonceUsed {
		t.Fatalf("replay in the mempool: code %d, want nonce_used", c)
	}
	mustOK(t, n.block(task, reg))
	if c := check(sub); c != wire.CodeOK {
		t.Fatalf("after Commit the queued commit must still pass: code %d", c)
	}
	if c := check(reg); c != wire.CodeNonceUsed {
		t.Fatalf("committed tx again: code %d", c)
	}
}
