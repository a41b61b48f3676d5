package valset

import (
	"errors"
	"math/rand/v2"
	"testing"
)

func TestHistory(t *testing.T) {
	s1, s2, s3 := mkSet(t, "a:1"), mkSet(t, "a:2"), mkSet(t, "a:3")
	var h History
	if _, ok := h.At(5); ok {
		t.Fatal("an empty history has a set")
	}
	h, _ = h.Record(1, s1)
	h, _ = h.Record(12, s2) // a block at 10 returned updates
	h, err := h.Record(13, s3)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		height int64
		want   Set
		ok     bool
	}{{0, Set{}, false}, {1, s1, true}, {11, s1, true}, {12, s2, true}, {13, s3, true}, {1 << 62, s3, true}}
	for _, tt := range tests {
		got, ok := h.At(tt.height)
		if ok != tt.ok || !got.Equal(tt.want) {
			t.Fatalf("At(%d) = %s, %v; want %s, %v", tt.height, got, ok, tt.want, tt.ok)
		}
	}
	for _, from := range []int64{13, 12, -1} {
		if _, err := h.Record(from, s1); !errors.Is(err, ErrInvalidInput) {
			t.Fatalf("Record(%d) after 13: %v", from, err)
		}
	}
	if _, err := h.Record(20, Set{}); !errors.Is(err, ErrEmptySet) {
		t.Fatalf("Record of the zero Set: %v", err)
	}
	if e, ok := h.Latest(); !ok || e.From != 13 || !e.Set.Equal(s3) {
		t.Fatal("Latest")
	}
	p := h.Prune(12)
	if p.Len() != 2 || h.Len() != 3 {
		t.Fatalf("Prune(12) kept %d, the original has %d", p.Len(), h.Len())
	}
	if p := h.Prune(11); p.Len() != 3 {
		t.Fatalf("Prune(11) kept %d: the set in force at 11 is needed", p.Len())
	}
	if p := h.Prune(100); p.Len() != 1 {
		t.Fatalf("Prune(100) kept %d", p.Len())
	}
}

// naiveAt scans every entry: the last one whose From ≤ height.
func naiveAt(entries []Entry, height int64) (Set, bool) {
	var s Set
	ok := false
	for _, e := range entries {
		if e.From <= height {
			s, ok = e.Set, true
		}
	}
	return s, ok
}

func TestPropertyHistory(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	sets := []Set{mkSet(t, "a:1"), mkSet(t, "a:2"), mkSet(t, "b:3"), mkSet(t, "a:1", "b:1")}
	for round := 0; round < 2000; round++ {
		var h History
		var entries []Entry
		from := r.Int64N(10) - 5
		for n := r.IntN(8); n > 0; n-- {
			s := sets[r.IntN(len(sets))]
			older := h
			var err error
			if h, err = h.Record(from, s); err != nil {
				t.Fatal(err)
			}
			if older.Len() != len(entries) {
				t.Fatal("Record changed the history it was called on")
			}
			entries = append(entries, Entry{from, s})
			from += 1 + r.Int64N(4)
		}
		keep := r.Int64N(from+10) - 8
		pruned := h.Prune(keep)
		for x := int64(-10); x < from+5; x++ {
			want, wok := naiveAt(entries, x)
			got, ok := h.At(x)
			if ok != wok || !got.Equal(want) {
				t.Fatalf("round %d: At(%d) = %s, %v; naive %s, %v", round, x, got, ok, want, wok)
			}
			if x < keep {
				continue
			}
			if got, ok := pruned.At(x); ok != wok || !got.Equal(want) {
				t.Fatalf("round %d: after Prune(%d), At(%d) = %s, %v; want %s, %v", round, keep, x, got, ok, want, wok)
			}
		}
		// Prune keeps nothing a height ≥ keep does not need: at most one
		// entry from before keep.
		before := 0
		for _, e := range pruned.Entries() {
			if e.From < keep {
				before++
			}
		}
		if before > 1 {
			t.Fatalf("round %d: Prune(%d) kept %d entries from before it", round, keep, before)
		}
	}
}
