package scoring

import (
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// Places is the number of decimal places of every stored or compared value.
const Places int32 = 18

// expFloor is the exponent below which e^y is 0 at 18 places: e^y < 5e-19 for
// every y < ln(5e-19) = -42.1397…, so -43 leaves a margin and the arguments in
// [-43, -42.14) are computed (and round to 0) like any other.
var expFloor = decimal.NewFromInt(-43)

// expCeiling bounds exponents so results stay far inside any sane magnitude.
var expCeiling = decimal.NewFromInt(100)

// expStage is one attempt of Exp: e truncated to len(places) digits (eLow < e <
// eLow + 10^-digits), and the places at which e^y is first computed.
type expStage struct {
	eLow   decimal.Decimal
	places int32
	slack  decimal.Decimal // 2 × 10^-places bounds |e^y - computed| (see Exp)
}

// expStages are tried in order; the second is reached only when e^y lies within
// 2×10^-40 of an 18-place rounding midpoint.
var expStages = [2]expStage{
	{
		eLow:   decimal.RequireFromString("2.7182818284590452353602874713526624977572470936999595749669676277240766303535475945713821785251664274"),
		places: 40,
		slack:  decimal.New(1, -40),
	},
	{
		eLow:   decimal.RequireFromString("2.71828182845904523536028747135266249775724709369995957496696762772407663035354759457138217852516642742746639193200305992181741359662904357290033429526059563073813232862794349076323382988075319525101901"),
		places: 120,
		slack:  decimal.New(1, -120),
	},
}

var (
	// Zero, One and Hundred are shared constants; decimals are immutable values.
	Zero    = decimal.New(0, 0)
	One     = decimal.NewFromInt(1)
	Hundred = decimal.NewFromInt(100)
)

// Sentinel errors of the numeric layer.
var (
	ErrDomain        = errors.New("argument outside the function's domain")
	ErrTooManyPlaces = errors.New("more than 18 decimal places")
	ErrNotNumber     = errors.New("not a decimal number")
	ErrOutOfRange    = errors.New("magnitude of 10^30 or more")
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

// maxIntDigits bounds the integer digits Parse accepts, so that no input can
// make later rescaling allocate without bound.
const maxIntDigits = 30

// Exp returns e^y correctly rounded half away from zero to Places. Below -43
// the result is 0 at 18 places; above 100 it is ErrDomain.
//
// Proof of correct rounding: r = eLow^y computed at p places (PowWithPrecision
// is correctly rounded, so |r - eLow^y| ≤ ½·10^-p), and |e^y - eLow^y| ≤
// e^100 · 100 · 10^-100 < 10^-50 for |y| ≤ 100. So e^y lies strictly inside
// (r - 10^-p, r + 10^-p), and because rounding is monotone, when both ends
// round to the same 18-place value, e^y rounds to it too. If they differ (e^y
// within 2·10^-40 of a midpoint), the second stage repeats with 200 digits of e
// at 120 places; should even that not decide, its rounding of r is returned,
// which is the same on every machine.
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
	if r, ok := expFixed(y); ok {
		return r, nil
	}
	var r decimal.Decimal
	for _, st := range expStages {
		var err error
		r, err = st.eLow.PowWithPrecision(y, st.places)
		if err != nil {
			return Zero, fmt.Errorf("exp(%s): %v: %w", y.String(), err, ErrDomain)
		}
		lo, hi := Round(r.Sub(st.slack)), Round(r.Add(st.slack))
		if lo.Equal(hi) {
			return lo, nil
		}
	}
	return Round(r), nil
}

// Ln returns ln(x) correctly rounded to Places; x must be positive.
func Ln(x decimal.Decimal) (decimal.Decimal, error) {
	if x.Sign() <= 0 {
		return Zero, fmt.Errorf("ln(%s): %w", x.String(), ErrDomain)
	}
	return x.Ln(Places)
}

// powMaxWork bounds |exp| × (|⌊log10|base|⌋| + 1), which bounds the digits of
// the result and so the work of one Pow.
const powMaxWork = 1000

// Pow returns base^exp correctly rounded to Places. A negative base with a
// fractional exponent, 0 to a non-positive power, and |exp| × (|⌊log10|base|⌋| + 1)
// above 1000 (a result of more than about a thousand digits, or an unbounded
// amount of work) are ErrDomain.
func Pow(base, exp decimal.Decimal) (decimal.Decimal, error) {
	if base.Sign() < 0 && !exp.IsInteger() {
		return Zero, fmt.Errorf("pow(%s, %s): negative base with fractional exponent: %w", base.String(), exp.String(), ErrDomain)
	}
	if base.IsZero() && exp.Sign() <= 0 {
		return Zero, fmt.Errorf("pow(%s, %s): %w", base.String(), exp.String(), ErrDomain)
	}
	if !base.IsZero() {
		mag := int64(base.NumDigits()) + int64(base.Exponent()) - 1 // ⌊log10|base|⌋
		if exp.Abs().Cmp(decimal.NewFromInt(powMaxWork/(max(mag, -mag)+1))) > 0 {
			return Zero, fmt.Errorf("pow(%s, %s): result beyond 10^±%d: %w", base.String(), exp.String(), powMaxWork, ErrDomain)
		}
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
// places is ErrTooManyPlaces, never silently rounded, and a magnitude of 10^30
// or more is ErrOutOfRange.
func Parse(s string) (decimal.Decimal, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return Zero, fmt.Errorf("%q: %w", s, ErrNotNumber)
	}
	d, err := decimal.NewFromString(t)
	if err != nil {
		return Zero, fmt.Errorf("%q: %w", s, ErrNotNumber)
	}
	if d.IsZero() {
		return Zero, nil
	}
	if int64(d.NumDigits())+int64(d.Exponent()) > maxIntDigits {
		return Zero, fmt.Errorf("%q: %w", s, ErrOutOfRange)
	}
	if d.Exponent() < -Places {
		// more digits to drop than the coefficient has means a non-zero digit
		// beyond place 18; otherwise Round's work is bounded by the input length
		drop := -int64(d.Exponent()) - int64(Places)
		if drop >= int64(d.NumDigits()) || !d.Equal(Round(d)) {
			return Zero, fmt.Errorf("%q: %w", s, ErrTooManyPlaces)
		}
		d = Round(d)
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
