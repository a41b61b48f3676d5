package quorum

import (
	"testing"

	"github.com/shopspring/decimal"
)

// BenchmarkWeightedMedian100 is one field's median over 100 validators.
func BenchmarkWeightedMedian100(b *testing.B) {
	values := make([]decimal.Decimal, 100)
	powers := make([]int64, 100)
	for i := range values {
		values[i] = decimal.New(int64(i*7919%100), -1)
		powers[i] = int64(1 + i%13)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := WeightedMedian(values, powers); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAggregate100x7 aggregates 100 validators' reports of 7 fields (a workflow report).
func BenchmarkAggregate100x7(b *testing.B) {
	votes := make([]Vote, 100)
	for i := range votes {
		vals := make([]decimal.Decimal, 7)
		for k := range vals {
			vals[k] = decimal.New(int64((i*31+k*17)%100), -2)
		}
		votes[i] = Vote{Validator: []byte{byte(i * 53 % 256), byte(i)}, Power: int64(1 + i%13), Values: vals}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Aggregate(votes, 1000, false, DefaultRule()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerdict100 is the near-copy verdict over 100 validators' votes
// naming 10 submissions or none.
func BenchmarkVerdict100(b *testing.B) {
	choices := make([]Choice, 100)
	for i := range choices {
		choices[i] = Choice{Power: int64(1 + i%13), Name: uint64(i * 7 % 11)}
	}
	b.ReportAllocs()
	for b.Loop() {
		Verdict(choices, 1000)
	}
}
