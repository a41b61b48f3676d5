package scoring

import (
	"slices"
	"testing"
)

// TestTaskResults: hand-derived ranks, category ranks, flags and warnings of
// three entries. Overall 80, 80, 50: ranks 1, 1, 3; ascending [50, 80, 80]
// gives percentiles 33.3, 33.3, 0. Median tokens 900 → threshold 90: only
// the third (50 tokens, 2 s, 1 call) is flagged, three times.
func TestTaskResults(t *testing.T) {
	res := func(overall, eff, speed, cost, corr string) ArenaResult {
		return ArenaResult{Overall: decOf(overall), Efficiency: decOf(eff), Speed: decOf(speed), Cost: decOf(cost), Correctness: decOf(corr)}
	}
	sub := func(tokens, calls int64, secs string) ArenaSubmission {
		return ArenaSubmission{TotalTokens: tokens, ToolCalls: calls, Iterations: 1, ExecutionTime: decOf(secs)}
	}
	entries := []ArenaEntry{
		{sub(900, 4, "60"), res("80", "70", "60", "50", "100")},
		{sub(1000, 5, "90"), res("80", "75", "60", "40", "100")},
		{sub(50, 1, "2"), res("50", "96", "97", "101", "5")},
	}
	got := TaskResults(entries)
	wantRank := []int{1, 1, 3}
	wantPct := []string{"33.3", "33.3", "0"}
	wantCats := []ArenaMetricRanks{{3, 2, 2, 1}, {2, 3, 3, 2}, {1, 1, 1, 3}}
	for i, r := range got.Rows {
		if r.Rank != wantRank[i] || r.Categories != wantCats[i] {
			t.Errorf("row %d: rank %d %+v, want %d %+v", i, r.Rank, r.Categories, wantRank[i], wantCats[i])
		}
		sameDec(t, "percentile", r.Percentile, wantPct[i])
	}
	if r := got.Rows[0]; r.Outlier || r.OutlierFlags != nil || r.Warnings != nil {
		t.Errorf("row 0: %+v", r)
	}
	flags := []string{FlagEfficientTokens, FlagFast, FlagMinimalTools}
	warn := []string{"cost_score out of range: 101.00", "Suspicious: Both efficiency and speed scores are extremely high"}
	if r := got.Rows[2]; !r.Outlier || !slices.Equal(r.OutlierFlags, flags) || !slices.Equal(r.Warnings, warn) {
		t.Errorf("row 2: %+v", r)
	}
	// mean 70, stdev √300, margin 2.776·√300/√3 = 27.76, less 8e-18 from
	// the rounding points of stdev, √3 and their quotient at 18 places
	sameDec(t, "ci low", got.CILow, "42.240000000000000008")
	sameDec(t, "ci high", got.CIHigh, "97.759999999999999992")
	if e := TaskResults(nil); len(e.Rows) != 0 || !e.CILow.IsZero() || !e.CIHigh.Equal(Hundred) {
		t.Errorf("no entries: %+v", e)
	}
}

// TestOutlierFlagsBoundaries: each threshold is strict (tokens < 0.1 × median,
// time < 5 s, exactly one call); a missing time (0) counts as fast.
func TestOutlierFlagsBoundaries(t *testing.T) {
	th := OutlierTokenThreshold(decOf("1000"))
	cases := []struct {
		s    ArenaSubmission
		want []string
	}{
		{ArenaSubmission{TotalTokens: 100, ToolCalls: 2, ExecutionTime: decOf("5")}, nil},
		{ArenaSubmission{TotalTokens: 99, ToolCalls: 2, ExecutionTime: decOf("5")}, []string{FlagEfficientTokens}},
		{ArenaSubmission{TotalTokens: 100, ToolCalls: 1, ExecutionTime: decOf("4.999")}, []string{FlagFast, FlagMinimalTools}},
		{ArenaSubmission{TotalTokens: 100, ToolCalls: 0, ExecutionTime: decOf("0")}, []string{FlagFast}},
	}
	for i, c := range cases {
		if got := OutlierFlags(c.s, th); !slices.Equal(got, c.want) || IsOutlier(got) != (len(c.want) >= 2) {
			t.Errorf("case %d: %v, want %v", i, got, c.want)
		}
	}
}
