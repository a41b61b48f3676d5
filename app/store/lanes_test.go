package store

import (
	"encoding/binary"
	"testing"
)

// TestSWARLanes checks the packed lane arithmetic against a naive uint16
// implementation on boundary Lanes (0, 1, 0x7fff, 0x8000, 0xffff).
func TestSWARLanes(t *testing.T) {
	vals := []uint16{0, 1, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff}
	pack := func(a, b, c, d uint16) uint64 {
		return uint64(a) | uint64(b)<<16 | uint64(c)<<32 | uint64(d)<<48
	}
	for _, a := range vals {
		for _, b := range vals {
			x, y := pack(a, b, a, ^b), pack(b, a, ^a, b)
			wantAdd := pack(a+b, b+a, a+^a, ^b+b)
			wantSub := pack(a-b, b-a, a-^a, ^b-b)
			if got := addLanes(x, y); got != wantAdd {
				t.Fatalf("add(%#x, %#x) = %#x, want %#x", x, y, got, wantAdd)
			}
			if got := subLanes(x, y); got != wantSub {
				t.Fatalf("sub(%#x, %#x) = %#x, want %#x", x, y, got, wantSub)
			}
		}
	}
}

// TestLanesMultiset: the hash depends on the set of entries, not the order
// of additions; add then sub restores the previous Lanes; a changed value or
// a key/value split moved by one byte gives a different hash.
func TestLanesMultiset(t *testing.T) {
	var x, y, z Lanes
	x.Add([]byte("a"), []byte("1"))
	x.Add([]byte("b"), []byte("2"))
	y.Add([]byte("b"), []byte("2"))
	y.Add([]byte("a"), []byte("1"))
	if x != y {
		t.Fatal("order of additions changed the Lanes")
	}
	y.Add([]byte("c"), []byte("3"))
	y.Sub([]byte("c"), []byte("3"))
	if x != y {
		t.Fatal("add then sub did not restore the Lanes")
	}
	z.Add([]byte("a"), []byte("1"))
	z.Add([]byte("b"), []byte("3"))
	if x.Sum() == nil || string(x.Sum()) == string(z.Sum()) {
		t.Fatal("a changed value kept the hash")
	}
	var p, q Lanes
	p.Add([]byte("ab"), []byte("c"))
	q.Add([]byte("a"), []byte("bc"))
	if p == q {
		t.Fatal("moving a byte between key and value kept the Lanes")
	}
	if back, err := DecodeLanes(x.Encode()); err != nil || back != x {
		t.Fatal("Lanes do not round-trip through encode/decode")
	}
	if binary.LittleEndian.Uint16(x.Encode()[2:]) != uint16(x[0]>>16) {
		t.Fatal("lane 1 is not bytes 2..3 of the encoding")
	}
}
