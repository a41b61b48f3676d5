// Package quorum owns the rule by which validators' votes settle: the
// voting-power quorum and the power-weighted median of their values. Miner
// reports and gas truths use it today; any later decision by the validator
// set (validator-set or parameter proposals) is meant to use the same rule.
//
//   - Quorum: an item is final once the reported power is strictly more than
//     2/3 of the total power; before that it is pending.
//   - Deadline: at the deadline an item is final if strictly more than the
//     Rule's deadline quorum q of the power reported (and its medians are
//     bracketed), else expired. q is a
//     chain parameter in [1/3, 2/3) (NewRule; default 1/2), passed in, never
//     read here. Both comparisons are exact in 128-bit integers (q × 10^18
//     is an integer), so no total power overflows them.
//   - Bracket: a final item's every median v is bracketed: the reports ≤ v
//     and the reports ≥ v each hold at least 1/3 of the total power (exact
//     integers, Bracketed). Else the item is contested: it does not settle.
//     A coalition below 1/3 of the total then cannot move any median
//     outside the honest values, at the deadline or before it. The early
//     quorum always brackets its medians, so only a deadline can contest.
//   - Bound: when the honest reporters hold strictly more than half of the
//     reported power, every median lies within the honest values; at a
//     deadline this holds whenever the adversary holds at most q/2 of the
//     total power (1/4 with the default), at the early quorum 1/3.
//   - Median: each field's value is the power-weighted median; when the
//     cumulative power reaches exactly half, ties resolve downward, and the
//     result is always one of the reported values (never an average).
//   - Order: votes are sorted by validator address before anything is
//     computed, so the outcome does not depend on their arrival order.
//   - Verdict: of settled votes that each name an answer (an earlier
//     submission the reported one copies, 0 for none), the answer is the
//     name whose voters hold strictly more than half of the votes' power
//     and at least 1/3 of the total power, else none. A coalition below 1/3
//     of the total never names an answer alone, at the early quorum or at a
//     deadline (where it can be a majority of the reporters).
//
// It is pure: it imports only the standard library and shopspring/decimal,
// never the rest of the module. Every error wraps ErrInvalidInput and names
// the field and value in an *InputError.
//
//	votes := []quorum.Vote{
//		{Validator: addrA, Power: 40, Values: []decimal.Decimal{decimal.RequireFromString("0.8")}},
//		{Validator: addrB, Power: 30, Values: []decimal.Decimal{decimal.RequireFromString("0.6")}},
//	}
//	out, err := quorum.Aggregate(votes, 100, false, quorum.DefaultRule())
//	// 70 of 100 > 2/3: out.Status == quorum.StatusFinal, out.Values[0] = 0.8
//	// (0.6 holds 30 of 70, less than half; 0.8 brings it to 70 ≥ 35).
//
// The rules and their departures from the seeds are in docs/scoring.md,
// section 6.
package quorum
