package scoring

import (
	"math/big"
	"slices"
	"strconv"

	"github.com/shopspring/decimal"
)

// varianceGuard is the number of places at which an exact variance is truncated before its
// square root is taken. floor(sqrt(floor(v·10^38))) = floor(sqrt(v)·10^19), so SqrtRound at 18
// places of the truncated variance is the correctly rounded root of the exact variance.
const varianceGuard int32 = 2*Places + 2

// Sum adds xs exactly; the sum of no values is 0.
func Sum(xs []decimal.Decimal) decimal.Decimal {
	s, _ := moments(xs, false)
	return s
}

// Mean is Sum(xs)/n rounded to Places (one rounding point). An empty sample is an InputError.
func Mean(xs []decimal.Decimal) (decimal.Decimal, error) {
	if err := needAtLeast(xs, 1); err != nil {
		return Zero, err
	}
	s, _ := moments(xs, false)
	return Quo(s, decimal.NewFromInt(int64(len(xs)))), nil
}

// PStdev is the population standard deviation: the square root of the exact variance
// Σ(x−μ)²/n, correctly rounded to Places (one rounding point). Needs n ≥ 1.
func PStdev(xs []decimal.Decimal) (decimal.Decimal, error) {
	if err := needAtLeast(xs, 1); err != nil {
		return Zero, err
	}
	n := decimal.NewFromInt(int64(len(xs)))
	return rootOfRatio(scaledSquares(xs), n.Mul(n))
}

// Stdev is the sample standard deviation: the square root of the exact variance Σ(x−μ)²/(n−1),
// correctly rounded to Places (one rounding point). Needs n ≥ 2.
func Stdev(xs []decimal.Decimal) (decimal.Decimal, error) {
	if err := needAtLeast(xs, 2); err != nil {
		return Zero, err
	}
	n := decimal.NewFromInt(int64(len(xs)))
	return rootOfRatio(scaledSquares(xs), n.Mul(n.Sub(One)))
}

// Median is the middle value of the sorted sample, or the mean of the two middle values,
// rounded to Places (the halving is the only rounding point). Needs n ≥ 1.
func Median(xs []decimal.Decimal) (decimal.Decimal, error) {
	if err := needAtLeast(xs, 1); err != nil {
		return Zero, err
	}
	return medianSorted(sortedCopy(xs)), nil
}

// medianSorted is the median of a sorted, non-empty sample.
func medianSorted(s []decimal.Decimal) decimal.Decimal {
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return Quo(s[m-1].Add(s[m]), decimal.NewFromInt(2))
}

// Quartiles are the three cut points of Python's statistics.quantiles(xs, n=4) with its default
// 'exclusive' method, each rounded to Places. Needs n ≥ 2.
func Quartiles(xs []decimal.Decimal) ([3]decimal.Decimal, error) {
	var q [3]decimal.Decimal
	if err := needAtLeast(xs, 2); err != nil {
		return q, err
	}
	s := sortedCopy(xs)
	ld := int64(len(s))
	four := decimal.NewFromInt(4)
	for i := int64(1); i <= 3; i++ {
		j := min(max(i*(ld+1)/4, 1), ld-1)
		delta := i*(ld+1) - j*4
		lo := s[j-1].Mul(decimal.NewFromInt(4 - delta))
		hi := s[j].Mul(decimal.NewFromInt(delta))
		q[i-1] = Quo(lo.Add(hi), four)
	}
	return q, nil
}

// scaledSquares returns n·Σx² − (Σx)², which is n² times the population variance, exactly.
func scaledSquares(xs []decimal.Decimal) decimal.Decimal {
	s, sq := moments(xs, true)
	return decimal.NewFromInt(int64(len(xs))).Mul(sq).Sub(s.Mul(s))
}

// moments returns Σx and, when squares is set, Σx², exactly. It accumulates the coefficients
// at the smallest exponent of the sample in place, which allocates far less than chained Adds.
func moments(xs []decimal.Decimal, squares bool) (sum, sumSq decimal.Decimal) {
	if len(xs) == 0 {
		return Zero, Zero
	}
	e := xs[0].Exponent()
	for _, x := range xs[1:] {
		e = min(e, x.Exponent())
	}
	var s, q, c, sq big.Int
	for _, x := range xs {
		if x.NumDigits() <= 18 {
			c.SetInt64(x.CoefficientInt64()) // fits: no copy of the coefficient
		} else {
			c.Set(x.Coefficient())
		}
		if k := int64(x.Exponent()) - int64(e); k > 0 {
			c.Mul(&c, pow10Big(k))
		}
		s.Add(&s, &c)
		if squares {
			q.Add(&q, sq.Mul(&c, &c))
		}
	}
	return decimal.NewFromBigInt(&s, e), decimal.NewFromBigInt(&q, 2*e)
}

// pow10Table holds 10^0 … 10^40, read only, for the common rescalings of moments.
var pow10Table = func() [41]*big.Int {
	var t [41]*big.Int
	for i := range t {
		t[i] = new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(i)), nil)
	}
	return t
}()

func pow10Big(k int64) *big.Int {
	if k < int64(len(pow10Table)) {
		return pow10Table[k]
	}
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(k), nil)
}

// rootOfRatio is sqrt(num/den) correctly rounded to Places, for num ≥ 0 and den > 0.
func rootOfRatio(num, den decimal.Decimal) (decimal.Decimal, error) {
	q, _ := num.QuoRem(den, varianceGuard)
	return Sqrt(q)
}

func sortedCopy(xs []decimal.Decimal) []decimal.Decimal {
	s := slices.Clone(xs)
	slices.SortStableFunc(s, func(a, b decimal.Decimal) int { return a.Cmp(b) })
	return s
}

func needAtLeast(xs []decimal.Decimal, n int) error {
	if len(xs) < n {
		return inputErr("sample", "n="+strconv.Itoa(len(xs)), "needs at least "+strconv.Itoa(n)+" values")
	}
	return nil
}
