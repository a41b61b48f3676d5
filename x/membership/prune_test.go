package membership

import (
	"errors"
	"math"
	"slices"
	"testing"
)

func TestImmune(t *testing.T) {
	p := Params{ImmunityBlocks: 4096}
	tests := []struct {
		reg, height int64
		want        bool
	}{
		{100, 100, true},   // the registering block
		{100, 4195, true},  // its 4096th block
		{100, 4196, false}, // the first one after
		{100, 99, true},    // not registered yet: never a candidate
		{math.MinInt64, math.MaxInt64, false},
		{math.MaxInt64, math.MaxInt64, true},
	}
	for _, tc := range tests {
		c := Candidate{RegisteredHeight: tc.reg}
		if got := Immune(c, tc.height, p); got != tc.want {
			t.Errorf("Immune(reg %d, at %d) = %v, want %v", tc.reg, tc.height, got, tc.want)
		}
	}
	if Immune(Candidate{RegisteredHeight: 100}, 100, Params{}) {
		t.Error("immune with ImmunityBlocks 0")
	}
	if got := ImmuneThrough(100, p); got != 4195 {
		t.Errorf("ImmuneThrough(100) = %d, want 4195", got)
	}
	if got := ImmuneThrough(math.MaxInt64-10, p); got != math.MaxInt64 {
		t.Errorf("ImmuneThrough saturates: %d", got)
	}
	if got := ImmuneFrom(4196, p); got != 101 {
		t.Errorf("ImmuneFrom(4196) = %d, want 101", got)
	}
	if got := ImmuneFrom(math.MinInt64+5, p); got != math.MinInt64 {
		t.Errorf("ImmuneFrom saturates: %d", got)
	}
}

func TestPruneOrder(t *testing.T) {
	c := func(uid uint32, w uint64, h int64) Candidate {
		return Candidate{UID: uid, Weight: w, RegisteredHeight: h}
	}
	tests := []struct {
		name string
		a, b Candidate
		want bool
	}{
		{"lower weight first", c(9, 0, 900), c(1, 1, 1), true},
		{"higher weight after", c(1, 1, 1), c(9, 0, 900), false},
		{"tie: earlier registration first", c(9, 5, 10), c(1, 5, 11), true},
		{"tie: later registration after", c(1, 5, 11), c(9, 5, 10), false},
		{"tie twice: lower uid first", c(1, 5, 10), c(2, 5, 10), true},
		{"tie twice: higher uid after", c(2, 5, 10), c(1, 5, 10), false},
		{"itself: not before", c(1, 5, 10), c(1, 5, 10), false},
	}
	for _, tc := range tests {
		if got := PruneOrder(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: %v", tc.name, got)
		}
		if got := slices.Compare(tc.a.Key(), tc.b.Key()) < 0; got != tc.want {
			t.Errorf("%s: key order %v", tc.name, got)
		}
	}
}

func TestChoose(t *testing.T) {
	p := Params{ImmunityBlocks: 100, MinNonImmune: 2}
	const height = 1000
	old := func(uid uint32, w uint64) Candidate {
		return Candidate{UID: uid, Weight: w, RegisteredHeight: 500 + int64(uid)}
	}
	fresh := func(uid uint32) Candidate { return Candidate{UID: uid, RegisteredHeight: 950} } // immune, weight 0
	tests := []struct {
		name  string
		cands []Candidate
		uid   uint32
		ok    bool
	}{
		{"lowest weight", []Candidate{old(1, 30), old(2, 10), old(3, 20)}, 2, true},
		{"immune newcomers are skipped", []Candidate{fresh(7), old(1, 30), old(2, 10), old(3, 20), fresh(8)}, 2, true},
		{"weight tie: earlier registration", []Candidate{old(3, 10), old(2, 10), old(4, 99)}, 2, true},
		{"height tie too: lower uid", []Candidate{{UID: 6, RegisteredHeight: 5}, {UID: 4, RegisteredHeight: 5}, {UID: 5, RegisteredHeight: 5}}, 4, true},
		{"exactly MinNonImmune + 1 non-immune", []Candidate{fresh(9), old(1, 1), old(2, 2), old(3, 3)}, 1, true},
		{"exactly MinNonImmune non-immune: kept", []Candidate{fresh(9), old(1, 1), old(2, 2)}, 0, false},
		{"all immune", []Candidate{fresh(1), fresh(2), fresh(3), fresh(4)}, 0, false},
		{"none", nil, 0, false},
		{"immune until the last block", []Candidate{{UID: 1, RegisteredHeight: 901}, old(2, 50), old(3, 60), old(4, 70)}, 2, true},
		{"free from the first block after", []Candidate{{UID: 1, RegisteredHeight: 900}, old(2, 50), old(3, 60), old(4, 70)}, 1, true},
	}
	for _, tc := range tests {
		uid, ok := Choose(tc.cands, height, p)
		if uid != tc.uid || ok != tc.ok {
			t.Errorf("%s: Choose = %d, %v; want %d, %v", tc.name, uid, ok, tc.uid, tc.ok)
		}
		sorted := slices.Clone(tc.cands)
		slices.SortFunc(sorted, func(a, b Candidate) int { return slices.Compare(a.Key(), b.Key()) })
		var nonImmune uint64
		for _, c := range tc.cands {
			if !Immune(c, height, p) {
				nonImmune++
			}
		}
		uid, ok = ChooseOrdered(slices.Values(sorted), nonImmune, height, p)
		if uid != tc.uid || ok != tc.ok {
			t.Errorf("%s: ChooseOrdered = %d, %v; want %d, %v", tc.name, uid, ok, tc.uid, tc.ok)
		}
	}
}

// TestChooseOrderedStopsEarly: the ordered form reads no further than the
// first non-immune entry, and refuses without reading when too few are
// non-immune.
func TestChooseOrderedStopsEarly(t *testing.T) {
	p := Params{ImmunityBlocks: 100, MinNonImmune: 1}
	cands := []Candidate{{UID: 1, RegisteredHeight: 990}, {UID: 2, RegisteredHeight: 10}, {UID: 3, Weight: 1, RegisteredHeight: 10}}
	read := 0
	seq := func(yield func(Candidate) bool) {
		for _, c := range cands {
			read++
			if !yield(c) {
				return
			}
		}
	}
	if uid, ok := ChooseOrdered(seq, 2, 1000, p); uid != 2 || !ok || read != 2 {
		t.Fatalf("got %d, %v after reading %d entries; want uid 2 after 2", uid, ok, read)
	}
	read = 0
	if _, ok := ChooseOrdered(seq, 1, 1000, p); ok || read != 0 {
		t.Fatalf("1 non-immune with MinNonImmune 1: ok %v after reading %d", ok, read)
	}
}

func TestPruneKey(t *testing.T) {
	k := PruneKey(0x0102, -1, 7)
	want := []byte{0, 0, 0, 0, 0, 0, 1, 2, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 7}
	if !slices.Equal(k, want) {
		t.Fatalf("PruneKey = %x, want %x", k, want)
	}
	c, err := DecodePruneKey(k)
	if err != nil || c != (Candidate{UID: 7, Weight: 0x0102, RegisteredHeight: -1}) {
		t.Fatalf("DecodePruneKey = %+v, %v", c, err)
	}
	for _, n := range []int{0, 19, 21} {
		var ie *InputError
		if _, err := DecodePruneKey(make([]byte, n)); !errors.As(err, &ie) || ie.Field != "prune_key" {
			t.Errorf("a %d-byte key: %v", n, err)
		}
	}
}
