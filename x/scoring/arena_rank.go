package scoring

import (
	"slices"

	"github.com/shopspring/decimal"
)

// ArenaRanking is one entry of Rankings, aligned with the input order.
type ArenaRanking struct {
	Rank       int             // 1224 style: 1 + the number of strictly higher scores
	Percentile decimal.Decimal // Percentile(score, all scores)
}

// Rankings ranks overall scores as calculate_rankings does: equal scores share the rank of the
// first of them in descending order, and the next distinct score takes its position (1, 2, 2, 4).
func Rankings(scores []decimal.Decimal) []ArenaRanking {
	order := descendingOrder(scores)
	asc := sortedCopy(scores)
	out := make([]ArenaRanking, len(scores))
	for pos, i := range order {
		rank := pos + 1
		if pos > 0 && scores[i].Equal(scores[order[pos-1]]) {
			rank = out[order[pos-1]].Rank
		}
		out[i] = ArenaRanking{Rank: rank, Percentile: percentileSorted(scores[i], asc)}
	}
	return out
}

// CategoryRankings ranks one metric as calculate_category_rankings does: ordinal positions
// 1..n in descending order, ties kept in input order (Python's sort is stable), aligned with
// the input.
func CategoryRankings(scores []decimal.Decimal) []int {
	out := make([]int, len(scores))
	for pos, i := range descendingOrder(scores) {
		out[i] = pos + 1
	}
	return out
}

// Percentile is calculate_percentile: the index of the first score equal to score in the
// ascending order of all, over len(all), × 100, rounded to 1 place half away from zero. No
// scores gives 50; a score absent from all is an InputError (Python raises ValueError).
func Percentile(score decimal.Decimal, all []decimal.Decimal) (decimal.Decimal, error) {
	if len(all) == 0 {
		return decimal.NewFromInt(50), nil
	}
	asc := sortedCopy(all)
	if _, found := slices.BinarySearchFunc(asc, score, decimal.Decimal.Cmp); !found {
		return Zero, inputErr("score", score.String(), "not among the scores")
	}
	return percentileSorted(score, asc), nil
}

func percentileSorted(score decimal.Decimal, asc []decimal.Decimal) decimal.Decimal {
	pos, _ := slices.BinarySearchFunc(asc, score, decimal.Decimal.Cmp)
	return decimal.NewFromInt(int64(pos)).Mul(Hundred).DivRound(decimal.NewFromInt(int64(len(asc))), 1)
}

// descendingOrder returns the indices of scores sorted by descending score, ties in input order.
func descendingOrder(scores []decimal.Decimal) []int {
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return scores[b].Cmp(scores[a]) })
	return order
}

// Student t constants of calculate_confidence_interval (the seed's, not exact quantiles).
var (
	tSmall = seedConst("2.776") // n < 30
	tLarge = seedConst("1.96")  // n ≥ 30
)

// ConfidenceInterval is calculate_confidence_interval: with fewer than 3 scores (0, 100); else
// mean ± t·(stdev/√n) clamped to [0, 100]. Rounding points: Mean, Stdev, Sqrt(n), the quotient
// stdev/√n and the product t·quotient, each at Places.
func ConfidenceInterval(scores []decimal.Decimal) (lo, hi decimal.Decimal) {
	if len(scores) < 3 {
		return Zero, Hundred
	}
	mean, err := Mean(scores)
	if err != nil {
		panic("scoring: mean of 3 or more scores: " + err.Error())
	}
	sd, err := Stdev(scores)
	if err != nil {
		panic("scoring: stdev of 3 or more scores: " + err.Error())
	}
	n := decimal.NewFromInt(int64(len(scores)))
	root, err := Sqrt(n)
	if err != nil {
		panic("scoring: sqrt of a positive count: " + err.Error())
	}
	t := tSmall
	if len(scores) >= 30 {
		t = tLarge
	}
	margin := Round(t.Mul(Quo(sd, root)))
	return decimal.Max(Zero, mean.Sub(margin)), decimal.Min(Hundred, mean.Add(margin))
}

// Outlier flags of detect_outliers.
const (
	FlagEfficientTokens = "extremely_efficient_tokens"
	FlagFast            = "extremely_fast"
	FlagMinimalTools    = "minimal_tool_usage"
)

// ArenaOutlier is a submission with two or more suspicious flags.
type ArenaOutlier struct {
	Index int // into the input slice
	Flags []string
}

var (
	outlierTokenFactor = seedConst("0.1")
	outlierFastSeconds = seedConst("5")
)

// OutlierTokenThreshold is detect_outliers' token threshold: 0.1 × the median tokens.
func OutlierTokenThreshold(medianTokens decimal.Decimal) decimal.Decimal {
	return medianTokens.Mul(outlierTokenFactor)
}

// OutlierFlags are detect_outliers' flags of one submission, in the seed's order: tokens below
// threshold (OutlierTokenThreshold), execution time below 5 s (a missing time, 0, counts, as in
// the seed) and exactly one tool call. Nil when none applies.
func OutlierFlags(s ArenaSubmission, threshold decimal.Decimal) []string {
	var flags []string
	if decimal.NewFromInt(s.TotalTokens).Cmp(threshold) < 0 {
		flags = append(flags, FlagEfficientTokens)
	}
	if s.ExecutionTime.Cmp(outlierFastSeconds) < 0 {
		flags = append(flags, FlagFast)
	}
	if s.ToolCalls == 1 {
		flags = append(flags, FlagMinimalTools)
	}
	return flags
}

// IsOutlier is detect_outliers' rule: two or more flags make an outlier.
func IsOutlier(flags []string) bool { return len(flags) >= 2 }

// DetectOutliers is detect_outliers over a sample: OutlierFlags against 0.1 × the sample's
// median tokens, and the submissions with two or more flags. No submissions, no outliers.
func DetectOutliers(subs []ArenaSubmission) []ArenaOutlier {
	if len(subs) == 0 {
		return nil
	}
	threshold := OutlierTokenThreshold(medianTokens(subs))
	var out []ArenaOutlier
	for i, s := range subs {
		if flags := OutlierFlags(s, threshold); IsOutlier(flags) {
			out = append(out, ArenaOutlier{Index: i, Flags: flags})
		}
	}
	return out
}

var (
	suspiciousHigh = seedConst("95")
	minTokenCount  = int64(10)
	reportedNames  = [5]string{"overall", "efficiency", "speed", "cost", "correctness"}
)

// ValidateEvaluation is validate_evaluation_metrics over a result and its submission's token
// count: each reported score outside [0, 100], efficiency and speed both above 95, and fewer
// than 10 tokens are reported, in the seed's order and wording.
func ValidateEvaluation(r ArenaResult, totalTokens int64) []string {
	var errs []string
	scores := [5]decimal.Decimal{r.Overall, r.Efficiency, r.Speed, r.Cost, r.Correctness}
	for i, s := range scores {
		if s.Sign() < 0 || s.Cmp(Hundred) > 0 {
			errs = append(errs, reportedNames[i]+"_score out of range: "+s.StringFixed(reportPlaces))
		}
	}
	if r.Efficiency.Cmp(suspiciousHigh) > 0 && r.Speed.Cmp(suspiciousHigh) > 0 {
		errs = append(errs, "Suspicious: Both efficiency and speed scores are extremely high")
	}
	if totalTokens < minTokenCount {
		errs = append(errs, "Suspiciously low token count")
	}
	return errs
}
