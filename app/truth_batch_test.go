package app

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
)

// rawTruthBatch is a MsgTruthBatch of the truths as they are, without the
// client's shape check (client.TruthBatch), so that a test can send one the
// chain refuses; a message that is no truth is an empty entry. An empty
// entry is encoded as a MsgTruth of no field, which decodes as a truth of
// EVM chain 0 and block 0, not as a missing entry: the chain refuses it as
// the single truth of chain 0, with unknown_evm_chain (32).
func rawTruthBatch(truths ...*subnetv1.Msg) *subnetv1.Msg {
	b := &subnetv1.MsgTruthBatch{}
	for _, m := range truths {
		e := m.GetTruth()
		if e == nil {
			e = &subnetv1.MsgTruth{}
		}
		b.Entries = append(b.Entries, e)
	}
	return &subnetv1.Msg{Sum: &subnetv1.Msg_TruthBatch{TruthBatch: b}}
}

// truthBatch is client.TruthBatch of truths, which must have a good shape.
func truthBatch(t testing.TB, truths ...*subnetv1.Msg) *subnetv1.Msg {
	t.Helper()
	m, err := client.TruthBatch(truths...)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// truthBatchChain is a chain of 4 validators (power 10: a round is final at
// its third vote) following EVM chains 1 (windows of one block) and 8453
// (windows of 2 blocks), both closed at block 100 at height 1, and a gas
// agent (uid 1) that committed at height 2 to blocks 101 and 103 of chain 1
// and to window 102 of chain 8453.
func truthBatchChain(t *testing.T) (*node, *signer, []*signer, []*subnetv1.MsgSubmit) {
	g := testGenesis(4)
	g.Chain.GasWindows = []genesis.GasWindow{{EvmChainID: 8453, WindowBlocks: 2}}
	n := newNode(t, "", g)
	m := newMiner("truth-batch-miner", 1)
	r := []*signer{reporter(0), reporter(1), reporter(2), reporter(3)}
	ts := blockTime(1).Unix()
	txs := append([][]byte{m.tx(t, msgRegister())}, anchorTxs(t, r[:3], 1, 100, ts)...)
	mustOK(t, n.block(append(txs, anchorTxs(t, r[:3], 8453, 100, ts)...)...))
	preds := []*subnetv1.MsgSubmit{gasPayload(1, 101, "12"), gasPayload(1, 103, "9"), gasPayload(8453, 102, "3")}
	var commits [][]byte
	for _, p := range preds {
		commits = append(commits, m.commit(t, p))
	}
	mustOK(t, n.block(commits...))
	return n, m, r, preds
}

// validatorTruths are validator v's truths after truthBatchChain: priced
// and empty blocks of chain 1, a priced and an empty window of chain 8453,
// prices that differ by validator (the medians depend on which votes
// count), and last a block too far past the last closed one (refused,
// truth_too_far).
func validatorTruths(v int) []*subnetv1.Msg {
	ts := blockTime(2).Unix() + 60 // the commits at height 2 are in time

	return []*subnetv1.Msg{
		msgTruth(1, 101, fmt.Sprint(10+v), ts),
		client.EmptyTruth(1, 102, ts+1),
		msgTruth(1, 103, fmt.Sprintf("8.%d", v), ts+2),
		msgTruth(8453, 102, fmt.Sprintf("2.%d5", v), ts),
		client.EmptyTruth(8453, 104, ts+3),
		msgTruth(1, 200, "1", ts),
	}
}

// TestTruthBatchSameAsSingleTruths: the same truths sent as one batch per
// validator or as one transaction each leave the same rounds, finals
// (priced and empty), closes, agents, leaderboard and score digest; each
// entry gets its truth_entry event with the single truth's code, the
// refused one (too far ahead) included; and the block is charged the same
// work but for the refused entries (a batch is charged per entry, a refused
// single transaction nothing). Validators 0 and 1 send in one block and
// validator 2 in the next, whose votes make every round final.
func TestTruthBatchSameAsSingleTruths(t *testing.T) {
	single, ms, rs, preds := truthBatchChain(t)
	batched, mb, rb, _ := truthBatchChain(t)
	for _, vs := range [][]int{{0, 1}, {2}} {
		var one, many [][]byte
		for _, v := range vs {
			for _, m := range validatorTruths(v) {
				one = append(one, rs[v].tx(t, m))
			}
			many = append(many, rb[v].tx(t, truthBatch(t, validatorTruths(v)...)))
		}
		for i, r := range single.block(one...).TxResults {
			if want := map[bool]uint32{false: wire.CodeOK, true: wire.CodeTruthTooFar}[i%6 == 5]; r.Code != want {
				t.Fatalf("single truth %d: code %d (%s), want %d", i, r.Code, r.Log, want)
			}
		}
		resp := batched.block(many...)
		mustOK(t, resp)
		for i, r := range resp.TxResults {
			if got := fmt.Sprint(entryCodes(r)); got != "[0 0 0 0 0 44]" {
				t.Fatalf("batch %d: entry codes %s, want five accepted and the last truth_too_far", i, got)
			}
		}
		s, b := single.stats[len(single.stats)-1], batched.stats[len(batched.stats)-1]
		if s.txWork+int64(len(vs))*budget.UnitsTx != b.txWork || s.endWork != b.endWork {
			t.Fatalf("height %d: work %d + %d as single truths, %d + %d as batches (want %d more units of tx work: the refused entries')",
				single.height, s.txWork, s.endWork, b.txWork, b.endWork, int64(len(vs))*budget.UnitsTx)
		}
	}
	// the reveal window of the final priced blocks, then their closes
	var rs1, rs2 [][]byte
	for _, p := range preds {
		rs1, rs2 = append(rs1, ms.reveal(t, p)), append(rs2, mb.reveal(t, p))
	}
	mustOK(t, single.block(rs1...))
	mustOK(t, batched.block(rs2...))
	single.block()
	batched.block()
	paths := []string{"digest", "gaschain/1", "gaschain/8453", "gas/1/1", "gas/1/8453", "leaderboard/gas"}
	for _, b := range []string{"1/101", "1/102", "1/103", "1/200", "8453/102", "8453/104"} {
		paths = append(paths, "truth/"+b)
	}
	for id := range preds {
		paths = append(paths, fmt.Sprint("submission/", id))
	}
	sameAnswers(t, single, batched, "single truths", paths)
	if gc, _ := batched.query("gaschain/1"); gc["last_closed_block"] != float64(103) {
		t.Fatalf("gaschain/1 = %v, want closed up to 103", gc)
	}
	if gc, _ := batched.query("gaschain/8453"); gc["last_closed_block"] != float64(104) {
		t.Fatalf("gaschain/8453 = %v, want closed up to window 104", gc)
	}
	if r, _ := batched.query("truth/1/102"); r["empty"] != true || r["status"] != kernel.StatusFinal {
		t.Fatalf("truth/1/102 = %v, want final and empty", r)
	}
	for id := range preds {
		if s, _ := batched.query(fmt.Sprint("submission/", id)); s["status"] != kernel.StatusCounted && s["status"] != kernel.StatusScored {
			t.Fatalf("prediction %d = %v, want judged by its close", id, s["status"])
		}
	}
	checkFullHash(t, batched.app)
	replayCompare(t, batched, batchedGenesis())
}

// batchedGenesis is truthBatchChain's genesis.
func batchedGenesis() genesis.AppState {
	g := testGenesis(4)
	g.Chain.GasWindows = []genesis.GasWindow{{EvmChainID: 8453, WindowBlocks: 2}}
	return g
}

// TestTruthBatchRefusedEntriesChangeNothing: a batch whose entries include
// a block too far ahead, a vote the validator already cast, a closed
// block, a paused chain, a misaligned window, a timestamp before the last
// closed block's, a price on an empty truth and an unknown EVM chain
// leaves exactly the state of the batch of its good entries alone (the
// same app hash: events are not state), each refused entry with its single
// truth's code.
func TestTruthBatchRefusedEntriesChangeNothing(t *testing.T) {
	g := testGenesis(4)
	g.Chain.GasChains = []uint64{1, 10, 8453}
	g.Chain.GasPaused = []genesis.GasPause{{EvmChainID: 10}}
	g.Chain.GasWindows = []genesis.GasWindow{{EvmChainID: 8453, WindowBlocks: 2}}
	n := newNode(t, "", g)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	ts := blockTime(1).Unix()
	mustOK(t, n.block(append(anchorTxs(t, r, 1, 100, ts), r[0].tx(t, msgTruth(1, 105, "7", ts)))...))
	ts = blockTime(2).Unix()
	good := []*subnetv1.Msg{msgTruth(1, 101, "10", ts), client.EmptyTruth(1, 102, ts), msgTruth(8453, 4, "3", ts)}
	bad := []struct {
		m    *subnetv1.Msg
		code uint32
	}{
		{msgTruth(1, 200, "1", ts), wire.CodeTruthTooFar},
		{msgTruth(1, 105, "7", ts), wire.CodeDuplicateTruth},
		{msgTruth(1, 100, "1", ts), wire.CodeEVMBlockClosed},
		{msgTruth(10, 1, "1", ts), wire.CodeEVMChainPaused},
		{msgTruth(8453, 5, "1", ts), wire.CodeEVMWindowMisaligned},
		{msgTruth(1, 103, "1", blockTime(1).Unix()-1), wire.CodeTruthTimeBackwards},
		{emptyTruthPriced(1, 104, ts), wire.CodeEmptyTruthPriced},
		{msgTruth(999, 1, "1", ts), wire.CodeUnknownEVMChain},
	}
	// the refused entries between and around the good ones
	all := []*subnetv1.Msg{bad[0].m, good[0]}
	want := []string{fmt.Sprint(bad[0].code), "0"}
	for i, b := range bad[1:] {
		all = append(all, b.m)
		want = append(want, fmt.Sprint(b.code))
		if i < 2 {
			all = append(all, good[i+1])
			want = append(want, "0")
		}
	}
	h := n.height + 1
	resp := finalizeOnly(t, n, h, [][]byte{r[0].next(truthBatch(t, all...))})
	if resp.TxResults[0].Code != wire.CodeOK {
		t.Fatalf("batch: code %d: %s", resp.TxResults[0].Code, resp.TxResults[0].Log)
	}
	if got := entryCodes(resp.TxResults[0]); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("entry codes %v, want %v", got, want)
	}
	for _, e := range resp.TxResults[0].Events {
		if code, _ := eventAttr([]abcitypes.Event{e}, wire.EventTruthEntry, "code"); e.Type == wire.EventTruthEntry && code != "0" {
			if log, _ := eventAttr([]abcitypes.Event{e}, wire.EventTruthEntry, "log"); log == "" {
				t.Fatalf("refused entry %v without a log", e)
			}
		}
	}
	alone := finalizeOnly(t, n, h, [][]byte{r[0].next(truthBatch(t, good...))})
	if !bytes.Equal(resp.AppHash, alone.AppHash) {
		t.Fatal("the refused entries changed the state: the app hash differs from the good entries' batch alone")
	}
	// and each refused entry is refused alone with the same code
	for _, b := range bad {
		if got := finalizeOnly(t, n, h, [][]byte{r[0].next(b.m)}).TxResults[0].Code; got != b.code {
			t.Fatalf("%v as a single truth: code %d, want %d", b.m, got, b.code)
		}
	}
}

// TestTruthBatchRefusedWhole: a batch of a bad shape (no entry, more than
// 256, one EVM block twice), an empty entry (on the wire, a truth of EVM
// chain 0: refused as that single truth would be), from a key that is not a
// validator's, or whose every entry is refused (with the first entry's
// code, its log naming the entry) changes nothing, CheckTx agreeing; one
// good entry among refused ones is enough for it to apply.
func TestTruthBatchRefusedWhole(t *testing.T) {
	n := newNode(t, "", testGenesis(4))
	m := newMiner("truth-batch-miner", 1)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	ts := blockTime(1).Unix()
	mustOK(t, n.block(append([][]byte{m.tx(t, msgRegister())}, anchorTxs(t, r, 1, 100, ts)...)...))
	ts = blockTime(2).Unix()
	many := make([]*subnetv1.Msg, wire.MaxBatch+1)
	for i := range many {
		many[i] = msgTruth(1, 101+uint64(i), "1", ts)
	}
	for _, c := range []struct {
		name string
		tx   []byte
		code uint32
		log  string
	}{
		{"no entry", r[0].next(rawTruthBatch()), wire.CodeBatchSize, "truth batch has 0 entries"},
		{"257 entries", r[0].next(rawTruthBatch(many...)), wire.CodeBatchSize, "truth batch has 257 entries"},
		{"a block twice", r[0].next(rawTruthBatch(msgTruth(1, 101, "1", ts), msgTruth(1, 102, "1", ts), client.EmptyTruth(1, 101, ts))),
			wire.CodeDuplicateBatchEntry, "truth batch entries 0 and 2 both name gas 1/101"},
		{"an empty entry", r[0].next(rawTruthBatch(&subnetv1.Msg{})), wire.CodeUnknownEVMChain, "entry 0 (gas 0/0): evm_chain_id = 0"},
		{"two empty entries", r[0].next(rawTruthBatch(&subnetv1.Msg{}, &subnetv1.Msg{})), wire.CodeDuplicateBatchEntry, "entries 0 and 1 both name gas 0/0"},
		{"a miner's", m.next(rawTruthBatch(msgTruth(1, 101, "1", ts))), wire.CodeNotValidator, "truth batch"},
		{"a key of no one", newSigner("nobody").next(rawTruthBatch(msgTruth(1, 101, "1", ts))), wire.CodeNotValidator, "truth batch"},
		{"every entry refused", r[0].next(rawTruthBatch(msgTruth(1, 100, "1", ts), msgTruth(1, 500, "1", ts))), wire.CodeEVMBlockClosed,
			"every entry of the truth batch was refused; entry 0 (gas 1/100)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			refusedAlone(t, n, c.tx, c.code)
			if log := finalizeOnly(t, n, n.height+1, [][]byte{c.tx}).TxResults[0].Log; !strings.Contains(log, c.log) {
				t.Fatalf("log %q, want %q", log, c.log)
			}
		})
	}
	resp := n.block(r[0].tx(t, truthBatch(t, msgTruth(1, 100, "1", ts), msgTruth(1, 500, "1", ts), msgTruth(1, 101, "1", ts))))
	mustOK(t, resp)
	if got := fmt.Sprint(entryCodes(resp.TxResults[0])); got != "[33 44 0]" {
		t.Fatalf("entry codes %s, want [33 44 0]", got)
	}
}

// TestTruthBatchChargedPerEntry: a batch of N entries is charged N ×
// budget.UnitsTx, the refused entry included, before its signature is
// verified; a block whose transaction work has room for one entry fewer
// refuses it with block_full (40) having charged and applied nothing.
func TestTruthBatchChargedPerEntry(t *testing.T) {
	n, _, r, _ := truthBatchChain(t)
	truths := validatorTruths(0)
	chargedPerEntry(t, n, r[0].tx(t, truthBatch(t, truths...)), len(truths), func(st store.State) (int, string) {
		round, _ := st.Truth(1, 101)
		return len(round.GetVotes()), "the round of block 101"
	})
}

// TestTruthBatchBounds: the per-validator bounds hold for a batch exactly
// as for the same truths sent one by one, so that a validator of little
// power cannot use a batch to open more rounds than max_prediction_ahead
// (whose votes, below the deadline quorum, would be dropped only at their
// deadlines) or to vote past the truth-ahead limit. Entries count against
// the bound in order, each seeing the rounds its predecessors opened.
func TestTruthBatchBounds(t *testing.T) {
	g := testGenesis(4)
	g.Chain.MaxPredictionAhead = 2
	g.Validators[3].Power = 1
	ts := blockTime(1).Unix()
	far := []*subnetv1.Msg{msgTruth(1, 1_000_000, "1", ts), msgTruth(1, 2_000_000, "1", ts), msgTruth(1, 3_000_000, "1", ts),
		msgTruth(1, 4_000_000, "1", ts), msgTruth(8453, 5, "1", ts), msgTruth(8453, 6, "1", ts), msgTruth(8453, 7, "1", ts)}
	// bounds sends msgs as single truths of validator 3, each in a block of
	// its own, and as one batch on another node, each node set up first;
	// it returns the singles' codes, the entries' codes and how many of the
	// batch's rounds exist after it.
	bounds := func(msgs []*subnetv1.Msg, setup func(n *node)) (single, batch []string, open int) {
		one, many := newNode(t, "", g), newNode(t, "", g)
		setup(one)
		setup(many)
		v1, v2 := reporter(3), reporter(3)
		for _, m := range msgs {
			r := one.block(v1.tx(t, m)).TxResults[0]
			if r.Code != wire.CodeOK {
				v1.nonce-- // refused: its nonce is the next one's
			}
			single = append(single, fmt.Sprint(r.Code))
		}
		resp := many.block(v2.tx(t, truthBatch(t, msgs...)))
		mustOK(t, resp)
		base, _ := many.app.base()
		st := store.State{O: store.NewOverlay(base)}
		for _, m := range msgs {
			if _, ok := st.Truth(m.GetTruth().EvmChainId, m.GetTruth().EvmBlock); ok {
				open++
			}
		}
		return single, entryCodes(resp.TxResults[0]), open
	}
	single, batch, open := bounds(far, func(*node) {})
	if want := "[0 0 46 46 0 0 46]"; fmt.Sprint(batch) != want {
		t.Fatalf("unanchored: batch entry codes %v, want %s (two rounds of each chain)", batch, want)
	}
	if fmt.Sprint(single) != fmt.Sprint(batch) {
		t.Fatalf("unanchored: single truths' codes %v, the batch's entries' %v", single, batch)
	}
	if open != 4 {
		t.Fatalf("unanchored: %d rounds opened by the batch, want 4 (max_prediction_ahead 2 per chain)", open)
	}
	// once the chain has a closed block, a truth more than
	// max_prediction_ahead past it is refused; the open bound still holds
	anchor := func(n *node) {
		r := []*signer{reporter(0), reporter(1), reporter(2)}
		mustOK(t, n.block(anchorTxs(t, r, 1, 100, ts)...))
	}
	near := []*subnetv1.Msg{msgTruth(1, 101, "1", ts), msgTruth(1, 102, "1", ts), msgTruth(1, 103, "1", ts), msgTruth(1, 1_000_000, "1", ts)}
	single, batch, open = bounds(near, anchor)
	if want := "[0 0 44 44]"; fmt.Sprint(batch) != want || fmt.Sprint(single) != want {
		t.Fatalf("anchored: batch entry codes %v, single truths' %v, want %s", batch, single, want)
	}
	if open != 2 {
		t.Fatalf("anchored: %d rounds opened, want 2", open)
	}
	// a second batch in a later block opens nothing more while those
	// rounds are pending (power 1 of 31: they wait for their deadlines)
	n := newNode(t, "", g)
	anchor(n)
	v := reporter(3)
	mustOK(t, n.block(v.tx(t, truthBatch(t, far[4:6]...))))
	refusedAlone(t, n, v.next(truthBatch(t, far[6], msgTruth(8453, 8, "1", ts))), wire.CodeTooManyOpenRounds)
}

// TestTruthBatchEntryInvalidatedInTheBlock: an entry that an earlier
// transaction of the same block made invalid (the validator's single truth
// of that block) is refused alone; the batch applies its other entries,
// and PrepareProposal keeps it and ProcessProposal accepts the block
// (decide checks both against FinalizeBlock).
func TestTruthBatchEntryInvalidatedInTheBlock(t *testing.T) {
	n, _, r, _ := truthBatchChain(t)
	truths := validatorTruths(0)[:5]
	resp := n.block(r[0].tx(t, truths[2]), r[0].tx(t, truthBatch(t, truths...)))
	mustOK(t, resp)
	if got, want := fmt.Sprint(entryCodes(resp.TxResults[1])), fmt.Sprint([]uint32{0, 0, wire.CodeDuplicateTruth, 0, 0}); got != want {
		t.Fatalf("entry codes %s, want %s", got, want)
	}
	for _, b := range []string{"1/101", "1/102", "1/103", "8453/102", "8453/104"} {
		if round, _ := n.query("truth/" + b); len(round["votes"].([]any)) != 1 {
			t.Fatalf("truth/%s has votes %v, want one", b, round["votes"])
		}
	}
}
