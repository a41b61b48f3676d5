package app

import (
	"fmt"
	"reflect"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/x/budget"
)

// passParams proposes patch from reporter 0 and has every other reporter
// approve it, in two blocks; the upgrade comes into force at activation.
func passParams(t *testing.T, n *node, r []*signer, patch string, activation int64) {
	t.Helper()
	resp := n.block(r[0].tx(t, client.ProposeParams([]byte(patch), activation, n.height+2)))
	mustOK(t, resp)
	id, ok := eventAttr(resp.TxResults[0].Events, wire.EventProposalSubmitted, "proposal_id")
	if !ok {
		t.Fatalf("no proposal_submitted event: %v", resp.TxResults[0].Events)
	}
	var pid uint64
	fmt.Sscan(id, &pid)
	var txs [][]byte
	for _, v := range r[1:] {
		txs = append(txs, v.tx(t, client.Approve(pid)))
	}
	resp = n.block(txs...)
	mustOK(t, resp)
	if _, ok := eventAttr(resp.TxResults[len(txs)-1].Events, wire.EventProposalPassed, "activation_height"); !ok {
		t.Fatalf("the params proposal %s did not pass", patch)
	}
}

// blockEvent is the value of key in the first end-of-block or tx event of
// type typ in resp.
func blockEvent(resp *abcitypes.ResponseFinalizeBlock, typ, key string) (string, bool) {
	if v, ok := eventAttr(resp.Events, typ, key); ok {
		return v, true
	}
	for _, tr := range resp.TxResults {
		if v, ok := eventAttr(tr.Events, typ, key); ok {
			return v, true
		}
	}
	return "", false
}

// TestGasChainPauseResume: governance pauses EVM chain 1 and later resumes
// it at EVM block 1000.
//   - While paused, a commit, a reveal and a truth for chain 1 are refused
//     with evm_chain_paused (80); chain 8453 goes on.
//   - At the block the pause comes into force, the open predictions end
//     unscored with the pause note: the one of block 2, whose truth was
//     final and whose reveal window the pause cut (its close, due in the
//     same block, judges nobody), and the one of block 3, whose round was
//     pending; that round is dropped. The agent's record is unchanged.
//   - The resume closes the chain up to block 999 the block before it
//     comes into force; the truth of block 1000 is then taken and final, a
//     commit to 1001 is taken and one to 999 refused as closed; nothing of
//     blocks 4..999 was owed. A replay reaches the same hashes.
func TestGasChainPauseResume(t *testing.T) {
	g := testGenesis(3)
	g.Governance.MinUpgradeDelayBlocks = 3
	n := newNode(t, "", g)
	m := newMiner("miner-p", 1)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	ts := func() int64 { return blockTime(n.height + 1).Unix() }
	mustOK(t, n.block(append([][]byte{m.tx(t, msgRegister())}, anchorTxs(t, r, 1, 1, ts())...)...))
	const pausedFrom = 8
	passParams(t, n, r, `{"chain":{"gas_paused":[{"evm_chain_id":1}]}}`, pausedFrom) // heights 2, 3
	p2, p3 := gasPayload(1, 2, "10"), gasPayload(1, 3, "10")
	mustOK(t, n.block(m.commit(t, p2), m.commit(t, p3))) // submissions 0 and 1
	for n.height < pausedFrom-2 {
		mustOK(t, n.block())
	}
	agent, _ := n.query("gas/1/1")
	// height 7: block 2 final (reveals from 8), block 3 pending with one vote
	var txs [][]byte
	for _, v := range r {
		txs = append(txs, v.tx(t, msgTruth(1, 2, "10", ts())))
	}
	mustOK(t, n.block(append(txs, r[0].tx(t, msgTruth(1, 3, "10", ts())))...))
	if tr, _ := n.query("truth/1/3"); tr["status"] != kernel.StatusPending {
		t.Fatalf("truth/1/3 before the pause: %v", tr)
	}

	refused := []struct {
		name string
		tx   func() []byte
		undo func()
	}{
		{"commit to block 4", func() []byte { return m.commit(t, gasPayload(1, 4, "10")) }, func() { m.nonce-- }},
		{"reveal of block 2", func() []byte { return m.reveal(t, p2) }, func() { m.nonce-- }},
		{"truth of block 3", func() []byte { return r[1].tx(t, msgTruth(1, 3, "10", ts())) }, func() { r[1].nonce-- }},
	}
	for _, c := range refused {
		resp := finalizeOnly(t, n, pausedFrom, [][]byte{c.tx()})
		c.undo()
		if got := resp.TxResults[0].Code; got != wire.CodeEVMChainPaused {
			t.Fatalf("%s while paused: code %d (%s), want evm_chain_paused: %s", c.name, got, wire.CodeName(got), resp.TxResults[0].Log)
		}
	}
	resp := n.block(r[1].tx(t, msgTruth(8453, 50, "10", ts()))) // height 8: the pause in force
	mustOK(t, resp)
	// block 2's reveal window (one block) ends here too: its close runs
	// first, judges nobody and ends its prediction; the sweep ends block 3's
	if v, _ := blockEvent(resp, wire.EventGasWindowClosed, "paused"); v != "true" {
		t.Fatalf("the close of block 2 in the pause's block: %v, want paused", resp.Events)
	}
	if v, _ := blockEvent(resp, wire.EventGasWindowClosed, "unscored_predictions"); v != "1" {
		t.Fatalf("the paused close of block 2 ended %q predictions, want 1", v)
	}
	if v, _ := blockEvent(resp, wire.EventGasChainPaused, "unscored_predictions"); v != "1" {
		t.Fatalf("gas_chain_paused unscored_predictions %q, want 1: %v", v, resp.Events)
	}
	if v, _ := blockEvent(resp, wire.EventGasChainPaused, "dropped_rounds"); v != "1" {
		t.Fatalf("gas_chain_paused dropped_rounds %q, want 1", v)
	}
	for _, id := range []string{"0", "1"} {
		s, _ := n.query("submission/" + id)
		if s["status"] != kernel.StatusUnscored || !containsNote(s, "the EVM chain is paused by governance") {
			t.Fatalf("submission %s after the pause: %v, want unscored with the pause note", id, s)
		}
	}
	if _, code := n.query("truth/1/3"); code == 0 {
		t.Fatal("the pending round of block 3 survived the pause")
	}
	gc, _ := n.query("gaschain/1")
	if gc["paused"] != true || gc["resume_block"] != nil || fmt.Sprint(gc["last_closed_block"]) != "2" {
		t.Fatalf("gaschain/1 while paused: %v", gc)
	}
	mustOK(t, n.block())
	if after, _ := n.query("gas/1/1"); !reflect.DeepEqual(agent, after) {
		t.Fatalf("the pause changed the agent:\nbefore %v\nafter  %v", agent, after)
	}

	resumeFrom := n.height + 6
	passParams(t, n, r, `{"chain":{"gas_paused":[{"evm_chain_id":1,"resume_block":1000}]}}`, resumeFrom)
	for n.height < resumeFrom-2 {
		mustOK(t, n.block())
	}
	resp = n.block() // the block before the resume
	mustOK(t, resp)
	if v, _ := blockEvent(resp, wire.EventGasChainResumed, "last_closed_block"); v != "999" {
		t.Fatalf("gas_chain_resumed last_closed_block %q, want 999: %v", v, resp.Events)
	}
	gc, _ = n.query("gaschain/1")
	if gc["paused"] != nil || fmt.Sprint(gc["resume_block"]) != "1000" || fmt.Sprint(gc["last_closed_block"]) != "999" {
		t.Fatalf("gaschain/1 at the resume: %v", gc)
	}
	closed := finalizeOnly(t, n, n.height+1, [][]byte{m.commit(t, gasPayload(1, 999, "10"))})
	m.nonce--
	if got := closed.TxResults[0].Code; got != wire.CodeEVMBlockClosed {
		t.Fatalf("commit to block 999 after the resume: code %d (%s), want evm_block_closed", got, wire.CodeName(got))
	}
	txs = [][]byte{m.commit(t, gasPayload(1, 1001, "10"))}
	for _, v := range r {
		txs = append(txs, v.tx(t, msgTruth(1, 1000, "12", ts())))
	}
	mustOK(t, n.block(txs...))
	if tr, _ := n.query("truth/1/1000"); tr["status"] != kernel.StatusFinal {
		t.Fatalf("truth/1/1000 after the resume: %v", tr)
	}
	if gc, _ := n.query("gaschain/1"); fmt.Sprint(gc["last_closed_block"]) != "1000" {
		t.Fatalf("gaschain/1 after block 1000: %v", gc)
	}
	replayCompare(t, n, g)
}

// TestGasPauseSweepSpreads: a pause whose sweep does not fit one block's
// end-of-block work is spread over blocks, one open block per block here
// (end work of 1 unit lets only each step's first item run), in order and
// deterministically: two agents' predictions for 8 open blocks end
// unscored over 8 blocks, the gas_chain_paused event comes once, with all
// 16, and a replay reaches the same hashes.
func TestGasPauseSweepSpreads(t *testing.T) {
	g := testGenesis(3)
	g.Governance.MinUpgradeDelayBlocks = 3
	lim := budget.DefaultLimits()
	lim.EndWork = 1
	n := newNodeLimits(t, "", g, lim)
	ms := []*signer{newMiner("miner-a", 1), newMiner("miner-b", 2)}
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	ts := func() int64 { return blockTime(n.height + 1).Unix() }
	mustOK(t, n.block(append([][]byte{ms[0].tx(t, msgRegister()), ms[1].tx(t, msgRegister())}, anchorTxs(t, r, 1, 1, ts())...)...))
	const pausedFrom = 8
	passParams(t, n, r, `{"chain":{"gas_paused":[{"evm_chain_id":1}]}}`, pausedFrom)
	var txs [][]byte
	for b := uint64(2); b <= 9; b++ {
		for _, m := range ms {
			txs = append(txs, m.commit(t, gasPayload(1, b, "10")))
		}
	}
	mustOK(t, n.block(txs...))
	for n.height < pausedFrom-1 {
		mustOK(t, n.block())
	}
	events := 0
	for i := 0; i < 12; i++ {
		resp := n.block()
		mustOK(t, resp)
		if v, ok := blockEvent(resp, wire.EventGasChainPaused, "unscored_predictions"); ok {
			events++
			if v != "16" || n.height < pausedFrom+7 {
				t.Fatalf("gas_chain_paused at height %d with %s predictions, want 16 after at least 8 blocks", n.height, v)
			}
		}
	}
	if events != 1 {
		t.Fatalf("%d gas_chain_paused events, want 1", events)
	}
	for id := 0; id < 16; id++ {
		if s, _ := n.query(fmt.Sprint("submission/", id)); s["status"] != kernel.StatusUnscored {
			t.Fatalf("submission %d after the sweep: %v", id, s["status"])
		}
	}
	replayOn(t, n, newNodeLimits(t, "", g, lim))
}

// TestGasChainResumeWindow: EVM chain 1 has windows of 4 blocks and is
// paused from genesis, never anchored. A resume at block 400 anchors it
// at window 396: the truth of window 400 is taken and final, a commit to
// window 404 is taken, one to 396 refused as closed.
func TestGasChainResumeWindow(t *testing.T) {
	g := testGenesis(3)
	g.Governance.MinUpgradeDelayBlocks = 3
	g.Chain.GasWindows = []genesis.GasWindow{{EvmChainID: 1, WindowBlocks: 4}}
	g.Chain.GasPaused = []genesis.GasPause{{EvmChainID: 1}}
	n := newNode(t, "", g)
	m := newMiner("miner-w", 1)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(m.tx(t, msgRegister())))
	if gc, _ := n.query("gaschain/1"); gc["paused"] != true || gc["last_closed_block"] != nil {
		t.Fatalf("gaschain/1 paused from genesis: %v", gc)
	}
	const resumeFrom = 8
	passParams(t, n, r, `{"chain":{"gas_paused":[{"evm_chain_id":1,"resume_block":400}]}}`, resumeFrom)
	for n.height < resumeFrom-1 {
		mustOK(t, n.block())
	}
	if gc, _ := n.query("gaschain/1"); fmt.Sprint(gc["last_closed_block"]) != "396" {
		t.Fatalf("gaschain/1 at the resume: %v, want closed up to window 396", gc)
	}
	closed := finalizeOnly(t, n, n.height+1, [][]byte{m.commit(t, gasPayload(1, 396, "10"))})
	m.nonce--
	if got := closed.TxResults[0].Code; got != wire.CodeEVMBlockClosed {
		t.Fatalf("commit to window 396: code %d (%s), want evm_block_closed", got, wire.CodeName(got))
	}
	txs := [][]byte{m.commit(t, gasPayload(1, 404, "10"))}
	for _, v := range r {
		txs = append(txs, v.tx(t, msgTruth(1, 400, "10", blockTime(n.height+1).Unix())))
	}
	mustOK(t, n.block(txs...))
	if tr, _ := n.query("truth/1/400"); tr["status"] != kernel.StatusFinal {
		t.Fatalf("truth/1/400: %v", tr)
	}
}
