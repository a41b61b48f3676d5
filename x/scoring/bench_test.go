package scoring

import (
	"math/rand"
	"testing"

	"github.com/shopspring/decimal"
)

func BenchmarkScoreWorkflow(b *testing.B) {
	p := DefaultWorkflowParams()
	in := WorkflowInput{
		OutputQuality: num("0.912345678901234567"), StepsCompleted: 7, TotalSteps: 9,
		Cost: num("0.37"), MaxBudget: num("1.5"), LatencySeconds: num("12.5"), MaxLatencySeconds: num("60"),
		Retries: 3, DeclaredRetryBudget: 1, Timeouts: 1,
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ScoreWorkflow(p, in); err != nil {
			b.Fatal(err)
		}
	}
}

// benchScores are n 18-place scores with a heavy head, so that the cap clips
// several rounds of miners.
func benchScores(n int) []decimal.Decimal {
	rng := rand.New(rand.NewSource(1))
	out := make([]decimal.Decimal, n)
	for i := range out {
		out[i] = decimal.New(rng.Int63n(1_000_000_000_000_000_000), -18)
	}
	for i := 0; i < 10 && i < n; i++ {
		out[i] = decimal.NewFromInt(int64(1000 * (i + 1)))
	}
	return out
}

func BenchmarkCapWeights10k(b *testing.B) {
	scores := benchScores(10_000)
	cap := num("0.15")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CapWeights(scores, cap); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkToU16_10k(b *testing.B) {
	res, err := CapWeights(benchScores(10_000), num("0.15"))
	if err != nil {
		b.Fatal(err)
	}
	uids := make([]uint16, len(res.Weights))
	for i := range uids {
		uids[i] = uint16(i + 1)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ToU16(uids, res.Weights, res.Unallocated, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExp(b *testing.B) {
	y := num("-3.123456789012345678")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Exp(y); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLn(b *testing.B) {
	x := num("3.123456789012345678")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Ln(x); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPow(b *testing.B) {
	x, y := num("1.37"), num("0.7")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Pow(x, y); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSqrt(b *testing.B) {
	x := num("3.123456789012345678")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Sqrt(x); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("12345.678901234567890000"); err != nil {
			b.Fatal(err)
		}
	}
}
