package wire

import (
	"errors"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

// Bounds on transaction fields, far beyond any honest value, so that every
// formula stays in range and every count fits its sums.
const (
	// MaxCount bounds every count (steps, tokens, retries, ...).
	MaxCount int64 = 1_000_000_000_000
)

// maxAmount bounds every decimal amount (budget, cost, seconds, price).
var MaxAmount = decimal.New(1, 15)

// ArtifactHashSize is the length of an artifact hash (SHA-256).
const ArtifactHashSize = 32

// parseDec parses a decimal field: code 14 for text that is not a number,
// 15 for more than 18 places, 16 for a magnitude beyond scoring's range.
func ParseDec(field, s string) (decimal.Decimal, *TxError) {
	d, err := scoring.Parse(s)
	switch {
	case err == nil:
		return d, nil
	case errors.Is(err, scoring.ErrTooManyPlaces):
		return d, Reject(CodeTooManyPlaces, fmt.Sprintf("%s = %q: more than 18 decimal places", field, s))
	case errors.Is(err, scoring.ErrNotNumber):
		return d, Reject(CodeNotNumber, fmt.Sprintf("%s = %q: not a decimal number", field, s))
	default:
		return d, Reject(CodeDecimalRange, fmt.Sprintf("%s = %q: %v", field, s, err))
	}
}

// decRange parses s and checks lo ≤ d ≤ hi (lo excluded when positive is set).
func DecRange(field, s string, lo, hi decimal.Decimal, positive bool) (decimal.Decimal, *TxError) {
	d, terr := ParseDec(field, s)
	if terr != nil {
		return d, terr
	}
	if positive && d.Sign() <= 0 {
		return d, Reject(CodeDecimalRange, fmt.Sprintf("%s = %s: must be positive", field, s))
	}
	if d.Cmp(lo) < 0 || d.Cmp(hi) > 0 {
		return d, Reject(CodeDecimalRange, fmt.Sprintf("%s = %s: must be in [%s, %s]", field, s, lo, hi))
	}
	return d, nil
}

// amount is a non-negative decimal up to maxAmount.
func Amount(field, s string) (decimal.Decimal, *TxError) {
	return DecRange(field, s, scoring.Zero, MaxAmount, false)
}

// positiveAmount is a positive decimal up to maxAmount.
func PositiveAmount(field, s string) (decimal.Decimal, *TxError) {
	return DecRange(field, s, scoring.Zero, MaxAmount, true)
}

// fraction is a decimal in [0, 1].
func Fraction(field, s string) (decimal.Decimal, *TxError) {
	return DecRange(field, s, scoring.Zero, scoring.One, false)
}

// count checks 0 ≤ n ≤ MaxCount (min 1 when positive is set).
func Count(field string, n int64, positive bool) *TxError {
	if n < 0 {
		return Reject(CodeNegativeCount, fmt.Sprintf("%s = %d: must not be negative", field, n))
	}
	if positive && n == 0 {
		return Reject(CodeCountRange, fmt.Sprintf("%s = 0: must be at least 1", field))
	}
	if n > MaxCount {
		return Reject(CodeCountRange, fmt.Sprintf("%s = %d: must be at most %d", field, n, MaxCount))
	}
	return nil
}

// firstErr returns the first rejection of a list of checks.
func FirstErr(errs ...*TxError) *TxError {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
