package scoring

import (
	"encoding/json"
	"errors"
	"math/rand"
	"os"
	"strconv"
	"testing"

	"github.com/shopspring/decimal"
)

// wfBase is the seed's running example: quality 1, 3 of 4 steps, half the budget
// and half the latency limit used, no retries.
func wfBase() WorkflowInput {
	return WorkflowInput{
		OutputQuality: One, StepsCompleted: 3, TotalSteps: 4,
		Cost: num("0.5"), MaxBudget: One, LatencySeconds: num("10"), MaxLatencySeconds: num("20"),
	}
}

// Values derived by hand from S = .50 S_success + .25 S_cost + .15 S_latency + .10 S_reliability.
func TestScoreWorkflowTable(t *testing.T) {
	tests := []struct {
		name                                  string
		edit                                  func(*WorkflowInput)
		score, success, cost, latency, reliab string
		gated                                 bool
		unplanned                             int64
	}{
		{"seed example 3 of 4: .375+.125+.075+.1", func(in *WorkflowInput) {},
			"0.675", "0.75", "0.5", "0.5", "1", false, 0},
		{"perfect run, ratio exactly 1", func(in *WorkflowInput) {
			in.StepsCompleted, in.Cost, in.LatencySeconds = 4, Zero, Zero
		}, "1", "1", "1", "1", "1", false, 0},
		{"gate exactly 0.7 is not > 0.7: cost, latency 0", func(in *WorkflowInput) {
			in.OutputQuality, in.StepsCompleted = num("0.7"), 4
		}, "0.45", "0.7", "0", "0", "1", true, 0},
		{"gate exactly 0.7 from 0.875 × 4/5", func(in *WorkflowInput) {
			in.OutputQuality, in.StepsCompleted, in.TotalSteps = num("0.875"), 4, 5
		}, "0.45", "0.7", "0", "0", "1", true, 0},
		{"one ulp above the gate: .3500000000000000005 rounds away", func(in *WorkflowInput) {
			in.OutputQuality, in.StepsCompleted, in.TotalSteps = num("0.700000000000000001"), 1, 1
		}, "0.650000000000000001", "0.700000000000000001", "0.5", "0.5", "1", false, 0},
		{"one third done: .1666666666666666665+.1 rounds up", func(in *WorkflowInput) {
			in.StepsCompleted, in.TotalSteps = 1, 3
		}, "0.266666666666666667", "0.333333333333333333", "0", "0", "1", true, 0},
		{"declared retries are free", func(in *WorkflowInput) {
			in.OutputQuality, in.StepsCompleted, in.Retries, in.DeclaredRetryBudget = num("0.95"), 4, 2, 2
		}, "0.775", "0.95", "0.5", "0.5", "1", false, 0},
		{"3 unplanned retries cost .3 reliability", func(in *WorkflowInput) {
			in.OutputQuality, in.StepsCompleted, in.Retries, in.DeclaredRetryBudget = num("0.95"), 4, 5, 2
		}, "0.745", "0.95", "0.5", "0.5", "0.7", false, 3},
		{"reliability floors at 0", func(in *WorkflowInput) {
			in.OutputQuality, in.StepsCompleted, in.Timeouts, in.HardFailures = num("0.95"), 4, 3, 1
		}, "0.675", "0.95", "0.5", "0.5", "0", false, 0},
		{"over budget and over time floor at 0", func(in *WorkflowInput) {
			in.StepsCompleted, in.Cost, in.LatencySeconds = 4, num("3"), num("40")
			in.MaxBudget = num("2")
		}, "0.6", "1", "0", "0", "1", false, 0},
		{"cost equal to budget is 0: .5+0+.075+.1", func(in *WorkflowInput) {
			in.StepsCompleted, in.Cost, in.MaxBudget = 4, num("2"), num("2")
		}, "0.675", "1", "0", "0.5", "1", false, 0},
		{"nothing done, everything failing", func(in *WorkflowInput) {
			in.OutputQuality, in.StepsCompleted, in.TotalSteps = Zero, 0, 5
			in.Retries, in.Timeouts, in.HardFailures = 9, 9, 9
		}, "0", "0", "0", "0", "0", true, 9},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := wfBase()
			tc.edit(&in)
			r, err := ScoreWorkflow(DefaultWorkflowParams(), in)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				what string
				got  decimal.Decimal
				want string
			}{
				{"score", r.Score, tc.score}, {"success", r.Success, tc.success}, {"cost", r.Cost, tc.cost},
				{"latency", r.Latency, tc.latency}, {"reliability", r.Reliability, tc.reliab},
			} {
				if !c.got.Equal(num(c.want)) {
					t.Errorf("%s = %s, want %s", c.what, Format(c.got), c.want)
				}
			}
			if r.Gated != tc.gated || r.UnplannedRetries != tc.unplanned {
				t.Errorf("gated %v unplanned %d, want %v %d", r.Gated, r.UnplannedRetries, tc.gated, tc.unplanned)
			}
		})
	}
}

func TestScoreWorkflowInputErrors(t *testing.T) {
	tests := []struct {
		field string
		edit  func(*WorkflowInput)
	}{
		{"output_quality", func(in *WorkflowInput) { in.OutputQuality = num("-0.1") }},
		{"output_quality", func(in *WorkflowInput) { in.OutputQuality = num("1.000000000000000001") }},
		{"output_quality", func(in *WorkflowInput) { in.OutputQuality = num("0.5000000000000000001") }},
		{"total_steps", func(in *WorkflowInput) { in.TotalSteps, in.StepsCompleted = 0, 0 }},
		{"total_steps", func(in *WorkflowInput) { in.TotalSteps = -1 }},
		{"steps_completed", func(in *WorkflowInput) { in.StepsCompleted = 5 }},
		{"steps_completed", func(in *WorkflowInput) { in.StepsCompleted = -1 }},
		{"cost", func(in *WorkflowInput) { in.Cost = num("-0.000000000000000001") }},
		{"max_budget", func(in *WorkflowInput) { in.MaxBudget = Zero }},
		{"max_budget", func(in *WorkflowInput) { in.MaxBudget = num("-1") }},
		{"latency_seconds", func(in *WorkflowInput) { in.LatencySeconds = num("-1") }},
		{"max_latency_seconds", func(in *WorkflowInput) { in.MaxLatencySeconds = Zero }},
		{"retries", func(in *WorkflowInput) { in.Retries = -1 }},
		{"declared_retry_budget", func(in *WorkflowInput) { in.DeclaredRetryBudget = -1 }},
		{"timeouts", func(in *WorkflowInput) { in.Timeouts = -1 }},
		{"hard_failures", func(in *WorkflowInput) { in.HardFailures = -1 }},
	}
	for i, tc := range tests {
		in := wfBase()
		tc.edit(&in)
		_, err := ScoreWorkflow(DefaultWorkflowParams(), in)
		var ie *InputError
		if !errors.As(err, &ie) || !errors.Is(err, ErrInvalidInput) {
			t.Errorf("case %d (%s): err = %v, want an InputError", i, tc.field, err)
			continue
		}
		if ie.Field != tc.field || ie.Value == "" {
			t.Errorf("case %d: error names %q = %q, want field %q", i, ie.Field, ie.Value, tc.field)
		}
	}
}

func TestWorkflowParamsValidate(t *testing.T) {
	if err := DefaultWorkflowParams().Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	bad := []struct {
		name string
		edit func(*WorkflowParams)
	}{
		{"weights sum to .99", func(p *WorkflowParams) { p.WReliability = num("0.09") }},
		{"negative weight", func(p *WorkflowParams) { p.WCost, p.WSuccess = num("-0.25"), One }},
		{"gate above 1", func(p *WorkflowParams) { p.Gate = num("1.1") }},
		{"negative penalty", func(p *WorkflowParams) { p.FailurePenalty = num("-0.5") }},
		{"19 places", func(p *WorkflowParams) { p.Gate = num("0.7000000000000000001") }},
	}
	for _, tc := range bad {
		p := DefaultWorkflowParams()
		tc.edit(&p)
		if err := p.Validate(); !errors.Is(err, ErrInvalidInput) {
			t.Errorf("%s: Validate() = %v, want an InputError", tc.name, err)
		}
	}
}

// randomWorkflow draws valid inputs, often at the boundaries.
func randomWorkflow(rng *rand.Rand) WorkflowInput {
	amount := func(scale int64) decimal.Decimal {
		if rng.Intn(4) == 0 {
			return decimal.New(rng.Int63n(scale*10+1), -1)
		}
		return decimal.New(rng.Int63n(scale*1_000_000_000), -9)
	}
	total := 1 + rng.Int63n(20)
	return WorkflowInput{
		OutputQuality:  decimal.New(rng.Int63n(1_000_000_000_000_000_001), -18),
		StepsCompleted: rng.Int63n(total + 1), TotalSteps: total,
		Cost: amount(10), MaxBudget: amount(10).Add(num("0.000000001")),
		LatencySeconds: amount(100), MaxLatencySeconds: amount(100).Add(num("0.000000001")),
		Retries: rng.Int63n(6), DeclaredRetryBudget: rng.Int63n(6), Timeouts: rng.Int63n(3), HardFailures: rng.Int63n(3),
	}
}

// Properties: every score and sub-score in [0, 1]; more cost, more latency or
// more retries never raise the score.
func TestScoreWorkflowProperties(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	p := DefaultWorkflowParams()
	for i := 0; i < 3000; i++ {
		in := randomWorkflow(rng)
		r, err := ScoreWorkflow(p, in)
		if err != nil {
			t.Fatalf("%+v: %v", in, err)
		}
		for _, v := range []decimal.Decimal{r.Score, r.Success, r.Cost, r.Latency, r.Reliability, r.CompletionRatio} {
			if v.Sign() < 0 || v.Cmp(One) > 0 || !v.Equal(Round(v)) {
				t.Fatalf("%+v: value %s outside [0,1] or beyond 18 places", in, v)
			}
		}
		worse := []func(*WorkflowInput){
			func(w *WorkflowInput) { w.Cost = w.Cost.Add(decimal.New(1+rng.Int63n(1000), -3)) },
			func(w *WorkflowInput) { w.LatencySeconds = w.LatencySeconds.Add(decimal.New(1+rng.Int63n(1000), -2)) },
			func(w *WorkflowInput) { w.Retries++ },
			func(w *WorkflowInput) { w.Timeouts++ },
			func(w *WorkflowInput) { w.HardFailures++ },
		}
		for k, f := range worse {
			w := in
			f(&w)
			r2, err := ScoreWorkflow(p, w)
			if err != nil {
				t.Fatal(err)
			}
			if r2.Score.Cmp(r.Score) > 0 {
				t.Fatalf("worsening %d raised the score %s → %s for %+v", k, r.Score, r2.Score, in)
			}
		}
	}
}

type goldenWorkflowCase struct {
	Name string         `json:"name"`
	In   map[string]any `json:"in"`
	Out  map[string]any `json:"out"`
}

func TestGoldenWorkflow(t *testing.T) {
	bz, err := os.ReadFile("testdata/golden_workflow.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []goldenWorkflowCase `json:"cases"`
	}
	if err := json.Unmarshal(bz, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) < 300 {
		t.Fatalf("only %d golden workflow cases", len(file.Cases))
	}
	for _, c := range file.Cases {
		in := WorkflowInput{
			OutputQuality:  num(c.In["output_quality"].(string)),
			StepsCompleted: int64(c.In["steps_completed"].(float64)), TotalSteps: int64(c.In["total_steps"].(float64)),
			Cost: num(c.In["cost"].(string)), MaxBudget: num(c.In["max_budget"].(string)),
			LatencySeconds: num(c.In["latency_seconds"].(string)), MaxLatencySeconds: num(c.In["max_latency_seconds"].(string)),
			Retries: int64(c.In["retries"].(float64)), DeclaredRetryBudget: int64(c.In["declared_retry_budget"].(float64)),
			Timeouts: int64(c.In["timeouts"].(float64)), HardFailures: int64(c.In["hard_failures"].(float64)),
		}
		r, err := ScoreWorkflow(DefaultWorkflowParams(), in)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		got := map[string]string{
			"score": Format(r.Score), "success": Format(r.Success), "cost": Format(r.Cost),
			"latency": Format(r.Latency), "reliability": Format(r.Reliability),
			"completion_ratio":  Format(r.CompletionRatio),
			"unplanned_retries": strconv.FormatInt(r.UnplannedRetries, 10), "gated": strconv.FormatBool(r.Gated),
		}
		for k, g := range got {
			var want string
			switch v := c.Out[k].(type) {
			case string:
				want = v
			case float64:
				want = strconv.FormatInt(int64(v), 10)
			case bool:
				want = strconv.FormatBool(v)
			}
			if g != want {
				t.Errorf("%s: %s = %s, want %s", c.Name, k, g, want)
			}
		}
	}
}
