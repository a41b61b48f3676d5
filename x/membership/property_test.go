package membership

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// extremes are the values the property tests mix into random inputs.
var extremes = []uint64{0, 1, 2, 3, math.MaxUint32, math.MaxUint32 + 1, math.MaxInt64, math.MaxUint64 - 1, math.MaxUint64}

func pick(r *rand.Rand) uint64 {
	switch r.IntN(4) {
	case 0:
		return extremes[r.IntN(len(extremes))]
	case 1:
		return r.Uint64N(1 << 12)
	case 2:
		return r.Uint64() >> r.UintN(64)
	default:
		return r.Uint64()
	}
}

// nextDifficultyBig is the rule of NextDifficulty, written the naive way
// with big integers: no overflow can happen, so it is the reference.
func nextDifficultyBig(current, regs uint64, p Params) uint64 {
	target := new(big.Int).SetUint64(uint64(max(p.TargetRegistrations, 1)))
	factor := new(big.Int).SetUint64(max(p.MaxAdjustFactor, 1))
	cur := new(big.Int).SetUint64(current)
	num := new(big.Int).Mul(cur, new(big.Int).Add(new(big.Int).SetUint64(regs), target))
	next := num.Div(num, new(big.Int).Mul(big.NewInt(2), target))
	lower := new(big.Int).Div(cur, factor)
	upper := new(big.Int).Mul(cur, factor)
	if next.Cmp(lower) < 0 {
		next = lower
	}
	if next.Cmp(upper) > 0 {
		next = upper
	}
	if lo := new(big.Int).SetUint64(p.MinDifficulty); next.Cmp(lo) < 0 {
		next = lo
	}
	if hi := new(big.Int).SetUint64(p.MaxDifficulty); next.Cmp(hi) > 0 {
		next = hi
	}
	return next.Uint64()
}

// TestPropertyNextDifficulty: NextDifficulty equals the big-integer rule for
// random and extreme inputs (whatever the params, valid or not), stays in
// [min, max] when min ≤ max, moves by at most the factor before the clamps,
// and is monotone in the registrations.
func TestPropertyNextDifficulty(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 1))
	for round := 0; round < 100_000; round++ {
		p := Params{
			MinDifficulty:       pick(r),
			MaxDifficulty:       pick(r),
			TargetRegistrations: uint32(pick(r)),
			MaxAdjustFactor:     pick(r),
		}
		if r.IntN(2) == 0 { // mostly sane bounds, some inverted ones
			p.MinDifficulty, p.MaxDifficulty = min(p.MinDifficulty, p.MaxDifficulty), max(p.MinDifficulty, p.MaxDifficulty)
		}
		current, regs := pick(r), pick(r)
		got := NextDifficulty(current, regs, p)
		if want := nextDifficultyBig(current, regs, p); got != want {
			t.Fatalf("round %d: NextDifficulty(%d, %d, %+v) = %d, big = %d", round, current, regs, p, got, want)
		}
		if p.MinDifficulty <= p.MaxDifficulty && (got < p.MinDifficulty || got > p.MaxDifficulty) {
			t.Fatalf("round %d: %d outside [%d, %d]", round, got, p.MinDifficulty, p.MaxDifficulty)
		}
		if regs < math.MaxUint64 && NextDifficulty(current, regs+1, p) < got {
			t.Fatalf("round %d: one more registration lowered the difficulty", round)
		}
		wide := Params{MaxDifficulty: math.MaxUint64, TargetRegistrations: p.TargetRegistrations, MaxAdjustFactor: p.MaxAdjustFactor}
		f := max(p.MaxAdjustFactor, 1)
		if n := NextDifficulty(current, regs, wide); n < current/f || (current <= math.MaxUint64/f && n > current*f) {
			t.Fatalf("round %d: %d → %d moved by more than the factor %d", round, current, n, f)
		}
	}
}
