package replay

import (
	"encoding/binary"
	"testing"
)

// BenchmarkDiff100k diffs two 100k-entry states that differ in every tenth entry.
func BenchmarkDiff100k(b *testing.B) {
	before := make([]Entry, 100000)
	after := make([]Entry, 100000)
	for i := range before {
		k := binary.BigEndian.AppendUint64([]byte{0x09}, uint64(i))
		before[i] = Entry{Key: k, Value: []byte{1, 2, 3}}
		after[i] = Entry{Key: k, Value: []byte{1, 2, 3}}
		if i%10 == 0 {
			after[i].Value = []byte{4}
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if n := len(Diff(before, after)); n != 10000 {
			b.Fatalf("%d changes, want 10000", n)
		}
	}
}
