package window

import (
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

// fitsPlaces reports whether d has at most scoring.Places decimal places, the
// precision of every value this package stores.
func fitsPlaces(d decimal.Decimal) bool {
	return d.Exponent() >= -scoring.Places || d.Equal(scoring.Round(d))
}
