package quorum

import "github.com/shopspring/decimal"

// Bracketed reports whether v is bracketed by the reports (values and
// their powers, parallel, powers positive, their sum at most totalPower):
// the power of the reports ≤ v and the power of the reports ≥ v are each at
// least 1/3 of totalPower (3 × power ≥ totalPower, exact in 128 bits).
//
// Why: a coalition holds less than 1/3 of the total power, so if at least
// 1/3 reported ≤ v, some honest validator reported ≤ v; likewise ≥ v. A
// bracketed v lies within [least honest value, greatest honest value],
// whoever the coalition is. Conversely, when v is not bracketed, the
// reports on one side of it hold less than 1/3 and may all be the
// coalition's.
//
// A weighted median m of reported power P > 2/3 × totalPower is always
// bracketed: the reports ≤ m hold at least P/2 (m is the first value whose
// cumulative power reaches half), the reports < m hold less than P/2, so
// the reports ≥ m hold more than P/2; and P/2 > totalPower/3. So the early
// quorum never meets an unbracketed median; only a deadline can.
//
// When P < 2/3 × totalPower, the weighted median is bracketed whenever any
// reported value is: a bracketed value u needs power(< u) ≤ P − T/3 < P/2 and
// power(≤ u) ≥ T/3 > P/2, so u is the median. Settling on the median or not
// at all loses nothing to a rule that could pick another value.
func Bracketed(values []decimal.Decimal, powers []int64, v decimal.Decimal, totalPower int64) bool {
	var below, above int64 // power of the reports ≤ v and ≥ v
	for i, x := range values {
		c := x.Cmp(v)
		if c <= 0 {
			below += powers[i]
		}
		if c >= 0 {
			above += powers[i]
		}
	}
	return atLeastThird(below, totalPower) && atLeastThird(above, totalPower)
}

// atLeastThird reports 3 × p ≥ total for non-negative p and total.
func atLeastThird(p, total int64) bool { return !mulGreater(total, 1, p, 3) }
