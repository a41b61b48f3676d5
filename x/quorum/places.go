package quorum

import "github.com/shopspring/decimal"

// Places is the most decimal places a vote's value may carry. It equals
// scoring.Places (checked by a test in x/window, which imports both); this
// package keeps its own copy so that it imports nothing of the module.
const Places int32 = 18

// fitsPlaces reports whether d has at most Places decimal places.
func fitsPlaces(d decimal.Decimal) bool {
	return d.Exponent() >= -Places || d.Equal(d.Round(Places))
}
