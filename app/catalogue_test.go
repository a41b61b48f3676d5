package app

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"testing"

	"github.com/scoringsubnet/validatord/app/track"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/x/scoring"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// catalogueChain builds a chain where every rejection can be provoked:
// miners A (uid 1) and B (uid 2) fill max_uids = 2; task 0 (workflow, open),
// task 1 (arena, open), task 2 (workflow, closed and its submission 2
// expired); submission 0 has val0's report; EVM chain 1 is closed up to block
// 100 at 1_700_000_000 (max_prediction_ahead 1000) and block 300 has val0's
// truth; EVM chain 8453 has no closed block.
func catalogueChain(t testing.TB) (*node, map[string]*signer) {
	g := testGenesis(4)
	g.Chain.MaxUIDs, g.Chain.MaxPredictionAhead = 2, 1000
	n := newNode(t, "", g)
	s := map[string]*signer{"a": newSigner("miner-a"), "b": newSigner("miner-b"), "c": newSigner("miner-c"),
		"r0": reporter(0), "r1": reporter(1), "r2": reporter(2)}
	mustOK(t, n.block(s["a"].tx(t, msgRegister()), s["b"].tx(t, msgRegister()),
		s["r0"].tx(t, msgWorkflowTask(4, 10, 10)), s["r0"].tx(t, msgArenaTask(5, 10, 10)), s["r0"].tx(t, msgWorkflowTask(4, 1, 1))))
	mustOK(t, n.block(s["a"].tx(t, msgWorkflowSubmit(0)), s["a"].tx(t, msgArenaSubmit(1)), s["a"].tx(t, msgWorkflowSubmit(2)),
		s["r0"].tx(t, msgTruth(1, 100, "10", 1_700_000_000)), s["r1"].tx(t, msgTruth(1, 100, "10", 1_700_000_000)),
		s["r2"].tx(t, msgTruth(1, 100, "10", 1_700_000_000)), s["a"].tx(t, msgGas(1, 200, "5")),
		s["r0"].tx(t, msgTruth(1, 300, "10", 1_700_000_050)),
		s["r0"].tx(t, msgWorkflowReport(0, workflowM()))))
	mustOK(t, n.block())
	return n, s
}

// signAt signs body fields freely (for malformed envelopes).
func signAt(chainID string, key ed25519.PrivateKey, sender []byte, nonce uint64, msg *subnetv1.Msg) []byte {
	body := &subnetv1.TxBody{ChainId: chainID, Sender: sender, Nonce: nonce, Msg: msg}
	bz, _ := body.Marshal()
	tx := &subnetv1.Tx{Body: bz, Signature: ed25519.Sign(key, wire.SignBytes(bz))}
	out, _ := tx.Marshal()
	return out
}

func (s *signer) at(nonce uint64, msg *subnetv1.Msg) []byte {
	return signAt(testChainID, s.key, s.pub(), nonce, msg)
}

// next signs with the signer's next nonce without consuming it.
func (s *signer) next(msg *subnetv1.Msg) []byte { return s.at(s.nonce, msg) }

func withWorkflow(edit func(*subnetv1.WorkflowMeasurement)) *subnetv1.WorkflowMeasurement {
	m := workflowM()
	edit(m)
	return m
}

// TestRejectionCatalogue sends each malformed or unauthorised transaction
// alone in a block and checks its code and that the app hash equals the
// hash of the same block without it (no state change, not even the nonce).
func TestRejectionCatalogue(t *testing.T) {
	n, s := catalogueChain(t)
	a, b, c, r0, r1 := s["a"], s["b"], s["c"], s["r0"], s["r1"]
	valid := b.next(msgWorkflowSubmit(0))
	flipped := append([]byte(nil), valid...)
	flipped[len(flipped)-1] ^= 1
	badBaseline := msgArenaTask(5, 10, 10)
	bl := track.BaselineToProto(scoring.DefaultArenaBaseline())
	bl.MinTokens = "999999"
	badBaseline.GetPostTask().GetArena().DefaultBaseline = bl
	cases := []struct {
		name string
		tx   []byte
		code uint32
	}{
		{"garbage bytes", []byte("not a transaction"), wire.CodeMalformedTx},
		{"oversize", bytes.Repeat([]byte{1}, 16*1024+1), wire.CodeTxTooLarge},
		{"unknown field appended", append(append([]byte(nil), valid...), 0x18, 0x01), wire.CodeNonCanonical},
		{"31-byte sender", signAt(testChainID, a.key, a.pub()[:31], a.nonce, msgRegister()), wire.CodeBadSender},
		{"bad signature", flipped, wire.CodeBadSignature},
		{"wrong chain id", signAt("other-chain", a.key, a.pub(), a.nonce, msgWorkflowSubmit(0)), wire.CodeWrongChainID},
		{"reused nonce", a.at(a.nonce-1, msgWorkflowSubmit(0)), wire.CodeNonceUsed},
		{"future nonce", a.at(a.nonce+1, msgWorkflowSubmit(0)), wire.CodeNonceFuture},
		{"empty msg", a.next(&subnetv1.Msg{}), wire.CodeEmptyMsg},
		{"post task by a miner", a.next(msgWorkflowTask(4, 5, 5)), wire.CodeNotValidator},
		{"report by a miner", a.next(msgWorkflowReport(0, workflowM())), wire.CodeNotValidator},
		{"submit by unknown key", c.next(msgWorkflowSubmit(0)), wire.CodeNotMiner},
		{"register twice", a.next(msgRegister()), wire.CodeAlreadyMiner},
		{"uids full", c.next(msgRegister()), wire.CodeUIDsFull},
		{"quality not a number", r1.next(msgWorkflowReport(0, withWorkflow(func(m *subnetv1.WorkflowMeasurement) { m.OutputQuality = "abc" }))), wire.CodeNotNumber},
		{"cost with 19 places", r1.next(msgWorkflowReport(0, withWorkflow(func(m *subnetv1.WorkflowMeasurement) { m.Cost = "0.1234567890123456789" }))), wire.CodeTooManyPlaces},
		{"quality above 1", r1.next(msgWorkflowReport(0, withWorkflow(func(m *subnetv1.WorkflowMeasurement) { m.OutputQuality = "1.5" }))), wire.CodeDecimalRange},
		{"negative retries", r1.next(msgWorkflowReport(0, withWorkflow(func(m *subnetv1.WorkflowMeasurement) { m.Retries = -1 }))), wire.CodeNegativeCount},
		{"negative retry budget", r1.next(msgWorkflowReport(0, withWorkflow(func(m *subnetv1.WorkflowMeasurement) { m.DeclaredRetryBudget = -1 }))), wire.CodeNegativeCount},
		{"retry budget above 10^12", r1.next(msgWorkflowReport(0, withWorkflow(func(m *subnetv1.WorkflowMeasurement) { m.DeclaredRetryBudget = wire.MaxCount + 1 }))), wire.CodeCountRange},
		{"zero total steps", r0.next(msgWorkflowTask(0, 5, 5)), wire.CodeCountRange},
		{"steps above total", r1.next(msgWorkflowReport(0, withWorkflow(func(m *subnetv1.WorkflowMeasurement) { m.StepsCompleted = 5 }))), wire.CodeStepsExceedTotal},
		{"criteria above total", r1.next(msgArenaReport(1, &subnetv1.ArenaMeasurement{TotalTokens: 1, ToolCalls: 1, Iterations: 1, ExecutionTime: "1", EstimatedCost: "1", CriteriaPassed: 6})), wire.CodeCriteriaExceedTotal},
		{"zero submission blocks", r0.next(msgWorkflowTask(4, 0, 5)), wire.CodeBlocksRange},
		{"unknown category", r0.next(&subnetv1.Msg{Sum: &subnetv1.Msg_PostTask{PostTask: &subnetv1.MsgPostTask{Task: &subnetv1.MsgPostTask_Arena{
			Arena: &subnetv1.ArenaTask{Category: "chess", CriteriaTotal: 1, SubmissionBlocks: 1, ReportBlocks: 1}}}}}), wire.CodeUnknownCategory},
		{"31-byte artifact hash", b.next(client.Reveal(client.ArenaPayload(1, make([]byte, 31)), client.Salt{})), wire.CodeBadArtifactHash},
		{"unknown task", b.next(msgWorkflowSubmit(99)), wire.CodeUnknownTask},
		{"arena submit to a workflow task", b.next(msgArenaSubmit(0)), wire.CodeWrongKind},
		{"report on a gas prediction", r1.next(msgWorkflowReport(3, workflowM())), wire.CodeWrongKind},
		{"past submission deadline", b.next(msgWorkflowSubmit(2)), wire.CodeSubmissionDeadline},
		{"second submission to a task", a.next(msgWorkflowSubmit(0)), wire.CodeDuplicateSubmission},
		{"second prediction for a block", a.next(msgGas(1, 200, "6")), wire.CodeDuplicateSubmission},
		{"unknown submission", r1.next(msgWorkflowReport(99, workflowM())), wire.CodeUnknownSubmission},
		{"report on an expired submission", r1.next(msgWorkflowReport(2, workflowM())), wire.CodeSubmissionFinal},
		{"duplicate report", r0.next(msgWorkflowReport(0, workflowM())), wire.CodeDuplicateReport},
		{"unknown EVM chain", a.next(msgGas(999, 200, "5")), wire.CodeUnknownEVMChain},
		{"prediction for a closed block", b.next(msgGas(1, 100, "5")), wire.CodeEVMBlockClosed},
		{"prediction too far ahead", b.next(msgGas(1, 100+1001, "5")), wire.CodePredictionTooFar},
		{"zero price", b.next(msgGas(1, 201, "0")), wire.CodeDecimalRange},
		{"prediction on a chain with no closed block", b.next(msgGas(8453, 1, "5")), wire.CodeEVMChainUnanchored},
		{"register with a validator's report key", r1.next(msgRegister()), wire.CodeValidatorKey},
		{"duplicate truth", r0.next(msgTruth(1, 300, "10", 1_700_000_050)), wire.CodeDuplicateTruth},
		{"truth before the last closed timestamp", r1.next(msgTruth(1, 301, "10", 1_699_999_999)), wire.CodeTruthTimeBackwards},
		{"truth by a miner", a.next(msgTruth(1, 301, "10", 1_700_000_100)), wire.CodeNotValidator},
		{"inconsistent default baseline", r0.next(badBaseline), wire.CodeBadBaseline},
		{"post task by a miner, signature bad too (cheap checks first)", badSig(a.next(msgWorkflowTask(4, 5, 5))), wire.CodeNotValidator},
		{"truth too far past the last closed block", r1.next(msgTruth(1, 100+1001, "10", 1_700_000_100)), wire.CodeTruthTooFar},
		{"truth timestamp past the block time + drift", r1.next(msgTruth(1, 301, "10", blockTime(n.height+1).Unix()+1000)), wire.CodeTruthTimeFuture},
	}
	h := n.height + 1
	empty := finalizeOnly(t, n, h, nil)
	codes := map[uint32]bool{}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := finalizeOnly(t, n, h, [][]byte{tc.tx})
			if got := resp.TxResults[0].Code; got != tc.code {
				t.Fatalf("code %d (%s), want %d (%s): %s", got, wire.CodeName(got), tc.code, wire.CodeName(tc.code), resp.TxResults[0].Log)
			}
			if resp.TxResults[0].Log == "" {
				t.Fatal("rejection without a message")
			}
			if !bytes.Equal(resp.AppHash, empty.AppHash) {
				t.Fatal("a rejected tx changed the app hash")
			}
			chk, _ := n.app.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: tc.tx})
			if chk.Code != tc.code {
				t.Fatalf("CheckTx code %d, FinalizeBlock %d: one validity function must agree", chk.Code, tc.code)
			}
		})
		codes[tc.code] = true
	}
	if len(codes) < 25 {
		t.Fatalf("catalogue covers %d distinct codes, want ≥ 25", len(codes))
	}
	// Sanity: the valid tx the malformed ones derive from is accepted.
	if r := finalizeOnly(t, n, h, [][]byte{valid}); r.TxResults[0].Code != wire.CodeOK || bytes.Equal(r.AppHash, empty.AppHash) {
		t.Fatalf("base tx: code %d, hash changed %v", r.TxResults[0].Code, !bytes.Equal(r.AppHash, empty.AppHash))
	}
}

// finalizeOnly executes a block at height h without committing it.
func finalizeOnly(t *testing.T, n *node, h int64, txs [][]byte) *abcitypes.ResponseFinalizeBlock {
	t.Helper()
	resp, err := n.app.FinalizeBlock(context.Background(), &abcitypes.RequestFinalizeBlock{Height: h, Time: blockTime(h), Txs: txs})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// TestTrackDisabled: messages of a track the chain does not run are rejected.
func TestTrackDisabled(t *testing.T) {
	g := testGenesis(1)
	g.Tracks = []genesis.Track{{Name: genesis.TrackWorkflow, Share: track.Dec("1"), ActivityCutoffBlocks: genesis.DefaultTaskActivityCutoff}}
	n := newNode(t, "", g)
	a, r := newSigner("miner-a"), reporter(0)
	mustOK(t, n.block(a.tx(t, msgRegister())))
	for _, tx := range [][]byte{r.next(msgArenaTask(3, 2, 2)), a.next(msgGas(1, 5, "1")), r.next(msgTruth(1, 5, "1", 10))} {
		resp := finalizeOnly(t, n, n.height+1, [][]byte{tx})
		if resp.TxResults[0].Code != wire.CodeTrackDisabled {
			t.Fatalf("code %d (%s), want track_disabled", resp.TxResults[0].Code, resp.TxResults[0].Log)
		}
	}
}

// badSig flips the last byte of a signed transaction's signature.
func badSig(tx []byte) []byte {
	out := append([]byte(nil), tx...)
	out[len(out)-1] ^= 1
	return out
}
