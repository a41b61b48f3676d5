package receipt_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/receipt"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// TestCommitFields: the commit section byte for byte, with the keeper's
// fields only on a duplicate.
func TestCommitFields(t *testing.T) {
	wantFields(t, "revealed", receipt.CommitFields(&subnetv1.Submission{Height: 4, RevealHeight: 9}), []nv{
		{"commit_height", "4"}, {"reveal_height", "9"}, {"duplicate", "false"}})
	wantFields(t, "never revealed", receipt.CommitFields(&subnetv1.Submission{Height: 4}), []nv{
		{"commit_height", "4"}, {"reveal_height", "0"}, {"duplicate", "false"}})
	wantFields(t, "duplicate", receipt.CommitFields(&subnetv1.Submission{Height: 5, RevealHeight: 6, Duplicate: true,
		DuplicateOfUid: 4294967295, DuplicateOfHeight: 2}), []nv{
		{"commit_height", "5"}, {"reveal_height", "6"}, {"duplicate", "true"},
		{"duplicate_of_uid", "4294967295"}, {"duplicate_of_commit_height", "2"}})
}

// duplicateSubmission is uid 2's workflow submission, committed at 5 and
// revealed at 6, whose artifact uid keeperUID's commit at keptAt keeps; its
// receipt as the app writes it.
func duplicateSubmission(keeperUID uint32, keptAt int64) *subnetv1.Submission {
	sub := &subnetv1.Submission{Id: 7, Track: scoring.TrackWorkflow, Uid: 2, Height: 5, RevealHeight: 6, Status: "duplicate",
		Duplicate: true, DuplicateOfUid: keeperUID, DuplicateOfHeight: keptAt}
	sub.Receipt = &subnetv1.Receipt{Height: 6, Track: scoring.TrackWorkflow, Status: "duplicate", Score: "0.000000000000000000",
		Note: "artifact already revealed"}
	return sub
}

// verifyBare verifies sub's receipt with its commit section, without the
// answer.
func verifyBare(t *testing.T, sub *subnetv1.Submission) receipt.Result {
	t.Helper()
	res, err := receipt.Verify(receipt.Input{Receipt: sub.Receipt, Commit: receipt.CommitFields(sub)})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestVerifyDuplicate: a duplicate's receipt has nothing to recompute; it
// verifies when its score is 0 and its keeper's commit precedes its own
// (lower commit height, then lower uid: the uid comes from the answer, so a
// bare receipt whose keeper committed in the same block leaves it
// unchecked). Forged ones: a non-zero score, a keeper after it (a later
// block, or the same block and a higher or equal uid).
func TestVerifyDuplicate(t *testing.T) {
	// bare: score, the keeper's height, the duplicate flag, the reveal order
	res := verifyBare(t, duplicateSubmission(1, 2))
	want := receipt.Commit{CommitHeight: 5, RevealHeight: 6, Duplicate: true, DuplicateOfUID: 1, DuplicateOfCommitHeight: 2}
	if !res.Verified || res.Checked != 4 || len(res.Unchecked) != 0 || res.Commit != want || res.Submission != nil {
		t.Fatalf("bare duplicate: %+v", res)
	}
	// whole: + track, status, and the answer's five commit facts
	if res := verifySubmission(t, duplicateSubmission(1, 2), nil); !res.Verified || res.Checked != 4+2+5 {
		t.Fatalf("duplicate with its answer: %+v", res)
	}
	// the keeper committed in the same block with a lower uid
	if res := verifyBare(t, duplicateSubmission(1, 5)); !res.Verified || res.Checked != 3 ||
		!slices.Equal(res.Unchecked, []string{"commit.duplicate_of_uid"}) {
		t.Fatalf("bare, same block: %+v", res)
	}
	if res := verifySubmission(t, duplicateSubmission(1, 5), nil); !res.Verified || res.Checked != 4+2+5 {
		t.Fatalf("same block, uid 1 before uid 2: %+v", res)
	}

	forged := []struct {
		name string
		sub  *subnetv1.Submission
		edit func(*subnetv1.Submission)
		want []receipt.Mismatch
	}{
		{"score not 0", duplicateSubmission(1, 2), func(s *subnetv1.Submission) { s.Receipt.Score = "0.5" },
			[]receipt.Mismatch{{Name: "score", Receipt: "0.5", Recomputed: "0.000000000000000000"}}},
		{"no score", duplicateSubmission(1, 2), func(s *subnetv1.Submission) { s.Receipt.Score = "" },
			[]receipt.Mismatch{{Name: "score", Receipt: "", Recomputed: "0.000000000000000000"}}},
		{"keeper committed later", duplicateSubmission(1, 7), nil,
			[]receipt.Mismatch{{Name: "commit.duplicate_of_commit_height", Receipt: "7", Recomputed: "<= 5"}}},
		{"keeper in the same block, higher uid", duplicateSubmission(3, 5), nil,
			[]receipt.Mismatch{{Name: "commit.duplicate_of_uid", Receipt: "3", Recomputed: "< 2"}}},
		{"keeper is itself", duplicateSubmission(2, 5), nil,
			[]receipt.Mismatch{{Name: "commit.duplicate_of_uid", Receipt: "2", Recomputed: "< 2"}}},
		{"revealed before its commit", duplicateSubmission(1, 2), func(s *subnetv1.Submission) {
			s.RevealHeight = 5
		}, []receipt.Mismatch{{Name: "commit.reveal_height", Receipt: "5", Recomputed: "in [6, 6]"}}},
		{"not flagged", duplicateSubmission(1, 2), func(s *subnetv1.Submission) {
			s.Duplicate = false
		}, []receipt.Mismatch{{Name: "commit.duplicate", Receipt: "false", Recomputed: "true"}}},
		{"answer: another keeper", duplicateSubmission(1, 2), func(s *subnetv1.Submission) { s.DuplicateOfUid = 4 },
			[]receipt.Mismatch{{Name: "submission.duplicate_of_uid", Receipt: "1", Recomputed: "4"}}},
		{"answer: not a duplicate", duplicateSubmission(1, 2), func(s *subnetv1.Submission) { s.Duplicate = false },
			[]receipt.Mismatch{{Name: "submission.duplicate", Receipt: "true", Recomputed: "false"}}},
	}
	for _, f := range forged {
		t.Run(f.name, func(t *testing.T) {
			// the receipt's commit section as the app wrote it; an edit
			// named "answer: …" changes only the answer beside it
			written := receipt.CommitFields(f.sub)
			if f.edit != nil {
				f.edit(f.sub)
			}
			if !strings.HasPrefix(f.name, "answer:") {
				written = receipt.CommitFields(f.sub)
			}
			if res := verifyWith(t, f.sub, written); res.Verified || !slices.Equal(res.Mismatches, f.want) {
				t.Fatalf("%+v, want mismatches %+v", res, f.want)
			}
		})
	}

	// shapes the app never writes
	withInputs := duplicateSubmission(1, 2).Receipt
	withInputs.Inputs = []*subnetv1.Field{{Name: "total_steps", Value: "4"}}
	gas := duplicateSubmission(1, 2).Receipt
	gas.Track = scoring.TrackGas
	for name, r := range map[string]*subnetv1.Receipt{"with inputs": withInputs, "gas": gas} {
		if _, err := receipt.Verify(receipt.Input{Receipt: r, Commit: receipt.CommitFields(duplicateSubmission(1, 2))}); !errors.Is(err, receipt.ErrMalformed) {
			t.Errorf("duplicate %s: %v, want a malformed receipt", name, err)
		}
	}
}

// TestVerifyCommitSection: every receipt records its commit section; a
// scored one was revealed after its commit, no later than the receipt, and
// is not flagged duplicate; the answer's commit facts must be the receipt's.
func TestVerifyCommitSection(t *testing.T) {
	edited := func(edit func(*subnetv1.Submission)) *subnetv1.Submission {
		sub := workflowSubmission(t)
		edit(sub)
		return sub
	}
	mismatches := []struct {
		name string
		sub  *subnetv1.Submission
		want []receipt.Mismatch
	}{
		{"reveal in the commit's block", edited(func(s *subnetv1.Submission) { s.RevealHeight = 1 }),
			[]receipt.Mismatch{{Name: "commit.reveal_height", Receipt: "1", Recomputed: "in [2, 3]"}}},
		{"never revealed, yet scored", edited(func(s *subnetv1.Submission) { s.RevealHeight = 0 }),
			[]receipt.Mismatch{{Name: "commit.reveal_height", Receipt: "0", Recomputed: "in [2, 3]"}}},
		{"revealed after the receipt", edited(func(s *subnetv1.Submission) { s.RevealHeight = 4 }),
			[]receipt.Mismatch{{Name: "commit.reveal_height", Receipt: "4", Recomputed: "in [2, 3]"}}},
		{"scored and flagged duplicate", edited(func(s *subnetv1.Submission) { s.Duplicate, s.DuplicateOfUid, s.DuplicateOfHeight = true, 1, 1 }),
			[]receipt.Mismatch{{Name: "commit.duplicate", Receipt: "true", Recomputed: "false"}}},
	}
	for _, m := range mismatches {
		if res := verifySubmission(t, m.sub, nil); res.Verified || !slices.Equal(res.Mismatches, m.want) {
			t.Errorf("%s: %+v, want %+v", m.name, res.Mismatches, m.want)
		}
	}
	// the answer's own heights against the receipt's
	sub := workflowSubmission(t)
	written := receipt.CommitFields(sub)
	sub.Height, sub.RevealHeight = 2, 3
	want := []receipt.Mismatch{{Name: "submission.height", Receipt: "1", Recomputed: "2"},
		{Name: "submission.reveal_height", Receipt: "2", Recomputed: "3"}}
	if res := verifyWith(t, sub, written); !slices.Equal(res.Mismatches, want) {
		t.Errorf("answer heights: %+v, want %+v", res.Mismatches, want)
	}

	malformed := []struct {
		name   string
		commit []*subnetv1.Field
		want   string
	}{
		{"missing", nil, "commit: missing"},
		{"no reveal height", []*subnetv1.Field{{Name: "commit_height", Value: "1"}, {Name: "duplicate", Value: "false"}}, "commit: missing reveal_height"},
		{"keeper of a non-duplicate", append(receipt.CommitFields(&subnetv1.Submission{Height: 1, RevealHeight: 2}),
			&subnetv1.Field{Name: "duplicate_of_uid", Value: "1"}), `commit: unknown "duplicate_of_uid"`},
		{"duplicate without its keeper", []*subnetv1.Field{{Name: "commit_height", Value: "1"}, {Name: "reveal_height", Value: "2"},
			{Name: "duplicate", Value: "true"}}, "commit: missing duplicate_of_uid, duplicate_of_commit_height"},
		{"height not a number", []*subnetv1.Field{{Name: "commit_height", Value: "one"}, {Name: "reveal_height", Value: "2"},
			{Name: "duplicate", Value: "false"}}, "commit.commit_height"},
		{"height 0", receipt.CommitFields(&subnetv1.Submission{RevealHeight: 2}), "commit.commit_height: 0 is not a block height"},
		{"uid out of range", []*subnetv1.Field{{Name: "commit_height", Value: "1"}, {Name: "reveal_height", Value: "2"},
			{Name: "duplicate", Value: "true"}, {Name: "duplicate_of_uid", Value: "4294967296"}, {Name: "duplicate_of_commit_height", Value: "1"}},
			"commit.duplicate_of_uid"},
	}
	for _, m := range malformed {
		sub := workflowSubmission(t)
		_, err := receipt.Verify(receipt.Input{Receipt: sub.Receipt, Commit: m.commit})
		if !errors.Is(err, receipt.ErrMalformed) || !strings.HasPrefix(err.Error(), m.want) {
			t.Errorf("%s: %v, want an error starting %q", m.name, err, m.want)
		}
	}
}

// verifyWith verifies sub with its answer, its receipt's commit section
// being commit (as written before an edit of the answer).
func verifyWith(t *testing.T, sub *subnetv1.Submission, commit []*subnetv1.Field) receipt.Result {
	t.Helper()
	in, err := receipt.FromSubmission(sub, scenarioValidators())
	if err != nil {
		t.Fatal(err)
	}
	in.Commit = commit
	res, err := receipt.Verify(in)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
