package scoring

import (
	"github.com/shopspring/decimal"
)

// ArenaEntry is one scored submission of an arena task: its measured values and its result.
type ArenaEntry struct {
	Submission ArenaSubmission
	Result     ArenaResult
}

// ArenaMetricRanks are a submission's category rankings (calculate_category_rankings), one per
// reported metric: ordinal positions 1..n, ties in the order of the entries.
type ArenaMetricRanks struct {
	Efficiency, Speed, Cost, Correctness int
}

// ArenaTaskRow is the evaluation of one entry within its task.
type ArenaTaskRow struct {
	Rank       int             // calculate_rankings: ties share a rank (1, 2, 2, 4)
	Percentile decimal.Decimal // calculate_percentile of the overall score, 1 place
	Categories ArenaMetricRanks
	// OutlierFlags are detect_outliers' flags against the task's median tokens; Outlier is
	// set when there are two or more (the seed's recommended_action "manual_review").
	OutlierFlags []string
	Outlier      bool
	// Warnings are validate_evaluation_metrics' messages.
	Warnings []string
}

// ArenaTaskResults is the seed's evaluation pipeline over one task's scored submissions.
type ArenaTaskResults struct {
	// CILow and CIHigh are calculate_confidence_interval of the overall scores.
	CILow, CIHigh decimal.Decimal
	Rows          []ArenaTaskRow // aligned with the entries
}

// TaskResults ranks a task's entries (overall and per metric), gives each its percentile,
// outlier flags and validation warnings, and the task's confidence interval. The order of the
// entries breaks ties in the category rankings; callers pass them by ascending submission id.
func TaskResults(entries []ArenaEntry) ArenaTaskResults {
	n := len(entries)
	overall := make([]decimal.Decimal, n)
	metric := [4][]decimal.Decimal{make([]decimal.Decimal, n), make([]decimal.Decimal, n), make([]decimal.Decimal, n), make([]decimal.Decimal, n)}
	subs := make([]ArenaSubmission, n)
	for i, e := range entries {
		r := e.Result
		overall[i] = r.Overall
		metric[0][i], metric[1][i], metric[2][i], metric[3][i] = r.Efficiency, r.Speed, r.Cost, r.Correctness
		subs[i] = e.Submission
	}
	out := ArenaTaskResults{Rows: make([]ArenaTaskRow, n)}
	out.CILow, out.CIHigh = ConfidenceInterval(overall)
	var cats [4][]int
	for k := range metric {
		cats[k] = CategoryRankings(metric[k])
	}
	threshold := OutlierTokenThreshold(medianTokens(subs))
	for i, rk := range Rankings(overall) {
		flags := OutlierFlags(subs[i], threshold)
		out.Rows[i] = ArenaTaskRow{Rank: rk.Rank, Percentile: rk.Percentile,
			Categories:   ArenaMetricRanks{Efficiency: cats[0][i], Speed: cats[1][i], Cost: cats[2][i], Correctness: cats[3][i]},
			OutlierFlags: flags, Outlier: IsOutlier(flags),
			Warnings: ValidateEvaluation(entries[i].Result, subs[i].TotalTokens)}
	}
	return out
}

// medianTokens is the median total_tokens of a non-empty sample, 0 of none.
func medianTokens(subs []ArenaSubmission) decimal.Decimal {
	if len(subs) == 0 {
		return Zero
	}
	tokens := make([]decimal.Decimal, len(subs))
	for i, s := range subs {
		tokens[i] = decimal.NewFromInt(s.TotalTokens)
	}
	_, m, _ := spread(tokens)
	return m
}
