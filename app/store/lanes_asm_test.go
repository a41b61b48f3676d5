package store

import (
	"crypto/sha256"
	"encoding/binary"
	"testing"
)

// TestLaneStreamMatchesGeneric: the assembly expansion (where this
// platform has one) adds and subtracts exactly the lanes crypto/aes's CTR
// stream gives, for entries of every length from empty to several SHA-256
// blocks, onto lanes that are not zero (so that carries across lane
// borders are exercised), and the pair leaves the lanes as they were.
func TestLaneStreamMatchesGeneric(t *testing.T) {
	if !laneAsm {
		t.Skip("no assembly lane expansion on this platform: every entry is expanded by crypto/aes")
	}
	defer func() { laneAsm = true }()
	var start Lanes
	for i := range start {
		start[i] = 0xffff_8000_7fff_0001 * uint64(i+1)
	}
	x := newExpander()
	for n := 0; n < 300; n++ {
		k := make([]byte, n%40)
		v := make([]byte, n)
		seed := sha256.Sum256(binary.BigEndian.AppendUint64(nil, uint64(n)))
		copy(k, seed[:])
		for i := range v {
			v[i] = seed[i%len(seed)] ^ byte(i)
		}
		for _, sub := range []bool{false, true} {
			want, got := start, start
			laneAsm = false
			if sub {
				want.sub(x, k, v)
			} else {
				want.add(x, k, v)
			}
			laneAsm = true
			if sub {
				got.sub(x, k, v)
			} else {
				got.add(x, k, v)
			}
			if got != want {
				t.Fatalf("entry %d (key %d bytes, value %d, sub %v): the assembly's lanes differ from crypto/aes's", n, len(k), len(v), sub)
			}
			if sub {
				got.add(x, k, v)
			} else {
				got.sub(x, k, v)
			}
			if got != start {
				t.Fatalf("entry %d: add then sub with the assembly did not restore the lanes", n)
			}
		}
	}
}
