package scoring

import (
	"errors"
	"testing"
)

func baselineSub(tokens, calls, iters int64, secs, cost string) ArenaSubmission {
	return ArenaSubmission{TotalTokens: tokens, ToolCalls: calls, Iterations: iters, ExecutionTime: decOf(secs), EstimatedCost: decOf(cost)}
}

func TestComputeBaselineFallbackBelowFive(t *testing.T) {
	fallback := testBaseline()
	for n := 0; n < MinBaselineSubmissions; n++ {
		got := ComputeBaseline(repeatSub(baselineSub(1, 1, 1, "1", "1"), n), fallback)
		if !baselineEqual(got, fallback) {
			t.Errorf("n = %d: got %+v, want the fallback", n, got)
		}
	}
	if got := ComputeBaseline(repeatSub(baselineSub(1, 1, 1, "1", "1"), 5), fallback); baselineEqual(got, fallback) {
		t.Error("n = 5 still returned the fallback")
	}
}

func repeatSub(s ArenaSubmission, n int) []ArenaSubmission {
	out := make([]ArenaSubmission, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func TestComputeBaselineHandDerived(t *testing.T) {
	subs := []ArenaSubmission{
		baselineSub(300, 5, 1, "0", "0"),
		baselineSub(100, 1, 2, "10", "0"),
		baselineSub(500, 3, 3, "20", "0"),
		baselineSub(200, 2, 4, "0", "0"),
		baselineSub(400, 4, 5, "30", "0"),
	}
	b := ComputeBaseline(subs, testBaseline())
	// tokens sorted [100..500]: m = 6; q1: j = 1, δ = 2 → (100·2 + 200·2)/4 = 150; q3: j = 4, δ = 2 → 450.
	want := ArenaBaseline{
		SubmissionCount: 5,
		MinTokens:       decOf("100"), Q25Tokens: decOf("150"), MedianTokens: decOf("300"), Q75Tokens: decOf("450"), MaxTokens: decOf("500"),
		MinToolCalls: decOf("1"), MedianToolCalls: decOf("3"), MaxToolCalls: decOf("5"),
		MedianIterations: decOf("3"),
		// only positive times count: [10, 20, 30]
		MinExecutionTime: decOf("10"), MedianExecutionTime: decOf("20"), MaxExecutionTime: decOf("30"),
		// no positive cost: the seed's defaults
		MinCost: decOf("0.01"), MedianCost: decOf("0.05"), MaxCost: decOf("0.20"),
	}
	if !baselineEqual(b, want) {
		t.Fatalf("got  %+v\nwant %+v", b, want)
	}
	mustNoErr(t, b.Validate())
	// six submissions, none timed, two costed: the time defaults and an even-count median.
	subs = append(subs, baselineSub(600, 6, 6, "0", "0.03"))
	subs[0].EstimatedCost = decOf("0.01")
	for i := range subs {
		subs[i].ExecutionTime = Zero
	}
	b = ComputeBaseline(subs, testBaseline())
	sameDec(t, "median tokens (even n)", b.MedianTokens, "350")
	sameDec(t, "median iterations", b.MedianIterations, "3.5")
	sameDec(t, "min time default", b.MinExecutionTime, "60")
	sameDec(t, "median time default", b.MedianExecutionTime, "300")
	sameDec(t, "max time default", b.MaxExecutionTime, "1800")
	sameDec(t, "min cost", b.MinCost, "0.01")
	sameDec(t, "median cost", b.MedianCost, "0.02")
	sameDec(t, "max cost", b.MaxCost, "0.03")
}

func TestComputeBaselineIsScorable(t *testing.T) {
	// Every computed baseline validates, and scoring against one whose spans are all zero
	// (identical submissions) never divides: min == max everywhere.
	same := repeatSub(baselineSub(700, 4, 2, "12.5", "0.07"), 9)
	b := ComputeBaseline(same, DefaultArenaBaseline())
	mustNoErr(t, b.Validate())
	for _, s := range []ArenaSubmission{same[0], baselineSub(699, 3, 1, "12.4", "0.06"), baselineSub(701, 5, 3, "12.6", "0.08")} {
		if _, err := ScoreArena(DefaultArenaParams(), s, b, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	mustNoErr(t, DefaultArenaBaseline().Validate())
	bad := DefaultArenaBaseline()
	bad.MaxToolCalls = decOf("0.5")
	var ie *InputError
	if err := bad.Validate(); !errors.As(err, &ie) || ie.Field != "baseline.max_tool_calls" {
		t.Errorf("max below median: err = %v", err)
	}
}
