package app

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"fmt"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/x/scoring"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// catalogueChain builds a chain where every rejection can be provoked at
// its next height, 7: miners A (uid 1) and B (uid 2) fill max_uids = 2.
// Tasks (reveal window of one block, testRevealBlocks):
//   - 0 workflow and 1 arena: commits to 4, reveals at 5, reports from 6;
//     A committed (submissions 0, 1) and revealed both; submission 0 has
//     val0's report;
//   - 2 workflow: settled at 5: A's revealed submission 2 expired (no
//     reports), B's submission 3 never revealed (unrevealed);
//   - 3 workflow: commits open to 21; A committed (submission 5);
//   - 4 workflow: its reveal window is height 7; A and B committed
//     (submissions 6 and 7), neither revealed;
//   - 5 workflow: its reveal window was height 4; B committed (submission
//     8) and never revealed; it settles at 24.
//
// EVM chain 1 is closed up to block 100 at 1_700_000_000 (at height 2;
// max_prediction_ahead 1000); A committed to block 200 (submission 4),
// whose truth is not final; block 300 has val0's truth; EVM chain 8453 has
// no closed block; EVM chain 10 is paused by governance. B served its
// address at 6, so it may serve again from 16.
func catalogueChain(t testing.TB) (*node, map[string]*signer) {
	g := testGenesis(4)
	g.Chain.MaxUIDs, g.Chain.MaxPredictionAhead = 2, 1000
	g.Chain.GasChains = []uint64{1, 10, 8453}
	g.Chain.GasPaused = []genesis.GasPause{{EvmChainID: 10}}
	g.Membership = testMembership(2)
	n := newNode(t, "", g)
	s := map[string]*signer{"a": newMiner("miner-a", 1), "b": newMiner("miner-b", 2), "c": newMiner("miner-c", 3),
		"r0": reporter(0), "r1": reporter(1), "r2": reporter(2)}
	a, b, r0 := s["a"], s["b"], s["r0"]
	mustOK(t, n.block(a.tx(t, msgRegister()), b.tx(t, msgRegister()),
		r0.tx(t, msgWorkflowTask(4, 3, 30)), r0.tx(t, msgArenaTask(5, 3, 30)), r0.tx(t, msgWorkflowTask(4, 1, 1)),
		r0.tx(t, msgWorkflowTask(4, 20, 20)), r0.tx(t, msgWorkflowTask(4, 5, 20)), r0.tx(t, msgWorkflowTask(4, 2, 20))))
	mustOK(t, n.block(a.commit(t, wfPayloadOf(a, 0)), a.commit(t, arenaPayloadOf(a, 1)), a.commit(t, wfPayloadOf(a, 2)), // 0, 1, 2
		b.commit(t, wfPayloadOf(b, 2)), // 3
		s["r0"].tx(t, msgTruth(1, 100, "10", 1_700_000_000)), s["r1"].tx(t, msgTruth(1, 100, "10", 1_700_000_000)),
		s["r2"].tx(t, msgTruth(1, 100, "10", 1_700_000_000)),
		a.commit(t, gasPayload(1, 200, "5")), // 4
		r0.tx(t, msgTruth(1, 300, "10", 1_700_000_050)),
		a.commit(t, wfPayloadOf(a, 3)),                                 // 5
		a.commit(t, wfPayloadOf(a, 4)), b.commit(t, wfPayloadOf(b, 4)), // 6, 7
		b.commit(t, wfPayloadOf(b, 5)))) // 8
	mustOK(t, n.block(a.reveal(t, wfPayloadOf(a, 2))))                                    // 3
	mustOK(t, n.block())                                                                  // 4: task 5's window, B stays silent
	mustOK(t, n.block(a.reveal(t, wfPayloadOf(a, 0)), a.reveal(t, arenaPayloadOf(a, 1)))) // 5
	mustOK(t, n.block(r0.tx(t, msgWorkflowReport(0, workflowM())),                        // 6
		b.tx(t, client.Serve(wire.ServeAddressExample))))
	for id, want := range map[int]string{0: kernel.StatusPending, 2: kernel.StatusExpired, 3: kernel.StatusUnrevealed,
		5: kernel.StatusCommitted, 6: kernel.StatusCommitted, 8: kernel.StatusCommitted} {
		if sub, _ := n.query(fmt.Sprint("submission/", id)); sub["status"] != want {
			t.Fatalf("catalogue chain: submission %d = %v, want %s", id, sub["status"], want)
		}
	}
	return n, s
}

// rawBatch is a MsgReportBatch of the reports as they are, without the
// client's shape check (client.ReportBatch), so that a test can send one
// the chain refuses.
func rawBatch(reports ...*subnetv1.Msg) *subnetv1.Msg {
	b := &subnetv1.MsgReportBatch{}
	for _, m := range reports {
		b.Entries = append(b.Entries, m.GetReport())
	}
	return &subnetv1.Msg{Sum: &subnetv1.Msg_ReportBatch{ReportBatch: b}}
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
// Every code of wire.Codes has a row here or a named test elsewhere.
func TestRejectionCatalogue(t *testing.T) {
	n, s := catalogueChain(t)
	a, b, c, r0, r1 := s["a"], s["b"], s["c"], s["r0"], s["r1"]
	valid := crbCommitNext(t, b, wfPayloadOf(b, 3))
	flipped := append([]byte(nil), valid...)
	flipped[len(flipped)-1] ^= 1
	badBaseline := msgArenaTask(5, 10, 10)
	bl := kernel.BaselineToProto(scoring.DefaultArenaBaseline())
	bl.MinTokens = "999999"
	badBaseline.GetPostTask().GetArena().DefaultBaseline = bl
	pa4, pb4 := wfPayloadOf(a, 4), wfPayloadOf(b, 4)
	cases := []struct {
		name string
		tx   []byte
		code uint32
	}{
		{"garbage bytes", []byte("not a transaction"), wire.CodeMalformedTx},
		{"oversize", bytes.Repeat([]byte{1}, 16*1024+1), wire.CodeTxTooLarge},
		{"unknown field appended", append(append([]byte(nil), valid...), 0x18, 0x01), wire.CodeNonCanonical},
		{"plaintext submit (reserved Msg field 3) appended to a commit", crbField3Tx(t, b, crbCommitMsg(t, b, wfPayloadOf(b, 3)), wfPayloadOf(b, 3)), wire.CodeNonCanonical},
		{"plaintext submit (reserved Msg field 3) alone, as a v2 client sent it", crbField3Tx(t, b, &subnetv1.Msg{}, wfPayloadOf(b, 3)), wire.CodeNonCanonical},
		{"31-byte sender", signAt(testChainID, a.key, a.pub()[:31], a.nonce, msgRegister()), wire.CodeBadSender},
		{"bad signature", flipped, wire.CodeBadSignature},
		{"signed under the v2 domain", crbSignBody(t, b.key, "validatord/tx/v2\x00", crbBody(t, b, b.nonce, crbCommitMsg(t, b, wfPayloadOf(b, 3)))), wire.CodeBadSignature},
		{"wrong chain id", signAt("other-chain", a.key, a.pub(), a.nonce, crbCommitMsg(t, a, wfPayload(3))), wire.CodeWrongChainID},
		{"reused nonce", a.at(a.nonce-1, crbRevealMsg(a, pa4)), wire.CodeNonceUsed},
		{"future nonce", a.at(a.nonce+1, crbRevealMsg(a, pa4)), wire.CodeNonceFuture},
		{"empty msg", a.next(&subnetv1.Msg{}), wire.CodeEmptyMsg},
		{"commit without a target", a.next(&subnetv1.Msg{Sum: &subnetv1.Msg_Commit{Commit: &subnetv1.MsgCommit{Commitment: make([]byte, 32)}}}), wire.CodeEmptyMsg},
		{"reveal without a payload", a.next(crbRevealRaw(nil, make([]byte, 32))), wire.CodeEmptyMsg},
		{"post task by a miner", a.next(msgWorkflowTask(4, 5, 5)), wire.CodeNotValidator},
		{"report by a miner", a.next(msgWorkflowReport(0, workflowM())), wire.CodeNotValidator},
		{"commit by unknown key", crbCommitNext(t, c, wfPayloadOf(c, 3)), wire.CodeNotMiner},
		{"reveal by unknown key", crbRevealNext(c, pa4), wire.CodeNotMiner},
		{"register twice", a.next(msgRegister()), wire.CodeAlreadyMiner},
		{"deregister by unknown key", c.next(client.DeregisterMiner()), wire.CodeNotMiner},
		{"serve by unknown key", c.next(client.Serve(wire.ServeAddressExample)), wire.CodeNotMiner},
		{"serve by unknown key, address bad too (the miner first)", c.next(client.Serve("ftp://203.0.113.7")), wire.CodeNotMiner},
		{"serve an ftp address", a.next(client.Serve("ftp://203.0.113.7")), wire.CodeServeAddress},
		{"serve an address with a query", a.next(client.Serve(wire.ServeAddressExample + "/?k=v")), wire.CodeServeAddress},
		{"serve again 1 block after the last serve", b.next(client.Serve("http://203.0.113.8:8091")), wire.CodeServeTooSoon},
		{"serve again too soon, address bad too (the address first)", b.next(client.Serve("http://u@203.0.113.8")), wire.CodeServeAddress},
		{"uids full", c.next(msgRegister()), wire.CodeUIDsFull},
		{"register with work on the including block itself", c.next(client.RegisterMiner(n.height+1, 0)), wire.CodeStaleWork},
		{"register with work on an unknown height", c.next(client.RegisterMiner(-1, 0)), wire.CodeStaleWork},
		{"quality not a number", r1.next(msgWorkflowReport(0, withWorkflow(func(m *subnetv1.WorkflowMeasurement) { m.OutputQuality = "abc" }))), wire.CodeNotNumber},
		{"price not a number", crbRevealNext(a, gasPayload(1, 200, "five")), wire.CodeNotNumber},
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
		{"31-byte artifact hash", crbRevealNext(b, client.ArenaPayload(1, make([]byte, 31))), wire.CodeBadArtifactHash},
		{"commit to an unknown task", crbCommitNext(t, b, wfPayload(99)), wire.CodeUnknownTask},
		{"reveal for an unknown task", crbRevealNext(b, wfPayload(99)), wire.CodeUnknownTask},
		{"arena reveal for a workflow task", crbRevealNext(b, arenaPayloadOf(b, 4)), wire.CodeWrongKind},
		{"report on a gas prediction", r1.next(msgWorkflowReport(4, workflowM())), wire.CodeWrongKind},
		{"commit after the deadline", crbCommitNext(t, b, wfPayloadOf(b, 0)), wire.CodeSubmissionDeadline},
		{"commit to a settled task", crbCommitNext(t, b, wfPayloadOf(b, 2)), wire.CodeSubmissionDeadline},
		{"second commit to a task", crbCommitNext(t, a, wfPayload(3)), wire.CodeDuplicateSubmission},
		{"second commit for an EVM block", crbCommitNext(t, a, gasPayload(1, 200, "6")), wire.CodeDuplicateSubmission},
		// the window is checked before "already revealed": a second reveal
		// inside the window is 28 (TestRevealChecks, commit_reveal.txt)
		{"second reveal, after the window", crbRevealNext(a, wfPayloadOf(a, 0)), wire.CodeRevealWindow},
		{"unknown submission", r1.next(msgWorkflowReport(99, workflowM())), wire.CodeUnknownSubmission},
		{"report on an expired submission", r1.next(msgWorkflowReport(2, workflowM())), wire.CodeSubmissionFinal},
		{"report on an unrevealed submission", r1.next(msgWorkflowReport(3, workflowM())), wire.CodeSubmissionFinal},
		{"duplicate report", r0.next(msgWorkflowReport(0, workflowM())), wire.CodeDuplicateReport},
		{"duplicate_of names no submission", r1.next(client.DuplicateOf(msgWorkflowReport(0, workflowM()), 999)), wire.CodeBadDuplicateOf},
		{"duplicate_of names another task's submission", r1.next(client.DuplicateOf(msgWorkflowReport(0, workflowM()), 1)), wire.CodeBadDuplicateOf},
		{"duplicate_of names the reported submission", r1.next(client.DuplicateOf(msgArenaReport(1, arenaM()), 1)), wire.CodeBadDuplicateOf},
		{"report batch with no entries", r1.next(rawBatch()), wire.CodeBatchSize},
		{"report batch naming a submission twice", r1.next(rawBatch(msgWorkflowReport(0, workflowM()), msgArenaReport(1, arenaM()), msgWorkflowReport(0, workflowM()))), wire.CodeDuplicateBatchEntry},
		{"report batch whose every entry is refused (the first entry's code)", r1.next(rawBatch(msgWorkflowReport(99, workflowM()), msgWorkflowReport(2, workflowM()))), wire.CodeUnknownSubmission},
		{"report batch by a miner", a.next(rawBatch(msgWorkflowReport(0, workflowM()))), wire.CodeNotValidator},
		{"truth batch with no entries", r1.next(rawTruthBatch()), wire.CodeBatchSize},
		{"truth batch naming an EVM block twice", r1.next(rawTruthBatch(msgTruth(1, 301, "10", 1_700_000_100), msgTruth(1, 302, "10", 1_700_000_100), msgTruth(1, 301, "11", 1_700_000_100))), wire.CodeDuplicateBatchEntry},
		{"truth batch whose every entry is refused (the first entry's code)", r1.next(rawTruthBatch(msgTruth(1, 100, "10", 1_700_000_100), msgTruth(10, 1, "10", 1_700_000_100))), wire.CodeEVMBlockClosed},
		{"truth batch by a miner", a.next(rawTruthBatch(msgTruth(1, 301, "10", 1_700_000_100))), wire.CodeNotValidator},
		{"commit batch with no entries", a.next(rawCommitBatch()), wire.CodeBatchSize},
		{"commit batch naming a task twice", b.next(rawCommitBatch(crbCommitMsg(t, b, wfPayloadOf(b, 3)), crbCommitMsg(t, b, wfPayload(3)))), wire.CodeDuplicateBatchEntry},
		{"reveal batch naming an EVM block twice", a.next(rawRevealBatch(crbRevealMsg(a, gasPayload(1, 200, "5")), crbRevealMsg(a, gasPayload(1, 200, "6")))), wire.CodeDuplicateBatchEntry},
		{"commit batch whose every entry is refused (the first entry's code)", b.next(rawCommitBatch(crbCommitMsg(t, b, gasPayload(1, 100+1001, "5")), crbCommitMsg(t, b, wfPayloadOf(b, 0)))), wire.CodePredictionTooFar},
		{"reveal batch whose every entry is refused (the first entry's code)", b.next(rawRevealBatch(crbRevealMsg(b, wfPayloadOf(b, 0)), crbRevealMsg(b, gasPayload(1, 200, "5")))), wire.CodeNoCommit},
		{"commit batch by a validator's report key", r1.next(rawCommitBatch(crbCommitMsg(t, a, wfPayloadOf(a, 3)))), wire.CodeNotMiner},
		{"commit to an unknown EVM chain", crbCommitNext(t, a, gasPayload(999, 200, "5")), wire.CodeUnknownEVMChain},
		{"reveal on an unknown EVM chain", crbRevealNext(a, gasPayload(999, 200, "5")), wire.CodeUnknownEVMChain},
		{"commit for a closed block", crbCommitNext(t, b, gasPayload(1, 100, "5")), wire.CodeEVMBlockClosed},
		{"commit too far ahead", crbCommitNext(t, b, gasPayload(1, 100+1001, "5")), wire.CodePredictionTooFar},
		{"zero price", crbRevealNext(a, gasPayload(1, 200, "0")), wire.CodeDecimalRange},
		{"commit on a chain with no closed block", crbCommitNext(t, b, gasPayload(8453, 1, "5")), wire.CodeEVMChainUnanchored},
		{"commit to a paused EVM chain", crbCommitNext(t, a, gasPayload(10, 1, "5")), wire.CodeEVMChainPaused},
		{"reveal on a paused EVM chain", crbRevealNext(a, gasPayload(10, 1, "5")), wire.CodeEVMChainPaused},
		{"truth of a paused EVM chain", r1.next(msgTruth(10, 1, "10", 1_700_000_100)), wire.CodeEVMChainPaused},
		{"register with a validator's report key", r1.next(msgRegister()), wire.CodeValidatorKey},
		{"duplicate truth", r0.next(msgTruth(1, 300, "10", 1_700_000_050)), wire.CodeDuplicateTruth},
		{"truth before the last closed timestamp", r1.next(msgTruth(1, 301, "10", 1_699_999_999)), wire.CodeTruthTimeBackwards},
		{"truth by a miner", a.next(msgTruth(1, 301, "10", 1_700_000_100)), wire.CodeNotValidator},
		{"inconsistent default baseline", r0.next(badBaseline), wire.CodeBadBaseline},
		{"post task by a miner, signature bad too (cheap checks first)", badSig(a.next(msgWorkflowTask(4, 5, 5))), wire.CodeNotValidator},
		{"truth too far past the last closed block", r1.next(msgTruth(1, 100+1001, "10", 1_700_000_100)), wire.CodeTruthTooFar},
		{"truth timestamp past the block time + drift", r1.next(msgTruth(1, 301, "10", blockTime(n.height+1).Unix()+1000)), wire.CodeTruthTimeFuture},
		{"empty truth with a price", r1.next(emptyTruthPriced(1, 301, blockTime(n.height+1).Unix())), wire.CodeEmptyTruthPriced},
		{"commit with a 31-byte commitment", b.next(crbCommitRaw(3, make([]byte, 31))), wire.CodeBadCommitment},
		{"commit with a 33-byte commitment", b.next(crbCommitRaw(3, make([]byte, 33))), wire.CodeBadCommitment},
		{"reveal with a 31-byte salt", b.next(crbRevealRaw(pb4, make([]byte, 31))), wire.CodeBadCommitment},
		{"gas reveal with no salt", a.next(crbRevealRaw(gasPayload(1, 200, "5"), nil)), wire.CodeBadCommitment},
		{"reveal with no commit", crbRevealNext(b, wfPayloadOf(b, 0)), wire.CodeNoCommit},
		{"gas reveal with no commit", crbRevealNext(b, gasPayload(1, 200, "5")), wire.CodeNoCommit},
		{"reveal before the window opens", crbRevealNext(a, wfPayloadOf(a, 3)), wire.CodeRevealWindow},
		{"reveal after the window closed", crbRevealNext(b, wfPayloadOf(b, 5)), wire.CodeRevealWindow},
		{"gas reveal before its truth is final", crbRevealNext(a, gasPayload(1, 200, "5")), wire.CodeRevealWindow},
		{"report before the reveal window closed", r1.next(msgWorkflowReport(6, workflowM())), wire.CodeRevealWindow},
		{"reveal with a wrong salt", a.next(client.Reveal(pa4, client.Salt{1})), wire.CodeRevealMismatch},
		{"reveal of another miner's payload", a.next(client.Reveal(pb4, a.salt(pb4))), wire.CodeRevealMismatch},
		{"another miner's exact opening, sent by a key that did not make that commit", b.next(crbRevealMsg(a, pa4)), wire.CodeRevealMismatch},
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
	// Codes that no single transaction on this chain can provoke, and the
	// test that provokes each.
	elsewhere := map[uint32]string{
		wire.CodeTrackDisabled:     "TestTrackDisabled",
		wire.CodeReportDeadline:    "carryover_test.go (a settlement carried past the deadline)",
		wire.CodeInternal:          "below: CheckTx before InitChain",
		wire.CodeBlockFull:         "TestBlockFullReportLeavesNoTrace",
		wire.CodeTooManyOpenTasks:  "TestOpenTasksPerValidator",
		wire.CodeTooManyOpenRounds: "TestOpenRoundsPerValidator",
		wire.CodeInsufficientWork:  "TestRegistrationWork (the catalogue chain's difficulty is 1)",
		wire.CodeRegistrationsFull: "TestRegistrationWork (a second registration in one block)",
		wire.CodeBadProposal:       "TestGovernanceRejections",
		wire.CodeDuplicateKey:      "TestGovernanceRejections",
		wire.CodeEmptySet:          "TestGovernanceRejections",
		wire.CodePowerChange:       "TestGovernanceRejections",
		wire.CodeActivationHeight:  "TestGovernanceRejections",
		wire.CodeUnknownProposal:   "TestGovernanceRejections",
		wire.CodeProposalClosed:    "TestGovernanceRejections",
		wire.CodeDuplicateApproval: "TestGovernanceRejections",
		wire.CodeTooManyProposals:  "TestGovernanceRejections",
		// the catalogue chain's windows are one block: every block is aligned
		wire.CodeEVMWindowMisaligned: "TestGasWindows",
		// a contested item needs a deadline settlement between 1/2 and 2/3
		wire.CodeContested: "TestDeadlineAttackUnderAThirdContested, TestTruthTimestampAttackContested",
	}
	// The mirror mode's codes need a chain in mirror mode (and 63 one in
	// each mode): TestMirrorRejections provokes each.
	for c := wire.CodeWrongRegistrationMode; c <= wire.CodeTxKeyBound; c++ {
		elsewhere[c] = "TestMirrorRejections"
	}
	for _, ci := range wire.Codes[1:] {
		if !codes[ci.Code] && elsewhere[ci.Code] == "" {
			t.Errorf("code %d (%s) has no row in the catalogue", ci.Code, ci.Name)
		}
	}
	// Sanity: the valid tx the malformed ones derive from is accepted.
	if r := finalizeOnly(t, n, h, [][]byte{valid}); r.TxResults[0].Code != wire.CodeOK || bytes.Equal(r.AppHash, empty.AppHash) {
		t.Fatalf("base tx: code %d, hash changed %v", r.TxResults[0].Code, !bytes.Equal(r.AppHash, empty.AppHash))
	}
	// A plaintext submit is refused with a log that says what replaced it.
	if r := finalizeOnly(t, n, h, [][]byte{crbField3Tx(t, b, &subnetv1.Msg{}, wfPayloadOf(b, 3))}); !strings.Contains(r.TxResults[0].Log, "commit and reveal") {
		t.Fatalf("plaintext submit: log %q does not say to commit and reveal", r.TxResults[0].Log)
	}
	// The v2 domain is refused with a log that names the v3 domain.
	v2 := crbSignBody(t, b.key, "validatord/tx/v2\x00", crbBody(t, b, b.nonce, crbCommitMsg(t, b, wfPayloadOf(b, 3))))
	if r := finalizeOnly(t, n, h, [][]byte{v2}); !strings.Contains(r.TxResults[0].Log, "validatord/tx/v3") {
		t.Fatalf("v2 signature: log %q does not name the v3 domain", r.TxResults[0].Log)
	}
	// Each reveal refused above was refused for its fault only: the same
	// reveals, made right, are accepted in this block.
	for _, tx := range [][]byte{crbRevealNext(a, pa4), crbRevealNext(b, pb4)} {
		if r := finalizeOnly(t, n, h, [][]byte{tx}); r.TxResults[0].Code != wire.CodeOK {
			t.Fatalf("the right reveal of task 4: code %d: %s", r.TxResults[0].Code, r.TxResults[0].Log)
		}
	}
	// Code 39: CheckTx on an app that has no chain yet.
	fresh, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if chk, _ := fresh.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: valid}); chk.Code != wire.CodeInternal {
		t.Fatalf("CheckTx before InitChain: code %d, want %d", chk.Code, wire.CodeInternal)
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

// TestTrackDisabled: messages of a track the chain does not run are
// rejected: posting an arena task, a gas commit, a gas reveal and a truth.
func TestTrackDisabled(t *testing.T) {
	g := testGenesis(1)
	g.Tracks = []genesis.Track{testTrack(genesis.TrackWorkflow, kernel.Dec("1"))}
	n := newNode(t, "", g)
	a, r := newMiner("miner-a", 1), reporter(0)
	mustOK(t, n.block(a.tx(t, msgRegister())))
	for _, tx := range [][]byte{r.next(msgArenaTask(3, 2, 2)), crbCommitNext(t, a, gasPayload(1, 5, "1")), crbRevealNext(a, gasPayload(1, 5, "1")),
		r.next(msgTruth(1, 5, "1", 10))} {
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
