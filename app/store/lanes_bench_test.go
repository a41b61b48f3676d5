package store

import "testing"

// BenchmarkEntryLanes: the cost of adding one (key, value) entry to the app
// hash (one AES-CTR expansion into 1024 lanes plus the lane additions).
func BenchmarkEntryLanes(b *testing.B) {
	var l Lanes
	x := newExpander()
	k, v := KeySubmission(42), make([]byte, 120)
	for i := 0; i < b.N; i++ {
		l.add(x, k, v)
	}
}
