package window

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

// BenchmarkWindowPush pushes into a full 100-entry window (the steady state).
func BenchmarkWindowPush(b *testing.B) {
	p := DefaultParams()
	var w MinerWindow
	score := decimal.RequireFromString("0.731")
	for i := 0; i < p.WindowSize; i++ {
		w, _ = w.Push(p, score)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := w.Push(p, score); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWindowAggregate is the epoch-time read of one full window.
func BenchmarkWindowAggregate(b *testing.B) {
	p := DefaultParams()
	var w MinerWindow
	for i := 0; i < p.WindowSize; i++ {
		w, _ = w.Push(p, decimal.New(int64(i), -2))
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = w.Aggregate(p)
	}
}

// BenchmarkBaselineAdd adds one submission to a full K = 1000 baseline.
func BenchmarkBaselineAdd(b *testing.B) {
	p := DefaultParams()
	var bl Baseline
	bl, _ = bl.Add(p, subs(make([]int64, p.BaselineK)...))
	one := subs(42)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bl.Add(p, one); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBaselineStats computes the statistics of a full K = 1000 baseline.
func BenchmarkBaselineStats(b *testing.B) {
	p := DefaultParams()
	tokens := make([]int64, p.BaselineK)
	for i := range tokens {
		tokens[i] = int64(i * 37 % 1000)
	}
	bl, _ := Baseline{}.Add(p, subs(tokens...))
	fallback := scoring.DefaultArenaBaseline()
	b.ReportAllocs()
	for b.Loop() {
		_ = bl.Stats(fallback)
	}
}

// BenchmarkGasClose is one window close of an agent with a full memory and a
// 61-point history (one close per second over the 60 s horizon), score included.
func BenchmarkGasClose(b *testing.B) {
	gp := scoring.DefaultGasParams()
	price, est := decimal.NewFromInt(100), decimal.NewFromInt(103)
	var a GasAgent
	for i := int64(0); i < 100; i++ {
		a, _, _ = a.Close(gp, i, &est, price)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := a.Close(gp, 100, &est, price); err != nil {
			b.Fatal(err)
		}
	}
}
