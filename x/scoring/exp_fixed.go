package scoring

import (
	"math/big"

	"github.com/shopspring/decimal"
)

// Fast first stage of Exp in binary fixed point.
//
// y is split as n + j/256 + g with n = ⌊y⌋ ∈ [-43, 100], j ∈ [0, 255] and 0 ≤ g < 1/256, so
// e^y = e^n · e^(j/256) · e^g. The first two factors come from tables built once at package
// initialisation; e^g is a Taylor series that needs about 22 terms. Every value is an integer
// scaled by 2^expFrac. Each truncating step (table construction included) loses less than one
// unit in the last place relative to its operands, and fewer than 600 such steps reach any result,
// so the computed R satisfies |R − e^y| < R·2^-240 + 2^-240 (conservatively, with ample margin:
// 600 units of 2^-256 relative error is below 2^-246). When R ± that bound round to the same
// 18-place value, e^y rounds to it; otherwise Exp falls back to its decimal stages.
const expFrac = 256

var (
	expOneFixed = new(big.Int).Lsh(big.NewInt(1), expFrac)
	expIntTab   [144]*big.Int // e^n for n = -43 … 100
	expFracTab  [256]*big.Int // e^(j/256)
	expTen18    = new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)
)

func init() {
	e := expTaylorFixed(new(big.Int).Set(expOneFixed))
	inv := new(big.Int).Lsh(big.NewInt(1), 2*expFrac)
	inv.Quo(inv, e)
	expIntTab[43] = new(big.Int).Set(expOneFixed)
	for n := 1; n <= 100; n++ {
		expIntTab[43+n] = fixedMul(expIntTab[43+n-1], e)
	}
	for n := 1; n <= 43; n++ {
		expIntTab[43-n] = fixedMul(expIntTab[43-n+1], inv)
	}
	step := expTaylorFixed(new(big.Int).Rsh(expOneFixed, 8)) // e^(1/256)
	expFracTab[0] = new(big.Int).Set(expOneFixed)
	for j := 1; j < 256; j++ {
		expFracTab[j] = fixedMul(expFracTab[j-1], step)
	}
}

// fixedMul returns a·b / 2^expFrac, truncated.
func fixedMul(a, b *big.Int) *big.Int {
	r := new(big.Int).Mul(a, b)
	return r.Rsh(r, expFrac)
}

// expTaylorFixed returns e^(x / 2^expFrac) for 0 ≤ x ≤ 2^expFrac, scaled by 2^expFrac, by its
// Taylor series; the series stops when a term truncates to zero.
func expTaylorFixed(x *big.Int) *big.Int {
	sum := new(big.Int).Set(expOneFixed)
	term := new(big.Int).Set(expOneFixed)
	k := new(big.Int)
	for i := int64(1); ; i++ {
		term.Mul(term, x)
		term.Rsh(term, expFrac)
		term.Quo(term, k.SetInt64(i))
		if term.Sign() == 0 {
			return sum
		}
		sum.Add(sum, term)
	}
}

// expFixed tries the fast stage for -43 ≤ y ≤ 100; ok is false when the error bound straddles an
// 18-place rounding boundary.
func expFixed(y decimal.Decimal) (decimal.Decimal, bool) {
	n := y.Floor()
	f := y.Sub(n) // 0 ≤ f < 1, exact
	ni := n.IntPart()
	if ni < -43 || ni > 100 {
		return decimal.Decimal{}, false
	}
	// F = ⌊f · 2^expFrac⌋ from f's exact coefficient and exponent.
	F := new(big.Int).Lsh(f.Coefficient(), expFrac)
	if ex := f.Exponent(); ex < 0 {
		F.Quo(F, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-ex)), nil))
	} else if ex > 0 {
		F.Mul(F, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(ex)), nil))
	}
	j := new(big.Int).Rsh(F, expFrac-8).Int64()
	g := new(big.Int).Sub(F, new(big.Int).Lsh(big.NewInt(j), expFrac-8))
	r := fixedMul(expIntTab[43+ni], expFracTab[j])
	r = fixedMul(r, expTaylorFixed(g))
	bound := new(big.Int).Rsh(r, 240)
	bound.Add(bound, new(big.Int).Lsh(big.NewInt(1), expFrac-240))
	lo := roundFixed18(new(big.Int).Sub(r, bound))
	hi := roundFixed18(new(big.Int).Add(r, bound))
	if lo.Cmp(hi) != 0 {
		return decimal.Decimal{}, false
	}
	return decimal.NewFromBigInt(lo, -Places), true
}

// roundFixed18 returns x / 2^expFrac rounded half up to 18 places, as an integer count of 10^-18.
func roundFixed18(x *big.Int) *big.Int {
	if x.Sign() < 0 {
		x.SetInt64(0)
	}
	q := new(big.Int).Mul(x, expTen18)
	q.Add(q, new(big.Int).Lsh(big.NewInt(1), expFrac-1))
	return q.Rsh(q, expFrac)
}
