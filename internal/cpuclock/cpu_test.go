package cpuclock

import "testing"

// TestProcessMoves: some work moves the clock forward, never back.
func TestProcessMoves(t *testing.T) {
	if !Measured {
		t.Skip("not measured on this platform")
	}
	before := Process()
	x := 0
	for i := range 20_000_000 {
		x += i % 7
	}
	after := Process()
	if after < before || x == 0 {
		t.Fatalf("Process went from %v to %v", before, after)
	}
}
