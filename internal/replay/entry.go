package replay

import (
	"bytes"
	"sort"
)

// Entry is one key/value pair of an application's stored state.
type Entry struct {
	Key   []byte
	Value []byte
}

// Change is one key whose value differs between two states. Old is nil when the key was
// added, New is nil when it was deleted.
type Change struct {
	Key []byte
	Old []byte
	New []byte
}

// SortEntries sorts entries by key, in place.
func SortEntries(es []Entry) {
	sort.Slice(es, func(i, j int) bool { return bytes.Compare(es[i].Key, es[j].Key) < 0 })
}

// Diff returns the changes from before to after; both must be sorted by key with unique keys.
// The result is sorted by key.
func Diff(before, after []Entry) []Change {
	var out []Change
	i, j := 0, 0
	for i < len(before) || j < len(after) {
		switch {
		case j == len(after) || (i < len(before) && bytes.Compare(before[i].Key, after[j].Key) < 0):
			out = append(out, Change{Key: before[i].Key, Old: before[i].Value})
			i++
		case i == len(before) || bytes.Compare(before[i].Key, after[j].Key) > 0:
			out = append(out, Change{Key: after[j].Key, New: after[j].Value})
			j++
		default:
			if !bytes.Equal(before[i].Value, after[j].Value) {
				out = append(out, Change{Key: after[j].Key, Old: before[i].Value, New: after[j].Value})
			}
			i++
			j++
		}
	}
	return out
}
