package sigverify

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"fmt"
	"io"
	"testing"

	"github.com/oasisprotocol/curve25519-voi/curve"
)

// smallOrderEncodings are the 14 encodings of points of small order that
// ZIP-215 lists: the 8 canonical ones, and 6 non-canonical ones (y + p for
// y ∈ {0, 1} with either sign bit, and the sign bit set where x = 0).
func smallOrderEncodings(t *testing.T) [][]byte {
	t.Helper()
	var out [][]byte
	for _, p := range curve.EIGHT_TORSION {
		var c curve.CompressedEdwardsY
		c.SetEdwardsPoint(p)
		out = append(out, append([]byte(nil), c[:]...))
	}
	le := func(lastByte byte, first byte) []byte { // p + δ, little-endian: 0xed+δ, 0xff…, 0x7f
		b := bytes.Repeat([]byte{0xff}, 32)
		b[0], b[31] = first, lastByte
		return b
	}
	p0, p1 := le(0x7f, 0xed), le(0x7f, 0xee) // y = p ≡ 0, y = p + 1 ≡ 1
	pm1 := le(0x7f, 0xec)                    // y = p − 1 (canonical), the order-2 point
	one := make([]byte, 32)
	one[0] = 1
	sign := func(b []byte) []byte { c := append([]byte(nil), b...); c[31] |= 0x80; return c }
	out = append(out, p0, sign(p0), p1, sign(p1), sign(one), sign(pm1))
	seen := map[string]bool{}
	for _, e := range out {
		if seen[string(e)] {
			t.Fatalf("encoding %x listed twice", e)
		}
		seen[string(e)] = true
	}
	if len(out) != 14 {
		t.Fatalf("%d encodings, want 14", len(out))
	}
	return out
}

// TestZIP215SmallOrderVectors: every (A, R) pair of small-order encodings
// with S = 0 is a valid signature of any message under ZIP-215 (the
// cofactored equation holds: [8](−R − kA) = 0), singly and in batches; Go's
// crypto/ed25519 refuses most of them. These are the signatures where the
// two rules differ, and no honest signer makes one.
func TestZIP215SmallOrderVectors(t *testing.T) {
	enc := smallOrderEncodings(t)
	var items []Item
	for _, a := range enc {
		for _, r := range enc {
			sig := append(append([]byte(nil), r...), make([]byte, 32)...)
			items = append(items, Item{PubKey: a, Msg: []byte("Zcash"), Sig: sig})
		}
	}
	stdlib := 0
	for i, it := range items {
		if !Valid(it) {
			t.Fatalf("vector %d (A %x, R %x): refused, ZIP-215 accepts it", i, it.PubKey, it.Sig[:32])
		}
		if ed25519.Verify(it.PubKey, it.Msg, it.Sig) {
			stdlib++
		}
	}
	for _, w := range []int{1, 2, 4} {
		for i, ok := range Verify(items, w) {
			if !ok {
				t.Fatalf("workers=%d: vector %d refused by the batch", w, i)
			}
		}
	}
	if stdlib >= len(items) {
		t.Fatalf("crypto/ed25519 accepted all %d vectors: the rules would not differ", len(items))
	}
	t.Logf("%d vectors: ZIP-215 accepts all, crypto/ed25519 %d", len(items), stdlib)
}

// TestZIP215AcceptsStdlib: what crypto/ed25519 accepts, ZIP-215 accepts;
// corrupted signatures (a flipped bit, S ≥ ℓ, another message, another key)
// are refused by both.
func TestZIP215AcceptsStdlib(t *testing.T) {
	for i := 0; i < 300; i++ {
		seed := sha256.Sum256([]byte(fmt.Sprint("seed", i)))
		k := ed25519.NewKeyFromSeed(seed[:])
		pub := k.Public().(ed25519.PublicKey)
		msg := []byte(fmt.Sprint("message ", i))
		sig := ed25519.Sign(k, msg)
		if !Valid(Item{pub, msg, sig}) {
			t.Fatalf("%d: an honest signature refused", i)
		}
		bad := append([]byte(nil), sig...)
		bad[i%64] ^= 1 << (i % 8)
		// S + ℓ: the same value mod ℓ, a non-canonical S (ZIP-215 refuses it, as RFC 8032 does).
		big := append([]byte(nil), sig...)
		addL(big[32:])
		other := ed25519.NewKeyFromSeed(sha256.New().Sum(seed[:])[:32]).Public().(ed25519.PublicKey)
		for name, it := range map[string]Item{
			"flipped bit": {pub, msg, bad}, "S+ℓ": {pub, msg, big},
			"other message": {pub, append(msg, '!'), sig}, "other key": {other, msg, sig},
		} {
			if ed25519.Verify(it.PubKey, it.Msg, it.Sig) {
				continue // a flipped bit may leave a valid signature only by accident; none here
			}
			if Valid(it) {
				t.Fatalf("%d %s: accepted", i, name)
			}
		}
	}
}

// addL adds the group order ℓ to the little-endian scalar s in place (s < ℓ,
// so the sum fits in 256 bits).
func addL(s []byte) {
	l := [32]byte{0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
		31: 0x10}
	carry := 0
	for i := range s {
		v := int(s[i]) + int(l[i]) + carry
		s[i], carry = byte(v), v>>8
	}
}

// TestBatchFindsTheInvalidOne: one bad signature anywhere in a batch is
// found, and only it.
func TestBatchFindsTheInvalidOne(t *testing.T) {
	good := items(BatchSize)
	for i := range good {
		good[i] = items(1)[0]
		good[i].Msg = []byte(fmt.Sprint("m", i))
		seed := sha256.Sum256([]byte(fmt.Sprint("key", i%7)))
		good[i].Sig = ed25519.Sign(ed25519.NewKeyFromSeed(seed[:]), good[i].Msg)
		good[i].PubKey = ed25519.NewKeyFromSeed(seed[:]).Public().(ed25519.PublicKey)
	}
	for bad := 0; bad < len(good); bad += 7 {
		its := append([]Item(nil), good...)
		its[bad].Msg = []byte("forged")
		for i, ok := range Verify(its, 1) {
			if ok != (i != bad) {
				t.Fatalf("bad=%d: item %d = %v", bad, i, ok)
			}
		}
	}
}

// TestCoefficientsFromContents: the batch's coefficient stream is a
// function of its contents alone.
func TestCoefficientsFromContents(t *testing.T) {
	its := items(10)
	at := []int{0, 4, 9}
	read := func(its []Item) []byte {
		b := make([]byte, 64)
		_, _ = io.ReadFull(coefficients(its, at), b)
		return b
	}
	a, b := read(its), read(items(10))
	if !bytes.Equal(a, b) {
		t.Fatal("same batch, different coefficients")
	}
	its[4].Msg = append([]byte(nil), its[4].Msg...)
	its[4].Msg[0] ^= 1
	if bytes.Equal(a, read(its)) {
		t.Fatal("a changed message left the coefficients unchanged")
	}
}

// TestKeyCacheBounded: a flood of fresh keys never holds more than two
// generations, and results do not depend on the cache.
func TestKeyCacheBounded(t *testing.T) {
	its := items(50)
	want := make([]bool, len(its))
	for i, it := range its {
		want[i] = Valid(it)
	}
	for i := 0; i < 3*keyGeneration; i++ {
		seed := sha256.Sum256([]byte(fmt.Sprint("flood", i)))
		pub := ed25519.NewKeyFromSeed(seed[:]).Public().(ed25519.PublicKey)
		keys.get(pub)
		keys.get(pub) // the second sighting expands it
	}
	if n := keys.size(); n > 2*keyGeneration {
		t.Fatalf("cache holds %d keys, bound %d", n, 2*keyGeneration)
	}
	for i, it := range its {
		if Valid(it) != want[i] {
			t.Fatalf("item %d: %v after the flood, %v before", i, !want[i], want[i])
		}
	}
}
