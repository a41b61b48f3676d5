package quorum

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"sort"

	"github.com/shopspring/decimal"
)

// Vote is one validator's report on one item (a submission's measured
// fields, or a gas truth): one value per measured field, in a fixed order
// that the track defines.
type Vote struct {
	Validator []byte
	Power     int64
	Values    []decimal.Decimal
}

// Outcome is the result of aggregating an item's votes.
type Outcome struct {
	Status Status
	// Values holds one weighted median per field when Status is final, else nil.
	Values []decimal.Decimal
	// Unbracketed lists, in field order, the fields whose median was not
	// bracketed when Status is contested, else nil.
	Unbracketed   []int
	ReportedPower int64
	TotalPower    int64
	// Reporters is the number of distinct validators that reported.
	Reporters int
}

// Aggregate turns the votes of distinct validators on one item into the
// values that count. Votes are ordered by validator address first, so the
// result does not depend on their arrival order. The item is final once the
// reported power is strictly more than 2/3 of totalPower; at the deadline it
// is final if the reported power is strictly more than rule's deadline
// quorum of totalPower, else expired; otherwise it is pending (Rule.Status).
// Each field's value is WeightedMedian over the votes. A final item is
// contested instead when some field's median is not bracketed (Bracketed):
// this can only happen at the deadline, since a median of more than 2/3 of
// the power is always bracketed.
//
// Errors: the zero Rule, totalPower ≤ 0, an empty validator address, a
// duplicate validator, a non-positive power, reported power above
// totalPower, votes with no values or with different numbers of values, a
// value with more than 18 places.
func Aggregate(votes []Vote, totalPower int64, atDeadline bool, rule Rule) (Outcome, error) {
	if !rule.valid() {
		return Outcome{}, inputErr("rule", "(zero)", "make the rule with NewRule or DefaultRule")
	}
	if totalPower <= 0 {
		return Outcome{}, inputErr("totalPower", totalPower, "must be positive")
	}
	sorted, err := sortVotes(votes)
	if err != nil {
		return Outcome{}, err
	}
	powers := make([]int64, len(sorted))
	for i, v := range sorted {
		powers[i] = v.Power
	}
	reported, err := sumPowers(powers)
	if err != nil {
		return Outcome{}, err
	}
	if reported > totalPower {
		return Outcome{}, inputErr("reportedPower", reported, fmt.Sprintf("exceeds total power %d", totalPower))
	}
	out := Outcome{ReportedPower: reported, TotalPower: totalPower, Reporters: len(sorted)}
	out.Status = rule.Status(reported, totalPower, atDeadline)
	if out.Status != StatusFinal {
		return out, nil
	}
	values, unbracketed, err := fieldMedians(sorted, powers, totalPower)
	if err != nil {
		return Outcome{}, err
	}
	if len(unbracketed) > 0 {
		out.Status, out.Unbracketed = StatusContested, unbracketed
		return out, nil
	}
	out.Values = values
	return out, nil
}

// sortVotes copies the votes, orders them by address and checks each one.
func sortVotes(votes []Vote) ([]Vote, error) {
	sorted := make([]Vote, len(votes))
	copy(sorted, votes)
	sort.SliceStable(sorted, func(i, j int) bool { return bytes.Compare(sorted[i].Validator, sorted[j].Validator) < 0 })
	for i, v := range sorted {
		if len(v.Validator) == 0 {
			return nil, inputErr("validator", "\"\"", "address must not be empty")
		}
		if i > 0 && bytes.Equal(sorted[i-1].Validator, v.Validator) {
			return nil, inputErr("validator", hex.EncodeToString(v.Validator), "reported twice on the same item")
		}
		if err := checkValues(v, len(sorted[0].Values)); err != nil {
			return nil, err
		}
	}
	return sorted, nil
}

// checkValues checks one vote's values against the expected field count.
func checkValues(v Vote, fields int) error {
	addr := hex.EncodeToString(v.Validator)
	if len(v.Values) == 0 {
		return inputErr("values", addr, "a vote must carry at least one value")
	}
	if len(v.Values) != fields {
		return inputErr("values", addr, fmt.Sprintf("has %d values, other votes have %d", len(v.Values), fields))
	}
	for i, x := range v.Values {
		if !fitsPlaces(x) {
			return inputErr(indexed("values", i), x.String(), "more than 18 decimal places (validator "+addr+")")
		}
	}
	return nil
}

// fieldMedians computes the weighted median of every field over
// address-sorted votes, and lists the fields whose median is not bracketed
// in totalPower.
func fieldMedians(sorted []Vote, powers []int64, totalPower int64) ([]decimal.Decimal, []int, error) {
	fields := len(sorted[0].Values)
	out := make([]decimal.Decimal, fields)
	var unbracketed []int
	column := make([]decimal.Decimal, len(sorted))
	for f := 0; f < fields; f++ {
		for i, v := range sorted {
			column[i] = v.Values[f]
		}
		m, err := WeightedMedian(column, powers)
		if err != nil {
			return nil, nil, err
		}
		out[f] = m
		if !Bracketed(column, powers, m, totalPower) {
			unbracketed = append(unbracketed, f)
		}
	}
	return out, unbracketed, nil
}
