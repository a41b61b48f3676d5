package receipt_test

import (
	"errors"
	"slices"
	"testing"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/receipt"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// nearCopySubmission is uid 2's workflow submission (committed at 5,
// revealed at 6) that three validators of power 10 (of 40) reported, the
// ones of names naming submission 3 (uid 1, committed at 4); its receipt
// as the app writes it when the verdict is taken.
func nearCopySubmission(names ...int) *subnetv1.Submission {
	sub := duplicateSubmission(1, 4)
	sub.NearCopy = true
	sub.Votes = scenarioVotes(scenarioWorkflowM(), nil)
	for _, i := range names {
		sub.Votes[i].DuplicateOf = 3
	}
	sub.Receipt = &subnetv1.Receipt{Height: 8, Track: scoring.TrackWorkflow, Status: "duplicate", Score: "0.000000000000000000",
		ReportedPower: 30, TotalPower: 40, Params: receipt.VotePowers(sub.Votes, scenarioValidators()), Note: "near-copy of submission 3"}
	return sub
}

func scenarioWorkflowM() *subnetv1.WorkflowMeasurement {
	return &subnetv1.WorkflowMeasurement{OutputQuality: "0.9", StepsCompleted: 4, Cost: "0.5", LatencySeconds: "20",
		Retries: 1, DeclaredRetryBudget: 1}
}

// TestVerifyNearCopy: a near-copy's receipt verifies as a duplicate's, and
// with its answer the verdict is recomputed from the votes' duplicate_of and
// the recorded powers (quorum.Verdict); a bare one lists it as unchecked. A
// forged verdict (the votes name nothing with a majority) is a mismatch,
// and so are powers that do not add up to the reported power.
func TestVerifyNearCopy(t *testing.T) {
	wantFields(t, "near-copy section", receipt.CommitFields(nearCopySubmission(0, 1)), []nv{
		{"commit_height", "5"}, {"reveal_height", "6"}, {"duplicate", "true"},
		{"duplicate_of_uid", "1"}, {"duplicate_of_commit_height", "4"}, {"near_copy", "true"}})
	if res := verifySubmission(t, nearCopySubmission(0, 1), nil); !res.Verified || len(res.Unchecked) != 0 || !res.Commit.NearCopy {
		t.Fatalf("near-copy named by 20 of 30 (of 40): %+v", res)
	}
	if res := verifyBare(t, nearCopySubmission(0, 1)); !res.Verified || !slices.Equal(res.Unchecked, []string{"commit.near_copy"}) {
		t.Fatalf("bare near-copy: %+v", res)
	}
	want := []receipt.Mismatch{{Name: "commit.near_copy", Receipt: "true", Recomputed: "false"}}
	if res := verifySubmission(t, nearCopySubmission(0), nil); res.Verified || !slices.Equal(res.Mismatches, want) {
		t.Fatalf("near-copy named by 10 of 30: %+v, want %+v", res, want)
	}
	sub := nearCopySubmission(0, 1)
	sub.Receipt.ReportedPower = 20
	if res := verifySubmission(t, sub, nil); res.Verified || res.Mismatches[0].Name != "reported_power" {
		t.Fatalf("powers that do not add up: %+v", res)
	}
	// powers on an exact duplicate's receipt, or near_copy without duplicate: never written
	exact := nearCopySubmission(0, 1)
	exact.NearCopy = false
	if _, err := receipt.Verify(receipt.Input{Receipt: exact.Receipt, Commit: receipt.CommitFields(exact)}); !errors.Is(err, receipt.ErrMalformed) {
		t.Errorf("powers on an exact duplicate: %v, want a malformed receipt", err)
	}
	odd := []*subnetv1.Field{{Name: "commit_height", Value: "5"}, {Name: "reveal_height", Value: "6"}, {Name: "duplicate", Value: "false"},
		{Name: "near_copy", Value: "true"}}
	if _, err := receipt.Verify(receipt.Input{Receipt: nearCopySubmission(0, 1).Receipt, Commit: odd}); !errors.Is(err, receipt.ErrMalformed) {
		t.Errorf("near_copy without duplicate: %v, want a malformed receipt", err)
	}
}
