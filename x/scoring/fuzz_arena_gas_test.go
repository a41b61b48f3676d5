package scoring

import (
	"testing"

	"github.com/shopspring/decimal"
)

// fuzzDec turns fuzzer text into a decimal, or reports false for text that is not one.
func fuzzDec(s string) (decimal.Decimal, bool) {
	v, err := Parse(s)
	if err != nil || v.Exponent() < -Places || len(s) > 40 {
		return Zero, false
	}
	return v, true
}

// FuzzScoreArena: any submission against any baseline either scores inside [0, 100] or returns
// an error; it never panics. The seed corpus runs in the normal `go test`.
func FuzzScoreArena(f *testing.F) {
	f.Add(int64(6000), int64(7), int64(2), "930", "0.105", int64(3), int64(4), "1000", "11000", "60", "1800", "0.01", "0.2", "3", "", "")
	f.Add(int64(5000), int64(4), int64(1), "100", "0.05", int64(0), int64(0), "5000", "5000", "100", "100", "0.05", "0.05", "1", "debugging", "advanced")
	f.Add(int64(-1), int64(0), int64(0), "0", "0", int64(5), int64(4), "0", "0", "0", "0", "0", "0", "0", "x", "y")
	f.Add(int64(1), int64(1), int64(1), "60.000000000000000001", "0.199999999999999999", int64(1), int64(1), "0", "1", "60", "60.000000000000000002", "0", "0.2", "2.5", "refactoring", "intermediate")
	f.Add(int64(9223372036854775807), int64(9223372036854775807), int64(9223372036854775807), "1e30", "1e30", int64(9223372036854775807), int64(9223372036854775807), "0", "1e30", "0", "1e30", "0", "1e30", "1e30", "", "")
	f.Fuzz(func(t *testing.T, tokens, calls, iters int64, secs, cost string, passed, total int64,
		minTok, maxTok, minT, maxT, minC, maxC, medIt, category, difficulty string) {
		vals := []string{secs, cost, minTok, maxTok, minT, maxT, minC, maxC, medIt}
		ds := make([]decimal.Decimal, len(vals))
		for i, v := range vals {
			var ok bool
			if ds[i], ok = fuzzDec(v); !ok {
				return
			}
		}
		s := ArenaSubmission{TotalTokens: tokens, ToolCalls: calls, Iterations: iters, ExecutionTime: ds[0],
			EstimatedCost: ds[1], CriteriaPassed: passed, CriteriaTotal: total}
		b := ArenaBaseline{MinTokens: ds[2], MedianTokens: ds[2], MaxTokens: ds[3],
			MinToolCalls: ds[2], MedianToolCalls: ds[2], MaxToolCalls: ds[3], MedianIterations: ds[8],
			MinExecutionTime: ds[4], MedianExecutionTime: ds[4], MaxExecutionTime: ds[5],
			MinCost: ds[6], MedianCost: ds[6], MaxCost: ds[7]}
		r, err := ScoreArena(DefaultArenaParams(), s, b, category, difficulty)
		if err != nil {
			return
		}
		for _, v := range []decimal.Decimal{r.Overall, r.Efficiency, r.Speed, r.Cost, r.Correctness} {
			if v.Sign() < 0 || v.Cmp(Hundred) > 0 {
				t.Fatalf("score outside [0, 100]: %+v for %+v / %+v", r, s, b)
			}
		}
		_ = ValidateEvaluation(r, tokens)
	})
}

// FuzzComputeBaseline: any list of submissions yields a baseline without panicking, and a
// baseline of 5 or more valid submissions validates.
func FuzzComputeBaseline(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25})
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{255, 255, 255, 255, 255, 1, 1, 1, 1, 1, 255, 0, 255, 0, 255, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0})
	f.Fuzz(func(t *testing.T, raw []byte) {
		var subs []ArenaSubmission
		for len(raw) >= 5 {
			subs = append(subs, ArenaSubmission{
				TotalTokens: int64(raw[0]) * 97, ToolCalls: int64(raw[1] % 40), Iterations: 1 + int64(raw[2]%9),
				ExecutionTime: decimal.New(int64(raw[3])-20, -1), EstimatedCost: decimal.New(int64(raw[4])-30, -3),
			})
			raw = raw[5:]
		}
		b := ComputeBaseline(subs, DefaultArenaBaseline())
		allValid := true
		for _, s := range subs {
			allValid = allValid && s.Validate() == nil
		}
		if allValid {
			if err := b.Validate(); err != nil {
				t.Fatalf("baseline of %d valid submissions invalid: %v", len(subs), err)
			}
		}
		_ = DetectOutliers(subs)
	})
}

// FuzzScoreGas: any history either scores inside [0, 1] or returns an error; never a panic.
func FuzzScoreGas(f *testing.F) {
	f.Add([]byte{10, 0, 10, 0, 10, 0}, "1")
	f.Add([]byte{0, 0}, "0")
	f.Add([]byte{5, 200, 7, 3, 9, 255, 10, 1}, "0.7")
	f.Add([]byte{}, "1")
	f.Add([]byte{11, 0}, "1.5")
	f.Fuzz(func(t *testing.T, raw []byte, live string) {
		l, ok := fuzzDec(live)
		if !ok {
			return
		}
		var h []GasHistoryPoint
		for i := 0; i+1 < len(raw); i += 2 {
			h = append(h, GasHistoryPoint{Time: int64(i), InclusionRate: decimal.New(int64(raw[i]), -1),
				AvgOverpayment: decimal.New(int64(raw[i+1])-5, -2)})
		}
		r, err := ScoreGas(DefaultGasParams(), h, l)
		if err != nil {
			return
		}
		if r.Score.Sign() < 0 || r.Score.Cmp(One) > 0 {
			t.Fatalf("score outside [0, 1]: %+v", r)
		}
	})
}
