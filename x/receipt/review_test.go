package receipt_test

import (
	"slices"
	"testing"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/receipt"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// outlierSubmission is an arena submission too good to be true (50 tokens,
// one tool call, 2 s) scored against the default baseline (median tokens
// 10000, so the token threshold is 1000), its receipt written with the
// builders as the app writes it.
func outlierSubmission(t *testing.T) *subnetv1.Submission {
	t.Helper()
	g := receipt.DefaultChain()
	m := &subnetv1.ArenaMeasurement{TotalTokens: 50, ToolCalls: 1, Iterations: 1, ExecutionTime: "2", EstimatedCost: "0.001", CriteriaPassed: 4}
	var votes []*subnetv1.Vote
	for i := 0; i < 3; i++ {
		votes = append(votes, &subnetv1.Vote{Validator: uint32(i), Arena: m})
	}
	s := scoring.ArenaSubmission{TotalTokens: 50, ToolCalls: 1, Iterations: 1, ExecutionTime: d("2"), EstimatedCost: d("0.001"),
		CriteriaPassed: 4, CriteriaTotal: 4}
	b := scoring.DefaultArenaBaseline()
	res, err := scoring.ScoreArena(g.Arena, s, b, "", "")
	if err != nil {
		t.Fatal(err)
	}
	params := append(receipt.ArenaParams(g.Arena, b), receipt.ArenaTables(g.Arena, "", "")...)
	r := &subnetv1.Receipt{Height: 3, Track: scoring.TrackArena, Status: "scored", ReportedPower: 30, TotalPower: 40,
		Inputs: receipt.ArenaInputs(s, "", ""), Params: append(params, receipt.VotePowers(votes, scenarioValidators())...),
		Values: receipt.ArenaValues(res, s, b), Score: scoring.Format(res.Overall)}
	return &subnetv1.Submission{Id: 4, Track: scoring.TrackArena, Uid: 5, Height: 1, RevealHeight: 2, Status: "scored", Votes: votes, Receipt: r}
}

// TestArenaReceiptReview: the receipt records the outlier flags against its
// baseline, ReadArena reads them back with the scores, and Verify
// recomputes them: a receipt that hides them does not verify.
func TestArenaReceiptReview(t *testing.T) {
	sub := outlierSubmission(t)
	if res := verifySubmission(t, sub, nil); !res.Verified {
		t.Fatalf("as built: %+v", res)
	}
	rec, err := receipt.ReadArena(sub.Receipt)
	if err != nil {
		t.Fatal(err)
	}
	flags := []string{scoring.FlagEfficientTokens, scoring.FlagFast, scoring.FlagMinimalTools}
	if !rec.Outlier || !slices.Equal(rec.OutlierFlags, flags) || rec.Entry.Submission.TotalTokens != 50 ||
		scoring.Format(rec.Entry.Result.Overall) != sub.Receipt.Score {
		t.Fatalf("ReadArena: %+v", rec)
	}
	n := len(sub.Receipt.Values)
	sub.Receipt.Values[n-2].Value, sub.Receipt.Values[n-1].Value = "", "false"
	res := verifySubmission(t, sub, nil)
	want := []receipt.Mismatch{{Name: "outlier_flags", Receipt: "", Recomputed: "extremely_efficient_tokens,extremely_fast,minimal_tool_usage"},
		{Name: "outlier", Receipt: "false", Recomputed: "true"}}
	if res.Verified || !slices.Equal(res.Mismatches, want) {
		t.Fatalf("hidden flags: %+v", res.Mismatches)
	}
	sub.Receipt.Values = sub.Receipt.Values[:n-2]
	if _, err := receipt.ReadArena(sub.Receipt); err == nil {
		t.Fatal("ReadArena of a receipt without review fields: no error")
	}
}
