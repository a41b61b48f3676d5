package quorum

import (
	"math/big"

	"github.com/shopspring/decimal"
)

// scale is 10^Places: a deadline quorum of at most 18 places times scale is
// an exact integer.
const scale uint64 = 1_000_000_000_000_000_000

// Bounds of the deadline quorum q, as q × 10^18 (exact): 3q ≥ 1 and 3q < 2.
// No decimal equals 1/3 or 2/3, so the smallest allowed q is
// 0.333333333333333334 and the largest 0.666666666666666666.
const (
	minDeadlineScaled uint64 = scale/3 + 1   // the least n with 3n ≥ 10^18
	maxDeadlineScaled uint64 = 2 * scale / 3 // the greatest n with 3n < 2 × 10^18
)

// Rule is how votes settle, apart from what they vote on: final as soon as
// strictly more than 2/3 of the total power reported (fixed), and at the
// deadline final with strictly more than DeadlineQuorum of the total power,
// else expired. Make one with NewRule or DefaultRule; the zero Rule is
// refused by Aggregate.
type Rule struct {
	deadline decimal.Decimal
	scaled   uint64 // deadline × 10^18, exact
}

// NewRule checks the deadline quorum q and returns its rule. q must have at
// most 18 places and lie in [1/3, 2/3): 3q ≥ 1 and 3q < 2, exactly.
//
// Why these bounds (docs/scoring.md §6.5): below 1/3 the deadline would let
// less power settle an item than the rule it replaced; at 2/3 or above the
// deadline could settle nothing that the early quorum does not, and an item
// would expire with all but a sliver of the quorum reported.
func NewRule(deadlineQuorum decimal.Decimal) (Rule, error) {
	q := deadlineQuorum
	if !fitsPlaces(q) {
		return Rule{}, inputErr("deadline_quorum", q.String(), "more than 18 decimal places")
	}
	n := q.Shift(Places).BigInt() // exact: q has at most 18 places
	if n.Cmp(new(big.Int).SetUint64(minDeadlineScaled)) < 0 || n.Cmp(new(big.Int).SetUint64(maxDeadlineScaled)) > 0 {
		return Rule{}, inputErr("deadline_quorum", q.String(), "must be in [1/3, 2/3): 3q ≥ 1 and 3q < 2")
	}
	return Rule{deadline: q, scaled: n.Uint64()}, nil
}

// DefaultRule has the deadline quorum 1/2: at a deadline an item settles
// only with strictly more than half of the total power reported.
func DefaultRule() Rule {
	r, err := NewRule(decimal.New(5, -1))
	if err != nil {
		panic("quorum: the default deadline quorum is out of range: " + err.Error())
	}
	return r
}

// DeadlineQuorum is the fraction of the total power that must be strictly
// exceeded at a deadline.
func (r Rule) DeadlineQuorum() decimal.Decimal { return r.deadline }

// Status applies the rule to reported of total power (0 ≤ reported ≤
// total): final when reported × 3 > total × 2; else pending before the
// deadline; at it, final when reported × 10^18 > total × q × 10^18, else
// expired. Every product is exact in 128 bits.
func (r Rule) Status(reported, total int64, atDeadline bool) Status {
	switch {
	case mulGreater(reported, 3, total, 2):
		return StatusFinal
	case !atDeadline:
		return StatusPending
	case mulGreater(reported, scale, total, r.scaled):
		return StatusFinal
	default:
		return StatusExpired
	}
}

// valid reports whether r was made by NewRule (the zero Rule is not).
func (r Rule) valid() bool { return r.scaled >= minDeadlineScaled && r.scaled <= maxDeadlineScaled }
