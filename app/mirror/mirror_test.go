package mirror

import (
	"slices"
	"testing"
)

// TestInsertSorted: a parent block is added once, in order.
func TestInsertSorted(t *testing.T) {
	var xs []uint64
	for _, v := range []uint64{20, 10, 30, 20, 10, 40, 5} {
		xs = insertSorted(xs, v)
	}
	if want := []uint64{5, 10, 20, 30, 40}; !slices.Equal(xs, want) {
		t.Fatalf("insertSorted = %v, want %v", xs, want)
	}
}

// TestSS58: a hotkey of another size has no address; a 32-byte one has a
// Bittensor (prefix 42) address, which starts with 5.
func TestSS58(t *testing.T) {
	if got := SS58(make([]byte, 31)); got != "" {
		t.Fatalf("SS58 of 31 bytes = %q, want none", got)
	}
	if got := SS58(make([]byte, 32)); len(got) == 0 || got[0] != '5' {
		t.Fatalf("SS58 of 32 zero bytes = %q", got)
	}
}
