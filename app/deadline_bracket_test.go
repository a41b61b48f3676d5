package app

import (
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
)

// A coalition just under 1/3 of the power decided a median at a deadline
// whenever the honest reporters held less power than it: 32% dishonest and
// 19% honest pass the deadline quorum (51 of 100 > 1/2), and each weighted
// median is the coalition's. At a deadline a median now settles only when
// bracketed (at least 1/3 of the total power reported at or below it, and at
// or above it, docs/scoring.md §6.5); otherwise the item ends contested.

// TestDeadlineAttackUnderAThirdContested: before the bracket rule the
// submission scored 0.1 on the attacker's values (the honest score is
// 0.8575); now it ends contested, unscored, with its receipt and event, and
// a later report is refused with the code contested.
func TestDeadlineAttackUnderAThirdContested(t *testing.T) {
	n, _, resp := deadlineRun(t, powersGenesis(32, 19, 25, 24), 1) // the response of height 5, the report deadline
	sub, _ := n.query("submission/0")
	if sub["status"] != kernel.StatusContested {
		t.Fatalf("32%% dishonest + 19%% honest at the deadline = %v (score %q), want contested", sub["status"], score(sub))
	}
	rec := sub["receipt"].(map[string]any)
	if rec["status"] != kernel.StatusContested || score(sub) != "" {
		t.Fatalf("receipt = %v, want status contested and no score", rec)
	}
	if note, _ := rec["note"].(string); !strings.Contains(note, "output_quality,steps_completed") || !strings.Contains(note, "1/3") {
		t.Fatalf("receipt note = %q, want the unbracketed fields and the 1/3 named", note)
	}
	if f, ok := eventAttr(resp.Events, wire.EventSubmissionContested, "fields"); !ok || !strings.HasPrefix(f, "output_quality,steps_completed") {
		t.Fatalf("no %s event naming the fields: %v", wire.EventSubmissionContested, resp.Events)
	}
	if _, ok := eventAttr(resp.Events, wire.EventSubmissionScored, "submission_id"); ok {
		t.Fatalf("a contested submission scored: %v", resp.Events)
	}
	mustCodes(t, n.block(reporter(2).tx(t, msgWorkflowReport(0, workflowM()))), wire.CodeContested)
}

// TestDeadlineOldCasesContested: the settlements of the deadline quorum
// alone that the bracket rule refuses. 25 + 26 of 100 with different values:
// either reporter may be a coalition (each holds less than 1/3), so neither
// value can be trusted.
func TestDeadlineOldCasesContested(t *testing.T) {
	_, sub := deadlineCase(t, powersGenesis(25, 26, 25, 24), 1)
	if sub["status"] != kernel.StatusContested {
		t.Fatalf("25 dishonest + 26 honest at the deadline = %v %q, want contested", sub["status"], score(sub))
	}
}

// TestTruthTimestampAttackContested: the same trick on a truth round. A
// validator of 32% reports the EVM block's timestamp 300 s ahead, one of
// 19% the true one. Under the deadline quorum alone the round was final at
// the attacker's timestamp, and every honest truth for the next blocks was
// refused as going back in time (code 36) for 300 s. Now the round is
// contested: the block does not close, and the honest truths of the next
// block close the chain.
func TestTruthTimestampAttackContested(t *testing.T) {
	g := powersGenesis(32, 19, 25, 24)
	g.Chain.TruthReportBlocks = 1
	n := newNode(t, "", g)
	r := []*signer{reporter(0), reporter(1), reporter(2), reporter(3)}
	mustOK(t, n.block(anchorTxs(t, r[:3], 1, 99, 1_700_000_001)...)) // 76 of 100: final
	honestTS := blockTime(2).Unix()
	mustOK(t, n.block(r[0].tx(t, msgTruth(1, 100, "10", honestTS+300)), r[1].tx(t, msgTruth(1, 100, "10", honestTS))))
	resp := n.block() // height 3: the round's deadline
	mustOK(t, resp)
	base, _ := n.app.base()
	st := store.State{O: store.NewOverlay(base)}
	round, ok := st.Truth(1, 100)
	if !ok || round.Status != kernel.StatusContested || round.Timestamp != 0 || round.ClosedHeight != 3 {
		t.Fatalf("round of block 100 = %v, want contested at height 3 with no timestamp", round)
	}
	if f, ok := eventAttr(resp.Events, wire.EventGasTruthContested, "fields"); !ok || f != "timestamp" {
		t.Fatalf("%s fields = %q (%v), want timestamp", wire.EventGasTruthContested, f, ok)
	}
	if gc := st.GasChain(1); gc.LastClosedBlock != 99 || gc.LastTimestamp != 1_700_000_001 {
		t.Fatalf("chain closed at %d, time %d; want 99 and 1700000001 (block 100 stays open)", gc.LastClosedBlock, gc.LastTimestamp)
	}
	// The honest validators close block 101 at its true time (12 s later
	// than block 100's, 288 s before the attacker's), and block 100 takes no
	// more truths.
	next := blockTime(4).Unix()
	late := r[2].tx(t, msgTruth(1, 100, "10", honestTS))
	r[2].nonce-- // refused: the nonce stays
	mustCodes(t, n.block(late, r[1].tx(t, msgTruth(1, 101, "11", next)),
		r[2].tx(t, msgTruth(1, 101, "11", next)), r[3].tx(t, msgTruth(1, 101, "11", next))),
		wire.CodeContested, wire.CodeOK, wire.CodeOK, wire.CodeOK)
	base, _ = n.app.base()
	st = store.State{O: store.NewOverlay(base)}
	if gc := st.GasChain(1); gc.LastClosedBlock != 101 || gc.LastTimestamp != next {
		t.Fatalf("chain closed at %d, time %d; want 101 at %d", gc.LastClosedBlock, gc.LastTimestamp, next)
	}
}
