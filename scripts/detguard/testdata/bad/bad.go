// Package bad holds one of each construct the determinism guard must reject.
package bad

import (
	"math/rand"
	"sort"
	"time"

	"github.com/shopspring/decimal"
)

func all(m map[string]int, a, b decimal.Decimal) {
	var f float64 = 1
	_ = f
	_ = time.Now()
	go func() {}()
	for k := range m {
		_ = k
	}
	keys := make([]string, 0, len(m))
	// det: sorted
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	_ = a.Div(b)
	_ = decimal.NewFromFloat(0.5)
	_, _ = a.ExpTaylor(18)
	decimal.DivisionPrecision = 30
	_ = a.DivRound(b, 18)
	_ = decimal.Zero
	_, _ = a.PowWithPrecision(b, 18)
	_ = rand.Int()
}
