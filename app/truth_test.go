package app

import (
	"testing"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
)

// TestTruthBeforeLastCloseExpires: truths for block 15 cast before block 10
// closed (at 200) aggregate to timestamp 100 < 200; the round expires
// instead of moving the agents' clocks backwards, and block 15 is refused after.
func TestTruthBeforeLastCloseExpires(t *testing.T) {
	n := newNode(t, "", testGenesis(4))
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(r[0].tx(t, msgTruth(1, 15, "10", 100)), r[1].tx(t, msgTruth(1, 15, "10", 100))))
	mustOK(t, n.block(r[0].tx(t, msgTruth(1, 10, "10", 200)), r[1].tx(t, msgTruth(1, 10, "10", 200)), r[2].tx(t, msgTruth(1, 10, "10", 200))))
	mustOK(t, n.block(r[2].tx(t, msgTruth(1, 15, "10", 300))))
	base, _ := n.app.base()
	st := store.State{O: store.NewOverlay(base)}
	round, ok := st.Truth(1, 15)
	if !ok || round.Status != kernel.StatusExpired {
		t.Fatalf("round of block 15 = %v, want expired", round)
	}
	if gc := st.GasChain(1); gc.LastClosedBlock != 10 || gc.LastTimestamp != 200 {
		t.Fatalf("chain 1 closed at %d/%d, want block 10 at 200", gc.LastClosedBlock, gc.LastTimestamp)
	}
	resp := finalizeOnly(t, n, n.height+1, [][]byte{newSigner("x").next(msgRegister()), reporter(3).next(msgTruth(1, 15, "10", 300))})
	if resp.TxResults[1].Code != wire.CodeEVMBlockClosed {
		t.Fatalf("truth for an expired round: code %d, want evm_block_closed", resp.TxResults[1].Code)
	}
}
