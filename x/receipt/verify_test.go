package receipt_test

import (
	"errors"
	"slices"
	"testing"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/receipt"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// workflowSubmission is the scenario's workflow submission as the app
// stores it, its receipt written with the builders.
func workflowSubmission(t *testing.T) *subnetv1.Submission {
	t.Helper()
	g := receipt.DefaultChain()
	var votes []*subnetv1.Vote
	for i, q := range []string{"0.9", "0.95", "0.99"} {
		votes = append(votes, &subnetv1.Vote{Validator: uint32(i), Workflow: &subnetv1.WorkflowMeasurement{OutputQuality: q,
			StepsCompleted: 4, Cost: "0.5", LatencySeconds: "20", Retries: 2, DeclaredRetryBudget: 1, Timeouts: 1}})
	}
	res, err := scoring.ScoreWorkflow(g.Workflow, wfInput)
	if err != nil {
		t.Fatal(err)
	}
	// committed at 1, revealed at 2, scored at 3
	sub := &subnetv1.Submission{Id: 0, Track: scoring.TrackWorkflow, Uid: 2, Height: 1, RevealHeight: 2, Status: "scored", Votes: votes}
	r := &subnetv1.Receipt{Height: 3, Track: scoring.TrackWorkflow, Status: "scored", ReportedPower: 30, TotalPower: 40,
		Inputs: receipt.WorkflowInputs(wfInput), Params: append(receipt.WorkflowParams(g.Workflow), receipt.VotePowers(votes, scenarioValidators())...),
		Values: receipt.WorkflowValues(res), Score: scoring.Format(res.Score)}
	sub.Receipt = r
	return sub
}

func verifySubmission(t *testing.T, sub *subnetv1.Submission, chain *receipt.Chain) receipt.Result {
	t.Helper()
	in, err := receipt.FromSubmission(sub, scenarioValidators())
	if err != nil {
		t.Fatal(err)
	}
	in.Chain = chain
	res, err := receipt.Verify(in)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A stored submission whose receipt the builders wrote verifies: reported
// power, 8 medians (the retry budget among them), 7 values, the score, track
// and status, the commit section (the duplicate flag, the reveal after the
// commit) and the answer's commit height, reveal height and duplicate flag;
// with the chain also its 8 params, 3 powers and total power.
func TestVerifyFromSubmission(t *testing.T) {
	sub := workflowSubmission(t)
	res := verifySubmission(t, sub, nil)
	if !res.Verified || res.Checked != 19+2+3 || len(res.Unchecked) != 0 || res.Submission == nil || *res.Submission != 0 ||
		res.Commit != (receipt.Commit{CommitHeight: 1, RevealHeight: 2}) {
		t.Fatalf("%+v", res)
	}
	g := receipt.DefaultChain()
	g.Validators = scenarioValidators()
	if res := verifySubmission(t, sub, &g); !res.Verified || res.Checked != 19+2+3+8+3+1 {
		t.Fatalf("strict: %+v", res)
	}
	g.Validators[1].Power = 11
	res = verifySubmission(t, sub, &g)
	want := []receipt.Mismatch{{Name: "params.power.val1", Receipt: "10", Recomputed: "11"},
		{Name: "total_power", Receipt: "40", Recomputed: "41"}}
	if res.Verified || !slices.Equal(res.Mismatches, want) {
		t.Fatalf("val1 at 11 on the chain: %+v, want %+v", res.Mismatches, want)
	}
	// a vote changed after the receipt: the median it moves
	sub.Votes[1].Workflow = &subnetv1.WorkflowMeasurement{OutputQuality: "0.97", StepsCompleted: 4, Cost: "0.5",
		LatencySeconds: "20", Retries: 2, DeclaredRetryBudget: 1, Timeouts: 1}
	res = verifySubmission(t, sub, nil)
	want = []receipt.Mismatch{{Name: "inputs.output_quality", Receipt: "0.950000000000000000", Recomputed: "0.970000000000000000"}}
	if !slices.Equal(res.Mismatches, want) {
		t.Fatalf("changed vote: %+v, want %+v", res.Mismatches, want)
	}
	// the retry budget is a median of the votes too: two of three votes
	// raised to 5 move it, whatever the receipt recorded
	sub = workflowSubmission(t)
	sub.Votes[0].Workflow.DeclaredRetryBudget, sub.Votes[2].Workflow.DeclaredRetryBudget = 5, 5
	res = verifySubmission(t, sub, nil)
	want = []receipt.Mismatch{{Name: "inputs.declared_retry_budget", Receipt: "1", Recomputed: "5"}}
	if !slices.Equal(res.Mismatches, want) {
		t.Fatalf("changed budget votes: %+v, want %+v", res.Mismatches, want)
	}
}

func TestVerifyBareAndTampered(t *testing.T) {
	sub := workflowSubmission(t)
	res, err := receipt.Verify(receipt.Input{Receipt: sub.Receipt, Commit: receipt.CommitFields(sub)})
	if err != nil || !res.Verified || res.Checked != 9+2 || len(res.Unchecked) != 8 || res.Submission != nil {
		t.Fatalf("bare: %+v %v", res, err)
	}
	sub.Receipt.Values[3].Value = "0.7"
	res, err = receipt.Verify(receipt.Input{Receipt: sub.Receipt, Commit: receipt.CommitFields(sub)})
	want := []receipt.Mismatch{{Name: "s_cost", Receipt: "0.7", Recomputed: "0.750000000000000000"}}
	if err != nil || res.Verified || !slices.Equal(res.Mismatches, want) {
		t.Fatalf("tampered: %+v %v", res, err)
	}
}

func TestVerifyMalformed(t *testing.T) {
	if _, err := receipt.Verify(receipt.Input{}); !errors.Is(err, receipt.ErrNoReceipt) {
		t.Fatalf("no receipt: %v", err)
	}
	sub := workflowSubmission(t)
	sub.Receipt.Inputs = append(sub.Receipt.Inputs[1:], &subnetv1.Field{Name: "foo", Value: "1"}, sub.Receipt.Inputs[2])
	_, err := receipt.Verify(receipt.Input{Receipt: sub.Receipt, Commit: receipt.CommitFields(sub)})
	var ne *receipt.NameError
	if !errors.As(err, &ne) || !errors.Is(err, receipt.ErrMalformed) || ne.Section != "inputs" ||
		!slices.Equal(ne.Duplicate, []string{"total_steps"}) || !slices.Equal(ne.Unknown, []string{"foo"}) ||
		!slices.Equal(ne.Missing, []string{"output_quality"}) {
		t.Fatalf("err %v (%#v)", err, ne)
	}
	if want := `inputs: duplicate total_steps; unknown "foo"; missing output_quality`; err.Error() != want {
		t.Fatalf("err %q, want %q", err, want)
	}
	sub = workflowSubmission(t)
	sub.Receipt.Inputs[0].Value = "high"
	_, err = receipt.Verify(receipt.Input{Receipt: sub.Receipt, Commit: receipt.CommitFields(sub)})
	var fe *receipt.FieldError
	if !errors.As(err, &fe) || fe.Field != "inputs.output_quality" || !errors.Is(err, scoring.ErrNotNumber) || !errors.Is(err, receipt.ErrMalformed) {
		t.Fatalf("err %v", err)
	}
}

// A bare gas receipt written with the builders verifies and names its
// prediction; the truth's medians stay unchecked.
func TestVerifyGasReceipt(t *testing.T) {
	truth, pred, gp, mem, hist, res := gasScenario(t)
	r := &subnetv1.Receipt{Height: 5, Track: scoring.TrackGas, Status: "scored", ReportedPower: 30,
		Inputs: append(append(receipt.GasInputs(truth, pred), receipt.GasMemory(mem)...), receipt.GasHistory(hist)...),
		Params: receipt.GasParams(gp), Values: append(receipt.GasSlot(mem[1]), receipt.GasValues(res)...),
		Score: scoring.Format(res.Score)}
	got, err := receipt.Verify(receipt.Input{Receipt: r, Commit: receipt.CommitFields(gasCommitted)})
	if err != nil || !got.Verified || got.Submission == nil || *got.Submission != 4 ||
		!slices.Equal(got.Unchecked, []string{"inputs.min_price", "inputs.evm_timestamp"}) {
		t.Fatalf("%+v %v", got, err)
	}
	// the app's answer for it: the prediction's own price must be the recorded one
	sub := &subnetv1.Submission{Id: 4, Track: scoring.TrackGas, Status: "scored", Receipt: r, Height: gasCommitted.Height,
		RevealHeight: gasCommitted.RevealHeight, Gas: &subnetv1.GasPredict{EvmChainId: 1, EvmBlock: 102, Price: "9.5"}}
	in, err := receipt.FromSubmission(sub, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err = receipt.Verify(in)
	want := []receipt.Mismatch{{Name: "submission.gas.price", Receipt: "9.000000000000000000", Recomputed: "9.500000000000000000"}}
	if err != nil || !slices.Equal(got.Mismatches, want) {
		t.Fatalf("%+v %v", got, err)
	}
}

func TestMedians(t *testing.T) {
	if n := len(receipt.Medians(scoring.TrackWorkflow)); n != 8 {
		t.Errorf("workflow medians %d", n)
	}
	if n := len(receipt.Medians(scoring.TrackArena)); n != 6 {
		t.Errorf("arena medians %d", n)
	}
	if receipt.Medians(scoring.TrackGas) != nil {
		t.Error("gas has medians")
	}
}

// gasStaleReceipt is the gas scenario's receipt with its first memory slot
// silent (not fresh) as the policy gp.StalePrediction judged it: missed, or
// carried from an earlier prediction of 10.5 (included, 0.05).
func gasStaleReceipt(t *testing.T, policy scoring.StalePolicy, slot0 scoring.GasSlot) *subnetv1.Receipt {
	t.Helper()
	truth, pred, gp, mem, _, _ := gasScenario(t)
	gp.StalePrediction = policy
	mem = append([]scoring.GasSlot{slot0}, mem[1])
	perf := scoring.MemoryPerformance(mem)
	hist := []scoring.GasHistoryPoint{{Time: truth.Timestamp, InclusionRate: perf.InclusionRate, AvgOverpayment: perf.AvgOverpayment}}
	res, err := scoring.ScoreGas(gp, hist, perf.Liveliness)
	if err != nil {
		t.Fatal(err)
	}
	return &subnetv1.Receipt{Height: 5, Track: scoring.TrackGas, Status: "scored", ReportedPower: 30,
		Inputs: append(append(receipt.GasInputs(truth, pred), receipt.GasMemory(mem)...), receipt.GasHistory(hist)...),
		Params: receipt.GasParams(gp), Values: append(receipt.GasSlot(mem[1]), receipt.GasValues(res)...),
		Score: scoring.Format(res.Score)}
}

// gasCommitted is the gas scenario's prediction: committed at 4 (block time
// …024), revealed and closed at 5.
var gasCommitted = &subnetv1.Submission{Height: 4, RevealHeight: 5}

// TestVerifyGasStalePrediction: the receipt records the stale_prediction
// policy and is verified under it. Under "miss" a silent slot must be the
// missed slot, so a silent slot recorded as included is a mismatch; under
// "carry" it comes from an earlier prediction the receipt does not carry and
// is listed as unchecked; an unknown policy is refused; and with the chain's
// params a receipt of another policy than the chain's is a mismatch.
func TestVerifyGasStalePrediction(t *testing.T) {
	carried := scoring.GasSlot{Included: true, Overpayment: scoring.Round(d("0.05")), Fresh: false}
	got, err := receipt.Verify(receipt.Input{Receipt: gasStaleReceipt(t, scoring.StaleMiss, scoring.GasMissed()), Commit: receipt.CommitFields(gasCommitted)})
	if err != nil || !got.Verified {
		t.Fatalf("miss, missed slot: %+v %v", got, err)
	}
	got, err = receipt.Verify(receipt.Input{Receipt: gasStaleReceipt(t, scoring.StaleMiss, carried), Commit: receipt.CommitFields(gasCommitted)})
	want := []receipt.Mismatch{{Name: "inputs.memory.0.included", Receipt: "true", Recomputed: "false"},
		{Name: "inputs.memory.0.overpayment", Receipt: "0.050000000000000000", Recomputed: "0.000000000000000000"}}
	if err != nil || got.Verified || !slices.Equal(got.Mismatches, want) {
		t.Fatalf("miss, carried slot: %+v %v", got, err)
	}
	got, err = receipt.Verify(receipt.Input{Receipt: gasStaleReceipt(t, scoring.StaleCarry, carried), Commit: receipt.CommitFields(gasCommitted)})
	if err != nil || !got.Verified || !slices.Contains(got.Unchecked, "inputs.memory.0.included") {
		t.Fatalf("carry: %+v %v", got, err)
	}
	bad := gasStaleReceipt(t, scoring.StaleMiss, scoring.GasMissed())
	for _, f := range bad.Params {
		if f.Name == "stale_prediction" {
			f.Value = "skip"
		}
	}
	if _, err := receipt.Verify(receipt.Input{Receipt: bad, Commit: receipt.CommitFields(gasCommitted)}); err == nil {
		t.Fatal("an unknown stale_prediction policy verified")
	}
	g := receipt.DefaultChain()
	g.Gas.MemorySize = 2
	got, err = receipt.Verify(receipt.Input{Receipt: gasStaleReceipt(t, scoring.StaleCarry, carried), Commit: receipt.CommitFields(gasCommitted), Chain: &g})
	want = []receipt.Mismatch{{Name: "params.stale_prediction", Receipt: "carry", Recomputed: "miss"}}
	if err != nil || got.Verified || !slices.Equal(got.Mismatches, want) {
		t.Fatalf("carry against a miss chain: %+v %v", got, err)
	}
}
