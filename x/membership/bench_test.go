package membership

import (
	"math"
	"testing"
)

// BenchmarkSeal is one Seal, the chain's check of a registration's work.
func BenchmarkSeal(b *testing.B) {
	sender, bh := vectorInputs()
	for i := 0; b.Loop(); i++ {
		_ = Seal("subnet-test", sender, bh, uint64(i))
	}
}

// BenchmarkSolve is one try of a miner's search (Solve at a difficulty no
// seal is expected to meet): its ns/op is the price of one hash of the
// proof of work on this CPU, the figure docs/membership.md converts
// difficulties into seconds with.
func BenchmarkSolve(b *testing.B) {
	sender, bh := vectorInputs()
	b.ResetTimer()
	if _, ok := Solve("subnet-test", sender, bh, math.MaxUint64, 0, uint64(b.N)); ok {
		b.Log("a seal met difficulty 2^64 - 1")
	}
}
