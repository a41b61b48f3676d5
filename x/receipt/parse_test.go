package receipt

import "testing"

// TestParseValueStoredMagnitudes: a receipt value the chain can store (a
// 10^33 relative overpayment) reads back; beyond 60 integer digits or 18
// places it does not.
func TestParseValueStoredMagnitudes(t *testing.T) {
	for _, s := range []string{"999999999999999999999999999999999.000000000000000000", "0.000000000000000001", "12"} {
		if _, err := parseValue(s); err != nil {
			t.Errorf("parseValue(%q): %v", s, err)
		}
	}
	for _, s := range []string{"1000000000000000000000000000000000000000000000000000000000000", "1e61", "0.0000000000000000001", "x"} {
		if _, err := parseValue(s); err == nil {
			t.Errorf("parseValue(%q) accepted", s)
		}
	}
}
