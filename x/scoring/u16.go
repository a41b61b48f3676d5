package scoring

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/shopspring/decimal"
)

// U16Total is what a u16 weight vector sums to.
const U16Total = 65535

// U16Weight is one entry of a parent-chain weight vector.
type U16Weight struct {
	UID    uint16
	Weight uint16
}

// ToU16 converts weights (weights[i] for uids[i]) and the unallocated residual
// into u16 weights summing to exactly 65535, sorted by uid. The unallocated part
// goes to burnUID. burnUID may also be a miner's uid (for example the subnet
// owner's): its miner weight and the residual are then added before the
// conversion. The burn entry appears when the residual is positive or burnUID is
// a miner; every miner uid appears, with weight 0 if it earned nothing.
//
// Each quota is amount × 65535 (exact); every uid gets its floor, and the units
// still missing go one each to the largest remainders, ties to the lower uid.
// The inputs must be a split of exactly 1: unique uids, non-negative amounts,
// ΣWeights + unallocated == 1.
func ToU16(uids []uint16, weights []decimal.Decimal, unallocated decimal.Decimal, burnUID uint16) ([]U16Weight, error) {
	amounts, err := u16Amounts(uids, weights, unallocated, burnUID)
	if err != nil {
		return nil, err
	}
	keys := make([]uint16, 0, len(amounts))
	// det: sorted
	for u := range amounts {
		keys = append(keys, u)
	}
	slices.Sort(keys)
	total := decimal.NewFromInt(U16Total)
	out := make([]U16Weight, len(keys))
	rems := make([]decimal.Decimal, len(keys))
	var given int64
	for i, u := range keys {
		q := amounts[u].Mul(total)
		f := q.Floor()
		out[i] = U16Weight{UID: u, Weight: uint16(f.IntPart())}
		rems[i] = q.Sub(f)
		given += f.IntPart()
	}
	byRem := make([]int, len(keys))
	for i := range byRem {
		byRem[i] = i
	}
	slices.SortFunc(byRem, func(a, b int) int {
		if c := rems[b].Cmp(rems[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b) // keys are sorted, so index order is uid order
	})
	for _, i := range byRem[:U16Total-given] {
		out[i].Weight++
	}
	return out, nil
}

// u16Amounts checks the split and merges the residual into burnUID's amount.
func u16Amounts(uids []uint16, weights []decimal.Decimal, unallocated decimal.Decimal, burnUID uint16) (map[uint16]decimal.Decimal, error) {
	if len(uids) != len(weights) {
		return nil, inputErr("weights", strconv.Itoa(len(weights)), fmt.Sprintf("want one weight per uid (%d uids)", len(uids)))
	}
	if err := checkAmount("unallocated", unallocated, false); err != nil {
		return nil, err
	}
	amounts := make(map[uint16]decimal.Decimal, len(uids)+1)
	sum := unallocated
	for i, u := range uids {
		if _, dup := amounts[u]; dup {
			return nil, inputErr(fmt.Sprintf("uids[%d]", i), strconv.Itoa(int(u)), "duplicate uid")
		}
		if err := checkAmount(fmt.Sprintf("weights[%d]", i), weights[i], false); err != nil {
			return nil, err
		}
		amounts[u] = weights[i]
		sum = sum.Add(weights[i])
	}
	if !sum.Equal(One) {
		return nil, inputErr("weights", Format(sum), "weights + unallocated must be exactly 1")
	}
	if w, isMiner := amounts[burnUID]; isMiner || unallocated.Sign() > 0 {
		if !isMiner {
			w = Zero
		}
		amounts[burnUID] = w.Add(unallocated)
	}
	return amounts, nil
}
