package app

import (
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
)

// TestGasWindows: EVM chain 1 with windows of 4 blocks. A truth, a commit
// and a reveal name a window by its first block (a multiple of 4); any
// other block is refused with evm_window_misaligned (76) before anything
// else about the block is judged. The aligned truth closes window 100, and
// gaschain/1 says so with the window size; chain 8453 keeps windows of one
// block.
func TestGasWindows(t *testing.T) {
	g := testGenesis(3)
	g.Chain.GasWindows = []genesis.GasWindow{{EvmChainID: 1, WindowBlocks: 4}}
	n := newNode(t, "", g)
	m := newMiner("miner-a", 1)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(m.tx(t, msgRegister())))
	ts := blockTime(n.height + 1).Unix()
	refused := []struct {
		name string
		tx   []byte
	}{
		{"truth of block 98", r[0].next(msgTruth(1, 98, "10", ts))},
		{"truth of block 101", r[0].next(msgTruth(1, 101, "10", ts))},
	}
	for _, c := range refused {
		resp := finalizeOnly(t, n, n.height+1, [][]byte{c.tx})
		if got := resp.TxResults[0].Code; got != wire.CodeEVMWindowMisaligned {
			t.Fatalf("%s: code %d (%s), want evm_window_misaligned: %s", c.name, got, wire.CodeName(got), resp.TxResults[0].Log)
		}
	}
	mustOK(t, n.block(anchorTxs(t, r, 1, 100, ts)...))
	gc, code := n.query("gaschain/1")
	if code != 0 || gc["window_blocks"] != float64(4) || gc["last_closed_block"] != float64(100) || gc["last_min_price"] != "1.000000000000000000" {
		t.Fatalf("gaschain/1 = %v (code %d), want window_blocks 4, last closed 100 at price 1", gc, code)
	}
	if gc, _ := n.query("gaschain/8453"); gc["window_blocks"] != float64(1) || gc["last_closed_block"] != nil {
		t.Fatalf("gaschain/8453 = %v, want window_blocks 1 and nothing closed", gc)
	}
	if _, code := n.query("gaschain/5"); code != 2 {
		t.Fatalf("gaschain/5 (not a gas chain): code %d, want 2", code)
	}
	for _, c := range []struct {
		block uint64
		code  uint32
	}{{102, wire.CodeEVMWindowMisaligned}, {103, wire.CodeEVMWindowMisaligned}, {112, wire.CodePredictionTooFar}, {104, wire.CodeOK}} {
		resp := finalizeOnly(t, n, n.height+1, [][]byte{m.commit(t, gasPayload(1, c.block, "10"))})
		m.nonce-- // nothing was committed
		if got := resp.TxResults[0].Code; got != c.code {
			t.Fatalf("commit to block %d: code %d (%s), want %d: %s", c.block, got, wire.CodeName(got), c.code, resp.TxResults[0].Log)
		}
	}
	resp := finalizeOnly(t, n, n.height+1, [][]byte{m.reveal(t, gasPayload(1, 106, "10"))})
	m.nonce--
	if got := resp.TxResults[0].Code; got != wire.CodeEVMWindowMisaligned {
		t.Fatalf("reveal for block 106: code %d (%s), want evm_window_misaligned", got, wire.CodeName(got))
	}
	// the next window closes with an aligned truth; 104's price is the
	// validators' minimum over blocks 104-107
	mustOK(t, n.block(anchorTxs(t, r, 1, 104, blockTime(n.height+1).Unix())...))
	if gc, _ := n.query("gaschain/1"); gc["last_closed_block"] != float64(104) {
		t.Fatalf("gaschain/1 after window 104: %v", gc)
	}
}
