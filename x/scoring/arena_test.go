package scoring

import (
	"errors"
	"testing"

	"github.com/shopspring/decimal"
)

func decOf(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// testBaseline: tokens 1000..11000, tool calls 2..12, time 60..1800 s, cost 0.01..0.20, median
// iterations 3 — round spans so the linear scores are easy to derive by hand.
func testBaseline() ArenaBaseline {
	return ArenaBaseline{
		SubmissionCount: 10,
		MinTokens:       decOf("1000"), Q25Tokens: decOf("3000"), MedianTokens: decOf("5000"), Q75Tokens: decOf("8000"), MaxTokens: decOf("11000"),
		MinToolCalls: decOf("2"), MedianToolCalls: decOf("6"), MaxToolCalls: decOf("12"),
		MedianIterations: decOf("3"),
		MinExecutionTime: decOf("60"), MedianExecutionTime: decOf("300"), MaxExecutionTime: decOf("1800"),
		MinCost: decOf("0.01"), MedianCost: decOf("0.05"), MaxCost: decOf("0.20"),
	}
}

// testSubmission scores token 50, tool calls 50, iterations 85 (efficiency 57), speed
// 0.5^0.7·100, cost 50, correctness 75.
func testSubmission() ArenaSubmission {
	return ArenaSubmission{TotalTokens: 6000, ToolCalls: 7, Iterations: 2, ExecutionTime: decOf("930"),
		EstimatedCost: decOf("0.105"), CriteriaPassed: 3, CriteriaTotal: 4}
}

func TestScoreArenaHandDerived(t *testing.T) {
	// speed: ratio (1800−930)/1740 = 0.5; 0.5^0.7 = 0.615572206672458142 → 61.5572206672458142.
	// unadjusted: 57·0.35 + 61.5572206672458142·0.25 + 50·0.20 + 75·0.20
	//           = 19.95 + 15.38930516681145355 + 10 + 15 = 60.33930516681145355.
	tests := []struct {
		category, difficulty string
		overall, unadjusted  string
	}{
		{"", "", "60.34", "60.33930516681145355"},
		{"", "beginner", "60.34", "60.33930516681145355"},
		{"", "no-such-difficulty", "60.34", "60.33930516681145355"},
		// × 1.1 = 66.373235683492599 (exact, 15 places) → 66.37
		{"", "intermediate", "66.37", "60.33930516681145355"},
		// × 1.2 = 72.40716620017374426 → 72.41
		{"", "advanced", "72.41", "60.33930516681145355"},
		// refactoring .45/.20/.20/.15: 25.65 + 12.31144413344916284 + 10 + 11.25 = 59.21144413344916284
		{"refactoring", "", "59.21", "59.21144413344916284"},
		// frontend .30/.25/.15/.30: 17.1 + 15.38930516681145355 + 7.5 + 22.5 = 62.48930516681145355
		{"frontend_development", "", "62.49", "62.48930516681145355"},
	}
	for _, tc := range tests {
		r, err := ScoreArena(DefaultArenaParams(), testSubmission(), testBaseline(), tc.category, tc.difficulty)
		mustNoErr(t, err)
		sameDec(t, tc.category+"/"+tc.difficulty+" overall", r.Overall, tc.overall)
		sameDec(t, "unadjusted", r.Unadjusted, tc.unadjusted)
		sameDec(t, "token", r.TokenScore, "50")
		sameDec(t, "tool calls", r.ToolCallScore, "50")
		sameDec(t, "iterations", r.IterationScore, "85")
		sameDec(t, "efficiency", r.Efficiency, "57")
		sameDec(t, "speed", r.Speed, "61.56")
		sameDec(t, "speed exact", r.SpeedExact, "61.5572206672458142")
		sameDec(t, "cost", r.Cost, "50")
		sameDec(t, "correctness", r.Correctness, "75")
	}
}

func TestArenaDifficultyCapsAt100(t *testing.T) {
	perfect := ArenaSubmission{TotalTokens: 10, ToolCalls: 0, Iterations: 1, ExecutionTime: decOf("1"),
		EstimatedCost: decOf("0.001"), CriteriaPassed: 4, CriteriaTotal: 4}
	r, err := ScoreArena(DefaultArenaParams(), perfect, testBaseline(), "", "advanced")
	mustNoErr(t, err)
	sameDec(t, "unadjusted", r.Unadjusted, "100")
	sameDec(t, "overall (100 × 1.2 capped)", r.Overall, "100")
	sameDec(t, "multiplier", r.Multiplier, "1.2")
}

func TestArenaReportRoundsHalfAwayFromZero(t *testing.T) {
	// Ties at the second place go up: Python's round() on floats would give 41.17 for the float
	// nearest 41.175 (41.17499999…). Correctness 1/8 = 12.5 exactly.
	s := testSubmission()
	s.TotalTokens = 9765 // (11000 − 9765)·100/10000 = 12.35 exactly
	s.CriteriaPassed, s.CriteriaTotal = 1, 8
	r, err := ScoreArena(DefaultArenaParams(), s, testBaseline(), "", "")
	mustNoErr(t, err)
	sameDec(t, "correctness", r.Correctness, "12.5")
	sameDec(t, "token", r.TokenScore, "12.35")
	// iterations 1: 100; tools 50: efficiency 12.35·0.5 + 15 + 20 = 41.175 → 41.18 (half up).
	s.Iterations = 1
	r, err = ScoreArena(DefaultArenaParams(), s, testBaseline(), "", "")
	mustNoErr(t, err)
	sameDec(t, "efficiency exact", r.EfficiencyExact, "41.175")
	sameDec(t, "efficiency", r.Efficiency, "41.18")
}

func TestArenaLinearBoundaries(t *testing.T) {
	lo, hi := decOf("1000"), decOf("11000")
	tests := []struct{ v, want string }{
		{"0", "100"}, {"999", "100"}, {"1000", "100"}, {"1001", "99.99"},
		{"6000", "50"}, {"10999", "0.01"}, {"11000", "0"}, {"11001", "0"},
		{"4333", "66.67"}, // 6667/100 exactly
		{"1003", "99.97"},
	}
	for _, tc := range tests {
		sameDec(t, "linear("+tc.v+")", linearScore(decOf(tc.v), lo, hi), tc.want)
	}
	// (4 − 2)·100/3: thirds round at the 18th place, half away from zero.
	sameDec(t, "thirds", linearScore(decOf("2"), decOf("1"), decOf("4")), "66.666666666666666667")
}

func TestArenaMinEqualsMaxNeverDivides(t *testing.T) {
	// With min == max every value is ≤ min or ≥ max: 100 at or below, 0 above, no division by 0.
	for _, v := range []string{"0", "4999", "5000", "5001"} {
		got := linearScore(decOf(v), decOf("5000"), decOf("5000"))
		want := "100"
		if decOf(v).Cmp(decOf("5000")) > 0 {
			want = "0"
		}
		sameDec(t, "min==max "+v, got, want)
	}
	b := testBaseline()
	b.MinExecutionTime, b.MedianExecutionTime, b.MaxExecutionTime = decOf("100"), decOf("100"), decOf("100")
	p := DefaultArenaParams()
	for v, want := range map[string]string{"99": "100", "100": "100", "101": "0", "0": "50"} {
		got, err := p.speedScore(decOf(v), b)
		mustNoErr(t, err)
		sameDec(t, "speed min==max "+v, got, want)
	}
}

func TestArenaIterationRule(t *testing.T) {
	p := DefaultArenaParams()
	tests := []struct {
		n      int64
		median string
		want   string
	}{
		{1, "3", "100"},   // iterations == 1 first, whatever the median
		{1, "1", "100"},   // median 1: 1 is also ≤ median, but == 1 comes first
		{2, "3", "85"},    // 100 − 15
		{3, "3", "70"},    // 100 − 30, at the median
		{4, "3", "40"},    // above: 50 − 10
		{8, "3", "0"},     // 50 − 50
		{9, "3", "0"},     // floored at 0
		{4, "6", "55"},    // 100 − 45
		{5, "6", "50"},    // 100 − 60 = 40, floored at 50
		{6, "6", "50"},    // at the median: floor 50
		{7, "6", "40"},    // above the median: 50 − 10
		{2, "1", "40"},    // median 1: 2 is above, 50 − 10
		{3, "2.5", "45"},  // fractional median: 50 − 0.5·10
		{2, "2.5", "85"},  // ≤ 2.5
		{100, "3", "0"},   // far above
		{2, "1.5", "45"},  // 50 − 0.5·10
		{14, "8", "0"},    // 50 − 60 → 0
		{11, "8", "20"},   // 50 − 30
		{8, "8", "50"},    // 100 − 105 → floor 50
		{10, "100", "50"}, // 100 − 135 → floor 50
	}
	for _, tc := range tests {
		sameDec(t, "iterations", p.iterationScore(tc.n, decOf(tc.median)), tc.want)
	}
}

func TestArenaSpeedAndCostBranches(t *testing.T) {
	p := DefaultArenaParams()
	b := testBaseline()
	speed := []struct{ t, want string }{
		{"0", "50"},                     // missing
		{"0.001", "100"},                // below min
		{"60", "100"},                   // at min
		{"1800", "0"},                   // at max
		{"1800.5", "0"},                 // above max
		{"1452", "32.4131319338552487"}, // ratio 348/1740 = 0.2; 0.2^0.7 = 0.324131319338552487
	}
	for _, tc := range speed {
		got, err := p.speedScore(decOf(tc.t), b)
		mustNoErr(t, err)
		sameDec(t, "speed("+tc.t+")", got, tc.want)
	}
	cost := []struct{ c, want string }{
		{"0", "50"}, {"0.001", "100"}, {"0.01", "100"}, {"0.2", "0"}, {"3", "0"},
		{"0.1", "52.631578947368421053"}, // 0.1·100/0.19 = 52.6315789473684210526…
	}
	for _, tc := range cost {
		sameDec(t, "cost("+tc.c+")", p.costScore(decOf(tc.c), b), tc.want)
	}
	sameDec(t, "no criteria", correctnessScore(0, 0), "100")
	sameDec(t, "0 of 3", correctnessScore(0, 3), "0")
	sameDec(t, "2 of 3", correctnessScore(2, 3), "66.666666666666666667")
	sameDec(t, "3 of 3", correctnessScore(3, 3), "100")
}

func TestArenaRejectsImpossibleInputs(t *testing.T) {
	p := DefaultArenaParams()
	mod := func(f func(*ArenaSubmission)) ArenaSubmission { s := testSubmission(); f(&s); return s }
	subs := map[string]ArenaSubmission{
		"total_tokens":    mod(func(s *ArenaSubmission) { s.TotalTokens = -1 }),
		"tool_calls":      mod(func(s *ArenaSubmission) { s.ToolCalls = -1 }),
		"iterations":      mod(func(s *ArenaSubmission) { s.Iterations = 0 }),
		"execution_time":  mod(func(s *ArenaSubmission) { s.ExecutionTime = decOf("-0.001") }),
		"estimated_cost":  mod(func(s *ArenaSubmission) { s.EstimatedCost = decOf("-1") }),
		"criteria_passed": mod(func(s *ArenaSubmission) { s.CriteriaPassed, s.CriteriaTotal = 5, 4 }),
		"criteria_total":  mod(func(s *ArenaSubmission) { s.CriteriaPassed, s.CriteriaTotal = -2, -1 }),
	}
	for field, s := range subs {
		_, err := ScoreArena(p, s, testBaseline(), "", "")
		var ie *InputError
		if !errors.As(err, &ie) {
			t.Errorf("%s: err = %v, want *InputError", field, err)
			continue
		}
		if ie.Field != field && !(field == "criteria_total" && ie.Field == "criteria_passed") {
			t.Errorf("%s: error names field %q", field, ie.Field)
		}
	}
	_, err := ScoreArena(p, testSubmission(), testBaseline(), "no_such_category", "")
	var ie *InputError
	if !errors.As(err, &ie) || ie.Field != "category" {
		t.Errorf("unknown category: err = %v", err)
	}
	modB := func(f func(*ArenaBaseline)) ArenaBaseline { b := testBaseline(); f(&b); return b }
	badBaselines := map[string]ArenaBaseline{
		"baseline.min_tokens":        modB(func(b *ArenaBaseline) { b.MinTokens = decOf("-1") }),
		"baseline.median_tokens":     modB(func(b *ArenaBaseline) { b.MinTokens = decOf("6000") }),
		"baseline.max_cost":          modB(func(b *ArenaBaseline) { b.MaxCost = decOf("0.04") }),
		"baseline.median_iterations": modB(func(b *ArenaBaseline) { b.MedianIterations = decOf("0.5") }),
		"baseline.submission_count":  modB(func(b *ArenaBaseline) { b.SubmissionCount = -1 }),
	}
	for field, b := range badBaselines {
		_, err := ScoreArena(p, testSubmission(), b, "", "")
		if !errors.As(err, &ie) || ie.Field != field {
			t.Errorf("%s: err = %v", field, err)
		}
	}
}

func TestArenaParamsValidate(t *testing.T) {
	mustNoErr(t, DefaultArenaParams().Validate())
	mod := func(f func(*ArenaParams)) ArenaParams { p := DefaultArenaParams(); f(&p); return p }
	bad := map[string]ArenaParams{
		"arena.default":                    mod(func(p *ArenaParams) { p.Default.Speed = decOf("0.26") }),
		"arena.default.cost":               mod(func(p *ArenaParams) { p.Default.Cost = decOf("-0.1") }),
		"arena.categories[1]":              mod(func(p *ArenaParams) { p.Categories[1].Weights.Correctness = decOf("0.2") }),
		"arena.categories[2].name":         mod(func(p *ArenaParams) { p.Categories[2].Name = p.Categories[0].Name }),
		"arena.categories[0].name":         mod(func(p *ArenaParams) { p.Categories[0].Name = "" }),
		"arena.difficulties[1].multiplier": mod(func(p *ArenaParams) { p.Difficulties[1].Multiplier = Zero }),
		"arena.difficulties[2].name":       mod(func(p *ArenaParams) { p.Difficulties[2].Name = "beginner" }),
		"arena.efficiency_blend":           mod(func(p *ArenaParams) { p.IterationWeight = decOf("0.3") }),
		"arena.token_weight":               mod(func(p *ArenaParams) { p.TokenWeight = decOf("1.5") }),
		"arena.speed_exponent":             mod(func(p *ArenaParams) { p.SpeedExponent = Zero }),
		"arena.missing_score":              mod(func(p *ArenaParams) { p.MissingScore = decOf("101") }),
		"arena.iteration_over_step":        mod(func(p *ArenaParams) { p.IterationOverStep = decOf("-1") }),
	}
	for field, p := range bad {
		var ie *InputError
		if err := p.Validate(); !errors.As(err, &ie) || ie.Field != field {
			t.Errorf("%s: err = %v", field, err)
		}
		if _, err := ScoreArena(p, testSubmission(), testBaseline(), "", ""); !errors.Is(err, ErrInvalidInput) {
			t.Errorf("%s: ScoreArena accepted invalid params: %v", field, err)
		}
	}
}

// arenaCases yields a spread of valid submissions over the test baseline, for the properties.
func arenaCases(n int) []ArenaSubmission {
	rng := newTestRNG(42)
	out := make([]ArenaSubmission, n)
	for i := range out {
		total := int64(rng.intn(8))
		out[i] = ArenaSubmission{
			TotalTokens:    rng.int63n(14000),
			ToolCalls:      rng.int63n(15),
			Iterations:     1 + rng.int63n(12),
			ExecutionTime:  decimal.New(rng.int63n(2_000_000), -3),
			EstimatedCost:  decimal.New(rng.int63n(250_000), -6),
			CriteriaTotal:  total,
			CriteriaPassed: int64(rng.intn(int(total) + 1)),
		}
	}
	return out
}

func TestArenaPropertyOverallInRange(t *testing.T) {
	p := DefaultArenaParams()
	cats := []string{"", "frontend_development", "backend_development", "data_analysis", "debugging", "refactoring"}
	diffs := []string{"", "beginner", "intermediate", "advanced"}
	for i, s := range arenaCases(3000) {
		r, err := ScoreArena(p, s, testBaseline(), cats[i%len(cats)], diffs[i%len(diffs)])
		mustNoErr(t, err)
		for _, v := range []decimal.Decimal{r.Overall, r.Efficiency, r.Speed, r.Cost, r.Correctness, r.Unadjusted, r.Adjusted} {
			if v.Sign() < 0 || v.Cmp(Hundred) > 0 {
				t.Fatalf("%+v: a score is outside [0, 100]: %+v", s, r)
			}
		}
		if msgs := ValidateEvaluation(r, s.TotalTokens); len(msgs) > 0 && s.TotalTokens >= 10 {
			for _, m := range msgs {
				if m != "Suspicious: Both efficiency and speed scores are extremely high" {
					t.Fatalf("%+v: unexpected validation message %q", s, m)
				}
			}
		}
	}
}

// More time or more cost (both positive: 0 means missing) never raises any score.
func TestArenaPropertyMoreCostOrTimeNeverHelps(t *testing.T) {
	p := DefaultArenaParams()
	steps := []string{"0.000001", "0.01", "0.5", "7", "100", "1000"}
	for _, s := range arenaCases(600) {
		if s.ExecutionTime.IsZero() || s.EstimatedCost.IsZero() {
			continue
		}
		base, err := ScoreArena(p, s, testBaseline(), "", "advanced")
		mustNoErr(t, err)
		for _, step := range steps {
			slower, costlier := s, s
			slower.ExecutionTime = s.ExecutionTime.Add(decOf(step))
			costlier.EstimatedCost = s.EstimatedCost.Add(decOf(step).Mul(decOf("0.001")))
			for _, next := range []ArenaSubmission{slower, costlier} {
				r, err := ScoreArena(p, next, testBaseline(), "", "advanced")
				mustNoErr(t, err)
				if r.Adjusted.Cmp(base.Adjusted) > 0 || r.SpeedExact.Cmp(base.SpeedExact) > 0 || r.CostExact.Cmp(base.CostExact) > 0 {
					t.Fatalf("%+v → %+v raised the score: %s → %s", s, next, base.Adjusted, r.Adjusted)
				}
			}
		}
	}
}
