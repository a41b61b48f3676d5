package quorum

import (
	"math"
	"sort"

	"github.com/shopspring/decimal"
)

// WeightedMedian returns the voting-power-weighted median of values: in
// ascending order of value, the first value whose cumulative power is at
// least half of the total power (cumulative × 2 ≥ total). When the
// cumulative power reaches exactly half at a value, that lower value is the
// median: ties resolve downward. Values and powers are parallel; every power
// must be positive and their sum must fit in an int64. The inputs are not
// modified, and the result is always one of the values (never an average).
func WeightedMedian(values []decimal.Decimal, powers []int64) (decimal.Decimal, error) {
	if len(values) == 0 {
		return decimal.Decimal{}, inputErr("values", 0, "at least one value is required")
	}
	if len(powers) != len(values) {
		return decimal.Decimal{}, inputErr("powers", len(powers), "must have one power per value")
	}
	total, err := sumPowers(powers)
	if err != nil {
		return decimal.Decimal{}, err
	}
	order := make([]int, len(values))
	for i := range order {
		order[i] = i
	}
	// Stable: equal values keep their input order (the validators' address order in Aggregate).
	sort.SliceStable(order, func(a, b int) bool { return values[order[a]].Cmp(values[order[b]]) < 0 })
	var cum int64
	for _, i := range order {
		cum += powers[i]
		// cum × 2 ≥ total, written so that it cannot overflow.
		if cum >= total-cum {
			return values[i], nil
		}
	}
	panic("quorum: weighted median not reached (powers sum invariant broken)")
}

// sumPowers adds positive powers, failing on a non-positive power or an overflow.
func sumPowers(powers []int64) (int64, error) {
	var total int64
	for i, p := range powers {
		if p <= 0 {
			return 0, inputErr(indexed("power", i), p, "must be positive")
		}
		if total > math.MaxInt64-p {
			return 0, inputErr(indexed("power", i), p, "integer overflow: total power exceeds int64")
		}
		total += p
	}
	return total, nil
}
