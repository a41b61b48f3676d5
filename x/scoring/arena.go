package scoring

import (
	"strconv"

	"github.com/shopspring/decimal"
)

// ArenaSubmission holds the measured values of one arena run. ExecutionTime and EstimatedCost
// of 0 mean "missing" (they score MissingScore), not "instant" or "free".
type ArenaSubmission struct {
	TotalTokens, ToolCalls, Iterations int64
	ExecutionTime, EstimatedCost       decimal.Decimal
	CriteriaPassed, CriteriaTotal      int64
}

// Validate rejects impossible submissions: negative counts, times or costs, iterations < 1,
// and criteria_passed > criteria_total.
func (s ArenaSubmission) Validate() error {
	counts := []int64{s.TotalTokens, s.ToolCalls, s.CriteriaPassed, s.CriteriaTotal}
	for i, n := range []string{"total_tokens", "tool_calls", "criteria_passed", "criteria_total"} {
		if counts[i] < 0 {
			return inputErr(n, strconv.FormatInt(counts[i], 10), "must not be negative")
		}
	}
	if s.Iterations < 1 {
		return inputErr("iterations", strconv.FormatInt(s.Iterations, 10), "must be at least 1")
	}
	if s.ExecutionTime.Sign() < 0 {
		return inputErr("execution_time", s.ExecutionTime.String(), "must not be negative")
	}
	if s.EstimatedCost.Sign() < 0 {
		return inputErr("estimated_cost", s.EstimatedCost.String(), "must not be negative")
	}
	if s.CriteriaPassed > s.CriteriaTotal {
		return inputErr("criteria_passed", strconv.FormatInt(s.CriteriaPassed, 10),
			"must not exceed criteria_total "+strconv.FormatInt(s.CriteriaTotal, 10))
	}
	return nil
}

// ArenaResult is an arena score with its parts. Overall, Efficiency, Speed, Cost and
// Correctness are the seed's reported values, rounded to 2 places half away from zero; the
// other fields keep Places for receipts.
type ArenaResult struct {
	// The seed's five reported scores, 2 places.
	Overall, Efficiency, Speed, Cost, Correctness decimal.Decimal
	// The three efficiency parts, 18 places.
	TokenScore, ToolCallScore, IterationScore decimal.Decimal
	// Unadjusted is the weighted sum before difficulty, 18 places.
	Unadjusted decimal.Decimal
	Weights    ArenaWeights
	Multiplier decimal.Decimal
	// The 18-place components behind Efficiency, Speed and Cost, and Adjusted =
	// min(100, Unadjusted × Multiplier) behind Overall.
	EfficiencyExact, SpeedExact, CostExact, Adjusted decimal.Decimal
}

// reportPlaces is the seed's round(x, 2), here half away from zero.
const reportPlaces int32 = 2

// ScoreArena scores one submission against a task baseline (calculate_overall_score followed
// by apply_difficulty_adjustment). An empty category uses the default weights; an unknown
// category is an InputError; an unknown difficulty multiplies by 1.
func ScoreArena(p ArenaParams, s ArenaSubmission, b ArenaBaseline, category, difficulty string) (ArenaResult, error) {
	if err := p.Validate(); err != nil {
		return ArenaResult{}, err
	}
	if err := s.Validate(); err != nil {
		return ArenaResult{}, err
	}
	if err := b.Validate(); err != nil {
		return ArenaResult{}, err
	}
	w, err := p.WeightsFor(category)
	if err != nil {
		return ArenaResult{}, err
	}
	var r ArenaResult
	r.Weights, r.Multiplier = w, p.MultiplierFor(difficulty)
	r.TokenScore = linearScore(decimal.NewFromInt(s.TotalTokens), b.MinTokens, b.MaxTokens)
	r.ToolCallScore = linearScore(decimal.NewFromInt(s.ToolCalls), b.MinToolCalls, b.MaxToolCalls)
	r.IterationScore = p.iterationScore(s.Iterations, b.MedianIterations)
	r.EfficiencyExact = Round(p.TokenWeight.Mul(r.TokenScore).
		Add(p.ToolCallWeight.Mul(r.ToolCallScore)).
		Add(p.IterationWeight.Mul(r.IterationScore)))
	if r.SpeedExact, err = p.speedScore(s.ExecutionTime, b); err != nil {
		return ArenaResult{}, err
	}
	r.CostExact = p.costScore(s.EstimatedCost, b)
	correctness := correctnessScore(s.CriteriaPassed, s.CriteriaTotal)
	r.Unadjusted = Round(w.Efficiency.Mul(r.EfficiencyExact).
		Add(w.Speed.Mul(r.SpeedExact)).
		Add(w.Cost.Mul(r.CostExact)).
		Add(w.Correctness.Mul(correctness)))
	r.Adjusted = decimal.Min(Hundred, Round(r.Unadjusted.Mul(r.Multiplier)))
	r.Overall = r.Adjusted.Round(reportPlaces)
	r.Efficiency = r.EfficiencyExact.Round(reportPlaces)
	r.Speed = r.SpeedExact.Round(reportPlaces)
	r.Cost = r.CostExact.Round(reportPlaces)
	r.Correctness = correctness.Round(reportPlaces)
	return r, nil
}

// linearScore is 100 at or below lo, 0 at or above hi, else (hi − v)·100/(hi − lo) rounded to
// Places. The division is reached only when lo < v < hi, so hi − lo > 0.
func linearScore(v, lo, hi decimal.Decimal) decimal.Decimal {
	if v.Cmp(lo) <= 0 {
		return Hundred
	}
	if v.Cmp(hi) >= 0 {
		return Zero
	}
	return Quo(hi.Sub(v).Mul(Hundred), hi.Sub(lo))
}

// iterationScore: 100 for one iteration; up to the median max(50, 100 − (n−1)·15); above it
// max(0, 50 − (n − median)·10). Exact: no rounding point.
func (p ArenaParams) iterationScore(n int64, median decimal.Decimal) decimal.Decimal {
	it := decimal.NewFromInt(n)
	if n == 1 {
		return Hundred
	}
	if it.Cmp(median) <= 0 {
		return decimal.Max(p.IterationFloor, Hundred.Sub(it.Sub(One).Mul(p.IterationStep)))
	}
	return decimal.Max(Zero, p.IterationFloor.Sub(it.Sub(median).Mul(p.IterationOverStep)))
}

// speedScore: MissingScore for 0; 100 at or below the minimum; 0 at or above the maximum;
// else ratio^0.7 × 100 with ratio = (max − t)/(max − min) rounded to Places and the power
// rounded to Places (two rounding points; the × 100 is exact).
func (p ArenaParams) speedScore(t decimal.Decimal, b ArenaBaseline) (decimal.Decimal, error) {
	if t.IsZero() {
		return p.MissingScore, nil
	}
	if t.Cmp(b.MinExecutionTime) <= 0 {
		return Hundred, nil
	}
	if t.Cmp(b.MaxExecutionTime) >= 0 {
		return Zero, nil
	}
	ratio := Quo(b.MaxExecutionTime.Sub(t), b.MaxExecutionTime.Sub(b.MinExecutionTime))
	if ratio.IsZero() {
		return Zero, nil // below half an ulp: 0^0.7 = 0
	}
	pw, err := Pow(ratio, p.SpeedExponent)
	if err != nil {
		return Zero, err
	}
	return decimal.Min(Hundred, pw.Mul(Hundred)), nil
}

// costScore: MissingScore for 0, else the linear score between the cost baselines.
func (p ArenaParams) costScore(c decimal.Decimal, b ArenaBaseline) decimal.Decimal {
	if c.IsZero() {
		return p.MissingScore
	}
	return linearScore(c, b.MinCost, b.MaxCost)
}

// correctnessScore is passed·100/total rounded to Places, or 100 when there are no criteria.
func correctnessScore(passed, total int64) decimal.Decimal {
	if total == 0 {
		return Hundred
	}
	return Quo(decimal.NewFromInt(passed).Mul(Hundred), decimal.NewFromInt(total))
}
