package scoring

import (
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// Places is the number of decimal places of every stored or compared value.
const Places int32 = 18

// expFloor is the exponent below which e^y rounds to 0 at 18 places:
// e^-42 ≈ 5.7e-19 < 5e-19 is false, e^-42.2 < 5e-19, so anything below -43 is 0.
var expFloor = decimal.NewFromInt(-43)

// expCeiling bounds exponents so results stay far inside any sane magnitude.
var expCeiling = decimal.NewFromInt(100)

// eConst is Euler's number to 50 significant digits.
var eConst = decimal.RequireFromString("2.7182818284590452353602874713526624977572470937000")

var (
	// Zero, One and Hundred are shared constants; decimals are immutable values.
	Zero    = decimal.Zero
	One     = decimal.NewFromInt(1)
	Hundred = decimal.NewFromInt(100)
)

// Sentinel errors of the numeric layer.
var (
	ErrDomain        = errors.New("argument outside the function's domain")
	ErrTooManyPlaces = errors.New("more than 18 decimal places")
	ErrNotNumber     = errors.New("not a decimal number")
)

// Round rounds x half away from zero to Places.
func Round(x decimal.Decimal) decimal.Decimal { return x.Round(Places) }

// Quo returns a/b rounded half away from zero to Places. b must not be zero:
// every caller validates its divisors first, so a zero here is a broken invariant.
func Quo(a, b decimal.Decimal) decimal.Decimal {
	if b.IsZero() {
		panic("scoring: division by zero (caller must validate divisors)")
	}
	return a.DivRound(b, Places)
}

// Exp returns e^y correctly rounded to Places. Below -43 the result is 0 at 18
// places; above 100 it is ErrDomain.
func Exp(y decimal.Decimal) (decimal.Decimal, error) {
	if y.Cmp(expFloor) < 0 {
		return Zero, nil
	}
	if y.Cmp(expCeiling) > 0 {
		return Zero, fmt.Errorf("exp(%s): %w", y.String(), ErrDomain)
	}
	if y.IsZero() {
		return One, nil
	}
	r, err := eConst.PowWithPrecision(y, Places)
	if err != nil {
		return Zero, fmt.Errorf("exp(%s): %w", y.String(), ErrDomain)
	}
	return r, nil
}

// Ln returns ln(x) correctly rounded to Places; x must be positive.
func Ln(x decimal.Decimal) (decimal.Decimal, error) {
	if x.Sign() <= 0 {
		return Zero, fmt.Errorf("ln(%s): %w", x.String(), ErrDomain)
	}
	return x.Ln(Places)
}

// Pow returns base^exp correctly rounded to Places. A negative base with a
// fractional exponent, and 0 to a non-positive power, are ErrDomain.
func Pow(base, exp decimal.Decimal) (decimal.Decimal, error) {
	if base.Sign() < 0 && !exp.IsInteger() {
		return Zero, fmt.Errorf("pow(%s, %s): negative base with fractional exponent: %w", base.String(), exp.String(), ErrDomain)
	}
	if base.IsZero() && exp.Sign() <= 0 {
		return Zero, fmt.Errorf("pow(%s, %s): %w", base.String(), exp.String(), ErrDomain)
	}
	r, err := base.PowWithPrecision(exp, Places)
	if err != nil {
		return Zero, fmt.Errorf("pow(%s, %s): %v: %w", base.String(), exp.String(), err, ErrDomain)
	}
	return r.Round(Places), nil
}

// Sqrt returns the square root of x correctly rounded to Places; x must not be negative.
func Sqrt(x decimal.Decimal) (decimal.Decimal, error) {
	if x.Sign() < 0 {
		return Zero, fmt.Errorf("sqrt(%s): %w", x.String(), ErrDomain)
	}
	if x.IsZero() {
		return Zero, nil
	}
	r, err := x.SqrtRound(Places)
	if err != nil {
		return Zero, fmt.Errorf("sqrt(%s): %v: %w", x.String(), err, ErrDomain)
	}
	return r, nil
}

// Parse reads a plain decimal ("12", "-0.5", "1.250000000000000000"). Exponent
// notation is accepted only when the value still fits in Places; more than 18
// places is ErrTooManyPlaces, never silently rounded.
func Parse(s string) (decimal.Decimal, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return Zero, fmt.Errorf("%q: %w", s, ErrNotNumber)
	}
	d, err := decimal.NewFromString(t)
	if err != nil {
		return Zero, fmt.Errorf("%q: %w", s, ErrNotNumber)
	}
	if d.Exponent() < -Places && !d.Equal(d.Round(Places)) {
		return Zero, fmt.Errorf("%q: %w", s, ErrTooManyPlaces)
	}
	return d, nil
}

// Format is the canonical text form: fixed-scale with exactly 18 places.
func Format(d decimal.Decimal) string { return d.StringFixed(Places) }

// Clamp01 bounds x to [0, 1].
func Clamp01(x decimal.Decimal) decimal.Decimal { return Clamp(x, Zero, One) }

// Clamp bounds x to [lo, hi].
func Clamp(x, lo, hi decimal.Decimal) decimal.Decimal {
	if x.Cmp(lo) < 0 {
		return lo
	}
	if x.Cmp(hi) > 0 {
		return hi
	}
	return x
}
