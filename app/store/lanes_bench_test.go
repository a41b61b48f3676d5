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

// BenchmarkBlockWrites: a block's writes from its overlay to its app hash
// and its badger transaction's order — 12,000 keys (a block of 2,000
// commits), ApplyBlock then the Entries walk Persist makes (the overlay is
// filled untimed), the values
// equal to base's so that no lane is expanded: the listing and sorting
// alone.
func BenchmarkBlockWrites(b *testing.B) {
	base := &mapReader{m: map[string]string{}}
	var keys [][]byte
	for i := 0; i < 12000; i++ {
		k := KeySubmission(uint64(i) * 7919)
		keys = append(keys, k)
		base.m[string(k)] = "value"
	}
	v := []byte("value")
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		o := NewBlockOverlay(base, len(keys))
		for _, k := range keys {
			o.Set(k, v)
		}
		b.StartTimer()
		ApplyBlock(Lanes{}, o)
		n := 0
		o.Entries(func(k, val []byte, del bool) { n += len(k) })
	}
}
