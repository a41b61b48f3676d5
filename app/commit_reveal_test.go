package app

import (
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
)

// mustCodes fails unless the block's results carry exactly the codes.
func mustCodes(t *testing.T, resp *abcitypes.ResponseFinalizeBlock, want ...uint32) {
	t.Helper()
	if len(resp.TxResults) != len(want) {
		t.Fatalf("%d results, want %d", len(resp.TxResults), len(want))
	}
	for i, r := range resp.TxResults {
		if r.Code != want[i] {
			t.Fatalf("tx %d: code %d (%s), want %d", i, r.Code, r.Log, want[i])
		}
	}
}

// TestCopiedArtifactScoresZero is the copying attack: before
// commit-reveal two miners who sent one artifact hash both scored 0.8575.
// Now the copier's commit can only come after it saw the artifact, which
// is after the commit window: the earlier commit keeps the artifact, and a
// copier that committed blind to the same hash later is a duplicate, 0.
func TestCopiedArtifactScoresZero(t *testing.T) {
	n := newNode(t, "", testGenesis(3))
	a, b := newMiner("miner-a", 1), newMiner("miner-b", 2)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	// h1: miners and a workflow task: commits h1..h3, reveal h4, reports h5..h7
	mustOK(t, n.block(a.tx(t, msgRegister()), b.tx(t, msgRegister()), r[0].tx(t, msgWorkflowTask(4, 2, 3))))
	// h2: b commits first; h3: a commits the same artifact
	p := wfPayload(0)
	mustOK(t, n.block(b.commit(t, p)))
	// h3: a commits the same hash (it cannot have seen it: no reveal yet);
	// a report before the reveal window closed is refused
	resp := n.block(a.commit(t, p), r[0].tx(t, msgWorkflowReport(0, workflowM())))
	mustCodes(t, resp, wire.CodeOK, wire.CodeRevealWindow)
	r[0].nonce--
	if s, _ := n.query("submission/0"); s["status"] != kernel.StatusCommitted {
		t.Fatalf("submission 0 = %v, want committed", s)
	}
	// h4, the window's only block: a reveals first, and is still the duplicate
	resp = n.block(a.reveal(t, p), b.reveal(t, p))
	mustOK(t, resp)
	if s, _ := n.query("submission/1"); s["status"] != kernel.StatusDuplicate {
		t.Fatalf("a's later commit = %v, want duplicate", s)
	}
	if s, _ := n.query("submission/0"); s["status"] != kernel.StatusPending {
		t.Fatalf("b's earlier commit = %v, want pending", s)
	}
	var txs [][]byte
	for _, v := range r {
		txs = append(txs, v.tx(t, msgWorkflowReport(0, workflowM())))
	}
	mustOK(t, n.block(txs...))
	s0, _ := n.query("submission/0")
	if s0["status"] != kernel.StatusScored || s0["receipt"].(map[string]any)["score"] != "0.857500000000000000" {
		t.Fatalf("keeper = %v, want scored 0.8575", s0)
	}
	s1, _ := n.query("submission/1")
	rec := s1["receipt"].(map[string]any)
	if rec["score"] != "0.000000000000000000" {
		t.Fatalf("duplicate's receipt = %v, want score 0", rec)
	}
	// the reveal of b came too: reports on the duplicate are refused
	bad := r[0].tx(t, msgWorkflowReport(1, workflowM()))
	mustCodes(t, n.block(bad), wire.CodeSubmissionFinal)
	r[0].nonce--
}

// TestRevealChecks: each refusal of a reveal has its code and leaves the
// state as it was (the next accepted reveal is the first to change it).
func TestRevealChecks(t *testing.T) {
	g := testGenesis(3)
	for i := range g.Tracks {
		g.Tracks[i].RevealBlocks = 5
	}
	n := newNode(t, "", g)
	a, b := newMiner("miner-a", 1), newMiner("miner-b", 2)
	r0 := reporter(0)
	// h1: task with commits h1..h2, reveals h3..h7, reports h8..h10
	mustOK(t, n.block(a.tx(t, msgRegister()), b.tx(t, msgRegister()), r0.tx(t, msgWorkflowTask(4, 1, 3))))
	pa, pb := wfPayloadOf(a, 0), wfPayloadOf(b, 0)
	try := func(s *signer, tx []byte, code uint32) {
		t.Helper()
		mustCodes(t, n.block(tx), code)
		if code != wire.CodeOK {
			s.nonce--
		}
	}
	// h2: the commit, and a reveal in the same block: the window opens at h3
	resp := n.block(a.commit(t, pa), a.reveal(t, pa))
	mustCodes(t, resp, wire.CodeOK, wire.CodeRevealWindow)
	a.nonce--
	try(b, b.reveal(t, pb), wire.CodeNoCommit)                                  // h3
	try(a, a.tx(t, client.Reveal(pa, client.Salt{1})), wire.CodeRevealMismatch) // h4: wrong salt
	try(a, a.reveal(t, pb), wire.CodeRevealMismatch)                            // h5: another payload
	try(a, a.reveal(t, pa), wire.CodeOK)                                        // h6: the window's last block
	try(a, a.reveal(t, pa), wire.CodeDuplicateSubmission)                       // h7: already revealed
	try(b, b.commit(t, pb), wire.CodeSubmissionDeadline)                        // h8
	if s, _ := n.query("submission/0"); s["status"] != kernel.StatusPending || s["reveal_height"] != float64(6) {
		t.Fatalf("submission 0 = %v, want pending, revealed at 6", s)
	}
}

// TestCopiedTruthIsLate is the leak commit-reveal closed: a prediction copied from a
// validator's truth vote, included in the same block as the vote, counted
// as a perfect slot because its block time preceded the EVM timestamp. Now
// the commit must precede the timestamp by commit_margin_seconds (2 s): a
// copier that sees the truth in the mempool commits too late to count, and
// the honest agent that committed ahead counts.
func TestCopiedTruthIsLate(t *testing.T) {
	n := newNode(t, "", testGenesis(3))
	honest, copier := newMiner("honest", 1), newMiner("copier", 2)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	// h1 (time …006): miners; the chain is anchored at EVM block 99
	mustOK(t, n.block(append([][]byte{honest.tx(t, msgRegister()), copier.tx(t, msgRegister())},
		anchorTxs(t, r, 1, 99, 1_700_000_001)...)...))
	n.block() // h2: the anchor's reveal window (nothing committed)
	// h3 (time …018): the honest agent commits for block 100
	hp := gasPayload(1, 100, "10.5")
	mustOK(t, n.block(honest.commit(t, hp)))
	// h4 (time …024): EVM block 100 has timestamp …020 (before h4's time, as
	// truths come after the block); the copier reads the votes and commits
	// the exact min price in the same block
	cp := gasPayload(1, 100, "10")
	txs := [][]byte{copier.commit(t, cp)}
	for _, v := range r {
		txs = append(txs, v.tx(t, msgTruth(1, 100, "10", 1_700_000_020)))
	}
	mustOK(t, n.block(txs...))
	// h5: the truth is final at h4; reveals at h5, the close at its end
	mustOK(t, n.block(honest.reveal(t, hp), copier.reveal(t, cp)))
	if s, _ := n.query("submission/0"); s["status"] != kernel.StatusCounted {
		t.Fatalf("the honest prediction = %v, want counted", s)
	}
	s, _ := n.query("submission/1")
	if s["status"] != kernel.StatusLate {
		t.Fatalf("the copied prediction = %v, want late", s)
	}
	// before commit-reveal the copied price was counted as included with
	// overpayment 0; now it is not judged at all
	if rec := s["receipt"].(map[string]any); len(rec["values"].([]any)) != 0 {
		t.Fatalf("the late prediction's receipt has values: %v", rec)
	}
}

// TestGasRevealWindow: a reveal before the block's truth is final, in the
// block that makes it final, and after the window are refused (49); a
// prediction never revealed is unrevealed at the close.
func TestGasRevealWindow(t *testing.T) {
	n := newNode(t, "", testGenesis(3))
	a, b := newMiner("miner-a", 1), newMiner("miner-b", 2)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(append([][]byte{a.tx(t, msgRegister()), b.tx(t, msgRegister())},
		anchorTxs(t, r, 1, 99, 1_700_000_001)...)...))
	pa, pb := gasPayload(1, 100, "12"), gasPayload(1, 100, "9")
	mustOK(t, n.block(a.commit(t, pa), b.commit(t, pb)))          // h2 (…012)
	mustCodes(t, n.block(a.reveal(t, pa)), wire.CodeRevealWindow) // h3: no truth yet
	a.nonce--
	txs := [][]byte{}
	for _, v := range r {
		txs = append(txs, v.tx(t, msgTruth(1, 100, "10", 1_700_000_015)))
	}
	txs = append(txs, a.reveal(t, pa)) // h4: the truth becomes final in this block
	mustCodes(t, n.block(txs...), wire.CodeOK, wire.CodeOK, wire.CodeOK, wire.CodeRevealWindow)
	a.nonce--
	resp := n.block(a.reveal(t, pa)) // h5: the window's only block
	mustOK(t, resp)
	if s, _ := n.query("submission/0"); s["status"] != kernel.StatusCounted {
		t.Fatalf("a = %v, want counted", s)
	}
	if s, _ := n.query("submission/1"); s["status"] != kernel.StatusUnrevealed {
		t.Fatalf("b = %v, want unrevealed", s)
	}
	mustCodes(t, n.block(b.reveal(t, pb)), wire.CodeRevealWindow) // h6: the window is over (and the close swept it)
	tr, code := n.query("truth/1/100")
	if code != 0 || tr["status"] != kernel.StatusFinal || tr["reveal_from"] != float64(5) || tr["reveal_until"] != float64(5) {
		t.Fatalf("truth/1/100 = %v (code %d)", tr, code)
	}
}

// TestRevealedPriceCannotBeCopied: before commit-reveal a gas price copied
// from another miner's prediction in the mempool was accepted. Now a price
// is public only from its reveal, which opens after the EVM block's truth
// is final, and from then on no commit for that block is taken (33).
func TestRevealedPriceCannotBeCopied(t *testing.T) {
	n := newNode(t, "", testGenesis(3))
	a, copier := newMiner("miner-a", 1), newMiner("copier", 2)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(append([][]byte{a.tx(t, msgRegister()), copier.tx(t, msgRegister())},
		anchorTxs(t, r, 1, 99, 1_700_000_001)...)...))
	pa := gasPayload(1, 100, "10.25")
	mustOK(t, n.block(a.commit(t, pa))) // h2: the commit shows a hash, not the price
	var txs [][]byte
	for _, v := range r {
		txs = append(txs, v.tx(t, msgTruth(1, 100, "10", 1_700_000_020)))
	}
	mustOK(t, n.block(txs...))          // h3: the truth is final
	mustOK(t, n.block(a.reveal(t, pa))) // h4: the price is public
	mustCodes(t, n.block(copier.commit(t, gasPayload(1, 100, "10.25"))), wire.CodeEVMBlockClosed)
}
