package scoring

import (
	"github.com/shopspring/decimal"
)

// ArenaBaseline is a task's reference distribution (calculate_task_baseline).
type ArenaBaseline struct {
	SubmissionCount                                          int64
	MinTokens, Q25Tokens, MedianTokens, Q75Tokens, MaxTokens decimal.Decimal
	MinToolCalls, MedianToolCalls, MaxToolCalls              decimal.Decimal
	MedianIterations                                         decimal.Decimal
	MinExecutionTime, MedianExecutionTime, MaxExecutionTime  decimal.Decimal
	MinCost, MedianCost, MaxCost                             decimal.Decimal
}

// MinBaselineSubmissions is the seed's threshold: below it the fallback baseline applies.
const MinBaselineSubmissions = 5

// The seed's defaults when no submission carries a positive execution time or cost.
var (
	defaultMedianTime = seedConst("300")
	defaultMinTime    = seedConst("60")
	defaultMaxTime    = seedConst("1800")
	defaultMedianCost = seedConst("0.05")
	defaultMinCost    = seedConst("0.01")
	defaultMaxCost    = seedConst("0.20")
)

// DefaultArenaBaseline is the fallback for a task that has fewer than 5 submissions and no
// baseline of its own. Time and cost are the seed's no-data defaults; tokens, tool calls and
// iterations are this project's choice (docs/scoring.md, section "arena").
func DefaultArenaBaseline() ArenaBaseline {
	return ArenaBaseline{
		MinTokens: seedConst("1000"), Q25Tokens: seedConst("5000"), MedianTokens: seedConst("10000"),
		Q75Tokens: seedConst("20000"), MaxTokens: seedConst("50000"),
		MinToolCalls: seedConst("1"), MedianToolCalls: seedConst("10"), MaxToolCalls: seedConst("40"),
		MedianIterations:    seedConst("3"),
		MinExecutionTime:    defaultMinTime,
		MedianExecutionTime: defaultMedianTime,
		MaxExecutionTime:    defaultMaxTime,
		MinCost:             defaultMinCost,
		MedianCost:          defaultMedianCost,
		MaxCost:             defaultMaxCost,
	}
}

// Validate checks that every value is non-negative, each min ≤ median ≤ max, the median
// iteration count is at least 1 and the count is not negative. The quartiles are reported only
// and may lie outside [min, max] (the 'exclusive' method extrapolates for tiny samples).
func (b ArenaBaseline) Validate() error {
	if b.SubmissionCount < 0 {
		return inputErr("baseline.submission_count", decimal.NewFromInt(b.SubmissionCount).String(), "must not be negative")
	}
	triples := []struct {
		name        string
		lo, mid, hi decimal.Decimal
	}{
		{"tokens", b.MinTokens, b.MedianTokens, b.MaxTokens},
		{"tool_calls", b.MinToolCalls, b.MedianToolCalls, b.MaxToolCalls},
		{"execution_time", b.MinExecutionTime, b.MedianExecutionTime, b.MaxExecutionTime},
		{"cost", b.MinCost, b.MedianCost, b.MaxCost},
	}
	for _, t := range triples {
		if t.lo.Sign() < 0 {
			return inputErr("baseline.min_"+t.name, t.lo.String(), "must not be negative")
		}
		if t.mid.Cmp(t.lo) < 0 {
			return inputErr("baseline.median_"+t.name, t.mid.String(), "must not be below min "+t.lo.String())
		}
		if t.hi.Cmp(t.mid) < 0 {
			return inputErr("baseline.max_"+t.name, t.hi.String(), "must not be below median "+t.mid.String())
		}
	}
	if b.MedianIterations.Cmp(One) < 0 {
		return inputErr("baseline.median_iterations", b.MedianIterations.String(), "must be at least 1")
	}
	return nil
}

// ComputeBaseline derives a baseline from a task's submissions. With fewer than 5 it returns
// fallback unchanged (on chain: the task's default baseline). Execution time and cost use only
// positive values, with the seed's defaults when there are none. Submissions are expected to
// have passed ArenaSubmission.Validate.
func ComputeBaseline(subs []ArenaSubmission, fallback ArenaBaseline) ArenaBaseline {
	if len(subs) < MinBaselineSubmissions {
		return fallback
	}
	tokens := make([]decimal.Decimal, len(subs))
	calls := make([]decimal.Decimal, len(subs))
	iters := make([]decimal.Decimal, len(subs))
	var times, costs []decimal.Decimal
	for i, s := range subs {
		tokens[i] = decimal.NewFromInt(s.TotalTokens)
		calls[i] = decimal.NewFromInt(s.ToolCalls)
		iters[i] = decimal.NewFromInt(s.Iterations)
		if s.ExecutionTime.Sign() > 0 {
			times = append(times, s.ExecutionTime)
		}
		if s.EstimatedCost.Sign() > 0 {
			costs = append(costs, s.EstimatedCost)
		}
	}
	b := ArenaBaseline{SubmissionCount: int64(len(subs))}
	b.MinTokens, b.MedianTokens, b.MaxTokens = spread(tokens)
	q := mustQuartiles(tokens)
	b.Q25Tokens, b.Q75Tokens = q[0], q[2]
	b.MinToolCalls, b.MedianToolCalls, b.MaxToolCalls = spread(calls)
	_, b.MedianIterations, _ = spread(iters)
	b.MinExecutionTime, b.MedianExecutionTime, b.MaxExecutionTime = defaultMinTime, defaultMedianTime, defaultMaxTime
	if len(times) > 0 {
		b.MinExecutionTime, b.MedianExecutionTime, b.MaxExecutionTime = spread(times)
	}
	b.MinCost, b.MedianCost, b.MaxCost = defaultMinCost, defaultMedianCost, defaultMaxCost
	if len(costs) > 0 {
		b.MinCost, b.MedianCost, b.MaxCost = spread(costs)
	}
	return b
}

// spread returns min, median and max of a non-empty sample.
func spread(xs []decimal.Decimal) (lo, mid, hi decimal.Decimal) {
	s := sortedCopy(xs)
	return s[0], medianSorted(s), s[len(s)-1]
}

func mustQuartiles(xs []decimal.Decimal) [3]decimal.Decimal {
	q, err := Quartiles(xs)
	if err != nil {
		panic("scoring: quartiles of a checked sample of 5 or more: " + err.Error())
	}
	return q
}
