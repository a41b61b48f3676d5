package scoring

import (
	"testing"

	"github.com/shopspring/decimal"
)

var (
	benchArenaSink ArenaResult
	benchBaseSink  ArenaBaseline
	benchGasSink   GasResult
)

// BenchmarkScoreArena: one submission in the interpolating branches of every component
// (speed's ratio^0.7 included), params and inputs validated as on chain.
func BenchmarkScoreArena(b *testing.B) {
	p, s, base := DefaultArenaParams(), testSubmission(), testBaseline()
	b.ReportAllocs()
	for b.Loop() {
		r, err := ScoreArena(p, s, base, "debugging", "advanced")
		if err != nil {
			b.Fatal(err)
		}
		benchArenaSink = r
	}
}

// BenchmarkComputeBaseline1000: the baseline of 1,000 submissions.
func BenchmarkComputeBaseline1000(b *testing.B) {
	subs := arenaCases(1000)
	b.ReportAllocs()
	for b.Loop() {
		benchBaseSink = ComputeBaseline(subs, DefaultArenaBaseline())
	}
}

// BenchmarkGasWindowUpdate: what one closed block window costs an agent: judge the estimate,
// recompute the 10-slot memory performance, then score a 60-point history with its utilities.
func BenchmarkGasWindowUpdate(b *testing.B) {
	p := DefaultGasParams()
	rng := newTestRNG(5)
	history := make([]GasHistoryPoint, 60)
	for i := range history {
		history[i] = GasHistoryPoint{Time: int64(i), InclusionRate: decimal.New(int64(5+rng.intn(6)), -1),
			AvgOverpayment: decimal.New(rng.int63n(1_000_000_000_000_000), -18)}
	}
	mem := make([]GasSlot, p.MemorySize)
	for i := range mem {
		mem[i] = GasSlot{Included: i%3 != 0, Overpayment: decimal.New(int64(i)*37, -3), Fresh: i%4 != 0}
	}
	est, minPrice := decimal.RequireFromString("23.456789012"), decimal.RequireFromString("21.9")
	b.ReportAllocs()
	for b.Loop() {
		slot, err := GasOutcome(est, minPrice, true)
		if err != nil {
			b.Fatal(err)
		}
		mem[0] = slot
		perf := MemoryPerformance(mem)
		history[59].InclusionRate, history[59].AvgOverpayment = perf.InclusionRate, perf.AvgOverpayment
		r, err := ScoreGas(p, history, perf.Liveliness)
		if err != nil {
			b.Fatal(err)
		}
		benchGasSink = r
	}
}

// BenchmarkScoreGas60: ScoreGas alone over a 60-point history.
func BenchmarkScoreGas60(b *testing.B) {
	p := DefaultGasParams()
	rng := newTestRNG(6)
	history := make([]GasHistoryPoint, 60)
	for i := range history {
		history[i] = GasHistoryPoint{Time: int64(i), InclusionRate: decimal.New(int64(5+rng.intn(6)), -1),
			AvgOverpayment: decimal.New(rng.int63n(1_000_000_000_000_000), -18)}
	}
	live := decimal.RequireFromString("0.9")
	b.ReportAllocs()
	for b.Loop() {
		r, err := ScoreGas(p, history, live)
		if err != nil {
			b.Fatal(err)
		}
		benchGasSink = r
	}
}
