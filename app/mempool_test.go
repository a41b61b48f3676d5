package app

import (
	"context"
	"testing"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/x/budget"

	abcitypes "github.com/cometbft/cometbft/abci/types"
)

// TestCheckTxHeightHonoursInitialHeight: before the first commit CheckTx
// validates at InitChain's initial height (here 100), not at height 1: a
// task posted through CheckTx is posted at 100, as the first block will.
func TestCheckTxHeightHonoursInitialHeight(t *testing.T) {
	a, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	req := initRequest(t, testGenesis(1))
	req.InitialHeight = 100
	if _, err := a.InitChain(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	r := reporter(0)
	chk, _ := a.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: r.tx(t, msgWorkflowTask(4, 1, 1))})
	if chk.Code != wire.CodeOK {
		t.Fatalf("CheckTx: %d %s", chk.Code, chk.Log)
	}
	task, ok := store.State{O: a.check}.Task(0)
	if !ok || task.PostedHeight != 100 || task.SubmitDeadline != 101 || task.RevealDeadline != 102 || task.ReportDeadline != 103 {
		t.Fatalf("task in the check state = %v, want posted at 100 (commits to 101, reveals at 102, reports to 103)", task)
	}
	// After the first commit (height 100) the next height is 101.
	if _, err := a.FinalizeBlock(context.Background(), &abcitypes.RequestFinalizeBlock{Height: 100, Time: blockTime(100)}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Commit(context.Background(), &abcitypes.RequestCommit{}); err != nil {
		t.Fatal(err)
	}
	if h := a.nextHeight(); h != 101 {
		t.Fatalf("next height after committing 100 = %d, want 101", h)
	}
}

// TestCheckTxRefusesTxBeyondBlockBudget: a transaction whose own writes
// exceed what a block may write can never be included, so CheckTx refuses
// it with code 40 instead of keeping it in the mempool; the budget applies
// per transaction, not to the check state's total.
func TestCheckTxRefusesTxBeyondBlockBudget(t *testing.T) {
	// a registration writes account, counters and miner: more than 200 bytes
	n := newNodeLimits(t, "", testGenesis(1), budget.Limits{BlockWrites: 200, TxWrites: 200})
	m := newSigner("miner-a")
	tx := m.next(msgRegister())
	chk, _ := n.app.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: tx})
	if chk.Code != wire.CodeBlockFull {
		t.Fatalf("CheckTx code %d (%s), want block_full", chk.Code, chk.Log)
	}
	// each registration alone fits; three of them together do not
	n = newNodeLimits(t, "", testGenesis(1), budget.Limits{BlockWrites: 1000, TxWrites: 1000})
	for i := 0; i < 3; i++ {
		s := newSigner("miner-" + string(rune('b'+i)))
		if chk, _ := n.app.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: s.tx(t, msgRegister())}); chk.Code != wire.CodeOK {
			t.Fatalf("registration %d: code %d (%s)", i, chk.Code, chk.Log)
		}
	}
}
