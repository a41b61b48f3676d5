package quorum

import (
	"testing"

	"github.com/shopspring/decimal"
)

// ds parses the decimal literals of a test table.
func ds(t testing.TB, ss ...string) []decimal.Decimal {
	t.Helper()
	out := make([]decimal.Decimal, len(ss))
	for i, s := range ss {
		v, err := decimal.NewFromString(s)
		if err != nil {
			t.Fatalf("bad decimal %q: %v", s, err)
		}
		out[i] = v
	}
	return out
}

// assertDec fails unless got equals want (decimal equality, not text).
func assertDec(t *testing.T, what string, got decimal.Decimal, want string) {
	t.Helper()
	if !got.Equal(decimal.RequireFromString(want)) {
		t.Errorf("%s = %s, want %s", what, got.String(), want)
	}
}
