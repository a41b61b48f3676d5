package membership

import "math/bits"

// AdjustAt reports whether the difficulty is adjusted at the end of the
// block at height: every AdjustmentInterval-th height. The registrations
// counted for it are those of the blocks since the previous adjustment
// (this one included).
func AdjustAt(height int64, p Params) bool {
	return p.AdjustmentInterval > 0 && height > 0 && height%p.AdjustmentInterval == 0
}

// NextDifficulty is the difficulty after an interval that accepted
// registrations: current × (registrations + target) / (2 × target), rounded
// down, kept within [current / MaxAdjustFactor, current × MaxAdjustFactor]
// and then within [MinDifficulty, MaxDifficulty]. At the target it stays,
// with none it halves, and a flood at most multiplies it by the factor. It
// is exact integer arithmetic for every input (a factor or target of 0 is
// taken as 1) and never overflows: a result past 2^64 − 1 saturates before
// the clamps.
func NextDifficulty(current, registrations uint64, p Params) uint64 {
	target := uint64(max(p.TargetRegistrations, 1))
	factor := max(p.MaxAdjustFactor, 1)
	next := min(max(ratio(current, registrations, target), current/factor), satMul(current, factor))
	return min(max(next, p.MinDifficulty), p.MaxDifficulty)
}

// ratio is ⌊current × (registrations + target) / (2 × target)⌋, saturated at
// 2^64 − 1. target ≤ 2^32 − 1, so 2 × target fits.
func ratio(current, registrations, target uint64) uint64 {
	sum, carry := bits.Add64(registrations, target, 0)
	hi, lo := bits.Mul64(current, sum)
	if carry != 0 {
		// The sum is 2^64 + sum: add current × 2^64.
		var c uint64
		hi, c = bits.Add64(hi, current, 0)
		if c != 0 {
			return ^uint64(0)
		}
	}
	d := 2 * target
	if hi >= d {
		return ^uint64(0)
	}
	q, _ := bits.Div64(hi, lo, d)
	return q
}

func satMul(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return ^uint64(0)
	}
	return lo
}
