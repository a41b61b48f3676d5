package scoring

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/shopspring/decimal"
)

// ulp is one unit in the 18th place.
var ulp = decimal.New(1, -Places)

// CapResult is the outcome of CapWeights: Weights[i] belongs to scores[i].
type CapResult struct {
	Weights     []decimal.Decimal
	Unallocated decimal.Decimal // 1 − ΣWeights, exactly
	Rounds      int             // clip rounds that capped at least one miner
}

// CapWeights turns miners' scores into weights proportional to score with no
// weight above cap, by an exact water-fill: every miner whose proportional
// share exceeds the cap is clipped to it, the rest is re-spread over the others
// in proportion to score, and that repeats until nobody exceeds the cap. Which
// miners are clipped is decided exactly (rest × s > cap × S, no rounding).
//
// What cannot be spread without breaking the cap (fewer than 1/cap miners with a
// positive score) is Unallocated; when every score is 0 nobody earned anything,
// so all of it is Unallocated. Zero scores get weight 0.
//
// Rounding: capped weights are exactly cap; each other weight is rest × s / S
// truncated to 18 places, and the few ulps of dust that truncation leaves go one
// each to the largest truncation remainders, ties to the lower index. So
// ΣWeights + Unallocated == 1 exactly, every weight stays ≤ cap (a weight below
// cap rounds up to at most cap, cap being on the 18-place grid), and a higher
// score never gets a lower weight; equal scores may differ by one ulp.
func CapWeights(scores []decimal.Decimal, cap decimal.Decimal) (CapResult, error) {
	if err := checkCapInputs(scores, cap); err != nil {
		return CapResult{}, err
	}
	n := len(scores)
	res := CapResult{Weights: make([]decimal.Decimal, n), Unallocated: One}
	for i := range res.Weights {
		res.Weights[i] = Zero
	}
	total := Sum(scores)
	if total.IsZero() {
		return res, nil
	}
	order := descendingByScore(scores)
	k, rest, rest0 := 0, One, total
	for !rest0.IsZero() {
		thr := cap.Mul(rest0)
		j := k
		for j < n && rest.Mul(scores[order[j]]).Cmp(thr) > 0 {
			j++
		}
		if j == k {
			break
		}
		for _, i := range order[k:j] {
			rest0 = rest0.Sub(scores[i])
			res.Weights[i] = cap
		}
		k, res.Rounds = j, res.Rounds+1
		rest = One.Sub(cap.Mul(decimal.NewFromInt(int64(k))))
	}
	if rest0.IsZero() {
		res.Unallocated = rest
		return res, nil
	}
	spreadRest(res.Weights, scores, order[k:], rest, rest0)
	res.Unallocated = Zero
	return res, nil
}

// spreadRest sets w[i] = rest × s[i] / sum for i in idx, truncated, plus the dust by
// largest remainder (ties to the lower index), so that Σ w[idx] == rest.
func spreadRest(w, s []decimal.Decimal, idx []int, rest, sum decimal.Decimal) {
	rems := make([]decimal.Decimal, len(s))
	given := Zero
	for _, i := range idx {
		w[i], rems[i] = rest.Mul(s[i]).QuoRem(sum, Places)
		given = given.Add(w[i])
	}
	left := rest.Sub(given).Shift(Places).IntPart()
	if left == 0 {
		return
	}
	byRem := slices.Clone(idx)
	slices.SortFunc(byRem, func(a, b int) int {
		if c := rems[b].Cmp(rems[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	for _, i := range byRem[:left] {
		w[i] = w[i].Add(ulp)
	}
}

// descendingByScore returns the indices of scores from highest to lowest score,
// equal scores by index.
func descendingByScore(scores []decimal.Decimal) []int {
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return scores[b].Cmp(scores[a]) })
	return order
}

func checkCapInputs(scores []decimal.Decimal, cap decimal.Decimal) error {
	if cap.Sign() <= 0 || cap.Cmp(One) > 0 {
		return inputErr("cap", cap.String(), "must be in (0, 1]")
	}
	if err := checkPlaces("cap", cap); err != nil {
		return err
	}
	for i, s := range scores {
		field := fmt.Sprintf("scores[%d]", i)
		if err := checkAmount(field, s, false); err != nil {
			return err
		}
	}
	return nil
}
