package scoring

import (
	"errors"
	"slices"
	"testing"

	"github.com/shopspring/decimal"
)

func TestRankingsTies(t *testing.T) {
	tests := []struct {
		scores      []string
		ranks       []int
		percentiles []string
		category    []int
	}{
		{nil, []int{}, []string{}, []int{}},
		{[]string{"50"}, []int{1}, []string{"0"}, []int{1}},
		// 1224: the two 80s share rank 2 and 70 takes position 4. Ascending [70,80,80,90]: the
		// first 80 is at index 1 → 25; 90 at index 3 → 75.
		{[]string{"90", "80", "80", "70"}, []int{1, 2, 2, 4}, []string{"75", "25", "25", "0"}, []int{1, 2, 3, 4}},
		{[]string{"70", "80", "90", "80"}, []int{4, 2, 1, 2}, []string{"0", "25", "75", "25"}, []int{4, 2, 1, 3}},
		{[]string{"10", "10", "10"}, []int{1, 1, 1}, []string{"0", "0", "0"}, []int{1, 2, 3}},
		// equal values written differently are ties
		{[]string{"50.5", "50.50", "1"}, []int{1, 1, 3}, []string{"33.3", "33.3", "0"}, []int{1, 2, 3}},
		// 2/3·100 = 66.67 → 66.7
		{[]string{"3", "2", "1"}, []int{1, 2, 3}, []string{"66.7", "33.3", "0"}, []int{1, 2, 3}},
	}
	for _, tc := range tests {
		xs := decsOf(tc.scores...)
		got := Rankings(xs)
		ranks := make([]int, len(got))
		for i, r := range got {
			ranks[i] = r.Rank
			sameDec(t, "percentile", r.Percentile, tc.percentiles[i])
		}
		if !slices.Equal(ranks, tc.ranks) {
			t.Errorf("Rankings(%v) = %v, want %v", tc.scores, ranks, tc.ranks)
		}
		if c := CategoryRankings(xs); !slices.Equal(c, tc.category) {
			t.Errorf("CategoryRankings(%v) = %v, want %v", tc.scores, c, tc.category)
		}
	}
}

func TestPercentile(t *testing.T) {
	p, err := Percentile(decOf("3"), nil)
	mustNoErr(t, err)
	sameDec(t, "no scores", p, "50")
	if _, err := Percentile(decOf("4"), decsOf("1", "2")); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("score not among scores: err = %v", err)
	}
	// position 1 of 16: 6.25 → 6.3 half away from zero (Python's float round gives 6.2).
	sixteen := make([]decimal.Decimal, 16)
	for i := range sixteen {
		sixteen[i] = decimal.NewFromInt(int64(i))
	}
	p, err = Percentile(One, sixteen)
	mustNoErr(t, err)
	sameDec(t, "1 of 16", p, "6.3")
	p, err = Percentile(decimal.NewFromInt(15), sixteen)
	mustNoErr(t, err)
	sameDec(t, "last of 16", p, "93.8") // 93.75 → 93.8
}

func TestConfidenceInterval(t *testing.T) {
	tests := []struct {
		scores []string
		lo, hi string
	}{
		{nil, "0", "100"},
		{[]string{"40", "60"}, "0", "100"}, // fewer than 3
		// mean 20, stdev 10, √3 = 1.732050807568877294, 10/√3 = 5.773502691896257644,
		// × 2.776 = 16.027243472704011219744 → 16.027243472704011220.
		{[]string{"10", "20", "30"}, "3.97275652729598878", "36.02724347270401122"},
		// clamped on both sides
		{[]string{"0", "0", "100"}, "0", "100"},
		{[]string{"7", "7", "7"}, "7", "7"},
	}
	for _, tc := range tests {
		lo, hi := ConfidenceInterval(decsOf(tc.scores...))
		sameDec(t, "lo", lo, tc.lo)
		sameDec(t, "hi", hi, tc.hi)
	}
	// n = 30 switches to 1.96: 15 zeros and 15 tens, mean 5, stdev √(750/29) = 5.085476277156077874,
	// /√30 (5.477225575051661135) = 0.928476690885259316, × 1.96 = 1.819814314135108259.
	thirty := make([]decimal.Decimal, 30)
	for i := range thirty {
		thirty[i] = decimal.NewFromInt(int64(10 * (i % 2)))
	}
	lo, hi := ConfidenceInterval(thirty)
	sameDec(t, "lo(30)", lo, "3.180185685864891741")
	sameDec(t, "hi(30)", hi, "6.819814314135108259")
	lo, hi = ConfidenceInterval(thirty[:29]) // n = 29 still uses 2.776: wider
	if hi.Sub(lo).Cmp(decOf("3.6")) <= 0 {
		t.Errorf("n = 29 interval [%s, %s] is not the 2.776 one", lo, hi)
	}
}

func TestDetectOutliers(t *testing.T) {
	sub := func(tokens, calls int64, secs string) ArenaSubmission {
		return ArenaSubmission{TotalTokens: tokens, ToolCalls: calls, Iterations: 1, ExecutionTime: decOf(secs), EstimatedCost: Zero}
	}
	// median tokens 1000 → threshold 100.
	subs := []ArenaSubmission{
		sub(1000, 1, "0"),   // missing time counts as fast (seed) + one tool call: 2 flags
		sub(1000, 2, "60"),  // none
		sub(1000, 3, "4.9"), // fast only
		sub(50, 1, "3"),     // all three
		sub(99, 2, "5"),     // tokens only (5 s is not < 5)
		sub(100, 1, "10"),   // 100 is not < 100; one tool call only
	}
	got := DetectOutliers(subs)
	want := []ArenaOutlier{
		{Index: 0, Flags: []string{FlagFast, FlagMinimalTools}},
		{Index: 3, Flags: []string{FlagEfficientTokens, FlagFast, FlagMinimalTools}},
	}
	if len(got) != len(want) {
		t.Fatalf("DetectOutliers = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Index != want[i].Index || !slices.Equal(got[i].Flags, want[i].Flags) {
			t.Errorf("outlier %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if DetectOutliers(nil) != nil {
		t.Error("outliers of no submissions")
	}
}

func TestValidateEvaluation(t *testing.T) {
	ok := ArenaResult{Overall: decOf("80"), Efficiency: decOf("95"), Speed: decOf("96"), Cost: Zero, Correctness: Hundred}
	if msgs := ValidateEvaluation(ok, 10); len(msgs) != 0 {
		t.Errorf("boundaries (95, 100, 0, 10 tokens) flagged: %v", msgs)
	}
	bad := ArenaResult{Overall: decOf("100.01"), Efficiency: decOf("95.01"), Speed: decOf("96"), Cost: decOf("-1"), Correctness: Hundred}
	want := []string{
		"overall_score out of range: 100.01",
		"cost_score out of range: -1.00",
		"Suspicious: Both efficiency and speed scores are extremely high",
		"Suspiciously low token count",
	}
	if got := ValidateEvaluation(bad, 9); !slices.Equal(got, want) {
		t.Errorf("ValidateEvaluation = %q, want %q", got, want)
	}
}
