package membership

import (
	"math"
	"testing"
)

func TestNextDifficulty(t *testing.T) {
	p := Params{MinDifficulty: 100, MaxDifficulty: 1 << 20, TargetRegistrations: 2, MaxAdjustFactor: 2}
	tests := []struct {
		name                string
		current, regs, want uint64
	}{
		{"at target: unchanged", 1000, 2, 1000},
		{"none: halves", 1000, 0, 500},
		{"one: × 3/4", 1000, 1, 750},
		{"three: × 5/4", 1000, 3, 1250},
		{"four: × 6/4", 1000, 4, 1500},
		{"five: × 7/4", 1000, 5, 1750},
		{"six: × 8/4 = the factor", 1000, 6, 2000},
		{"seven: capped at × 2", 1000, 7, 2000},
		{"a flood: capped at × 2", 1000, math.MaxUint64, 2000},
		{"rounds down", 1001, 1, 750},
		{"halving stops at the floor", 150, 0, 100},
		{"below the floor comes back up", 10, 2, 100},
		{"doubling stops at the ceiling", 1 << 20, 100, 1 << 20},
		{"above the ceiling comes down", 1 << 30, 2, 1 << 20},
	}
	for _, tc := range tests {
		if got := NextDifficulty(tc.current, tc.regs, p); got != tc.want {
			t.Errorf("%s: NextDifficulty(%d, %d) = %d, want %d", tc.name, tc.current, tc.regs, got, tc.want)
		}
	}
}

// TestNextDifficultyFactor: a factor of 4 lets a flood quadruple, and the
// fall with no registration is still a halving (the formula's own floor).
func TestNextDifficultyFactor(t *testing.T) {
	p := Params{MinDifficulty: 1, MaxDifficulty: math.MaxUint64, TargetRegistrations: 1, MaxAdjustFactor: 4}
	for _, tc := range []struct{ regs, want uint64 }{{0, 500}, {1, 1000}, {3, 2000}, {7, 4000}, {8, 4000}, {1 << 40, 4000}} {
		if got := NextDifficulty(1000, tc.regs, p); got != tc.want {
			t.Errorf("factor 4, %d regs: %d, want %d", tc.regs, got, tc.want)
		}
	}
}

// TestNextDifficultyExtremes: no input overflows or panics.
func TestNextDifficultyExtremes(t *testing.T) {
	max := uint64(math.MaxUint64)
	wide := Params{MinDifficulty: 0, MaxDifficulty: max, TargetRegistrations: math.MaxUint32, MaxAdjustFactor: math.MaxUint64}
	tests := []struct {
		name          string
		current, regs uint64
		p             Params
		want          uint64
	}{
		{"max current, max regs, factor 2", max, max, Params{MaxDifficulty: max, TargetRegistrations: 1, MaxAdjustFactor: 2}, max},
		{"max current, no regs", max, 0, Params{MaxDifficulty: max, TargetRegistrations: 1, MaxAdjustFactor: 2}, max / 2},
		{"max everything, huge factor", max, max, wide, max},
		{"max current, at a huge target", max, math.MaxUint32, wide, max},
		{"zero current", 0, max, wide, 0},
		{"zero target and factor are taken as 1", 1000, 5, Params{MaxDifficulty: max}, 1000},
		{"sum of regs and target wraps", 3, max, Params{MaxDifficulty: max, TargetRegistrations: 7, MaxAdjustFactor: math.MaxUint64}, 3952873730080618204}, // ⌊3 × (2^64 + 6) / 14⌋,
	}
	for _, tc := range tests {
		if got := NextDifficulty(tc.current, tc.regs, tc.p); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestAdjustAt(t *testing.T) {
	p := Params{AdjustmentInterval: 100}
	for _, tc := range []struct {
		h    int64
		want bool
	}{{0, false}, {1, false}, {99, false}, {100, true}, {101, false}, {200, true}, {-100, false}} {
		if got := AdjustAt(tc.h, p); got != tc.want {
			t.Errorf("AdjustAt(%d) = %v", tc.h, got)
		}
	}
	if AdjustAt(100, Params{}) {
		t.Error("an interval of 0 adjusts")
	}
}
