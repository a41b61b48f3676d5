package sigverify

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"fmt"
	"testing"
)

func items(n int) []Item {
	out := make([]Item, n)
	for i := range out {
		seed := sha256.Sum256([]byte(fmt.Sprint("key", i%7)))
		k := ed25519.NewKeyFromSeed(seed[:])
		msg := []byte(fmt.Sprint("message ", i))
		out[i] = Item{PubKey: k.Public().(ed25519.PublicKey), Msg: msg, Sig: ed25519.Sign(k, msg)}
		switch i % 5 {
		case 1:
			out[i].Sig = append([]byte(nil), out[i].Sig...)
			out[i].Sig[3] ^= 1 // a bad signature
		case 2:
			out[i].Msg = []byte("another message") // signed over other bytes
		case 3:
			out[i].Sig = out[i].Sig[:63] // a short signature
		}
	}
	return out
}

// TestVerifyMatchesOneByOne: whatever the number of workers, the results
// are those of verifying each item alone, in order.
func TestVerifyMatchesOneByOne(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 4, 15, 16, 33, 66, 67, 257, 1000} {
		its := items(n)
		want := make([]bool, n)
		for i, it := range its {
			want[i] = Valid(it)
		}
		for _, w := range []int{0, 1, 2, 3, 8, 64} {
			got := Verify(its, w)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("n=%d workers=%d: item %d = %v, alone %v", n, w, i, got[i], want[i])
				}
			}
		}
	}
	// The fixture has both outcomes.
	its := items(10)
	if !Valid(its[0]) || Valid(its[1]) || Valid(its[2]) || Valid(its[3]) {
		t.Fatal("fixture: want item 0 valid and items 1–3 invalid")
	}
}

// TestAllValid: true exactly when every item is valid alone, whichever
// item is bad and however it is bad.
func TestAllValid(t *testing.T) {
	its := items(40) // items 0, 4, 5, 9, ... valid; 1, 2, 3 (mod 5) bad
	var good []Item
	for i, it := range its {
		if i%5 == 0 || i%5 == 4 {
			good = append(good, it)
		}
	}
	if !AllValid(nil) || !AllValid(good) || !AllValid(good[:1]) {
		t.Fatal("valid items: AllValid = false")
	}
	for bad := 1; bad <= 3; bad++ {
		for _, pos := range []int{0, 7, len(good)} {
			run := append(append(append([]Item(nil), good[:pos]...), its[bad]), good[pos:]...)
			if AllValid(run) {
				t.Fatalf("bad item (kind %d) at %d of %d: AllValid = true", bad, pos, len(run))
			}
		}
	}
	notPoint := good[0]
	notPoint.PubKey = bytes.Repeat([]byte{0xff}, 32)
	if AllValid([]Item{good[1], notPoint}) {
		t.Fatal("a key that is no point: AllValid = true")
	}
}

// TestExpanded: a key counts as expanded only after its second
// verification; asking expands nothing.
func TestExpanded(t *testing.T) {
	seed := sha256.Sum256([]byte("TestExpanded"))
	k := ed25519.NewKeyFromSeed(seed[:])
	it := Item{PubKey: k.Public().(ed25519.PublicKey), Msg: []byte("m"), Sig: ed25519.Sign(k, []byte("m"))}
	for i, want := range []bool{false, false, true} {
		if got := Expanded(it.PubKey); got != want {
			t.Fatalf("after %d verifications: Expanded = %v, want %v", i, got, want)
		}
		if !Valid(it) {
			t.Fatal("fixture invalid")
		}
	}
	if Expanded(it.PubKey[:31]) {
		t.Fatal("a short key: Expanded = true")
	}
}

// BenchmarkVerify: signatures per second through Verify (batches, one
// worker and two) and Valid (one at a time), 2,000 signatures by 256 keys
// (keys already expanded, as for registered miners), and crypto/ed25519
// for comparison.
func BenchmarkVerify(b *testing.B) {
	its := make([]Item, 2000)
	for i := range its {
		seed := sha256.Sum256([]byte(fmt.Sprint("key", i%256)))
		k := ed25519.NewKeyFromSeed(seed[:])
		msg := []byte(fmt.Sprint("a message of about the size of a signed commit ", i))
		its[i] = Item{PubKey: k.Public().(ed25519.PublicKey), Msg: msg, Sig: ed25519.Sign(k, msg)}
	}
	Verify(its, 1)
	Verify(its, 1)
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprint("batch/workers=", w), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				Verify(its, w)
			}
			b.ReportMetric(float64(len(its)*b.N)/b.Elapsed().Seconds(), "sigs/s")
		})
	}
	// Batches of the sizes CheckTx sees when requests queue behind each
	// other (CheckBatcher), one worker.
	for _, size := range []int{2, 4, 8, 16, 32} {
		b.Run(fmt.Sprint("batch-of/", size), func(b *testing.B) {
			out := make([]bool, size)
			for i := 0; i < b.N; i++ {
				for lo := 0; lo+size <= len(its); lo += size {
					verifyBatch(its[lo:lo+size], out)
				}
			}
			b.ReportMetric(float64((len(its)/size)*size*b.N)/b.Elapsed().Seconds(), "sigs/s")
		})
	}
	b.Run("single", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for _, it := range its {
				Valid(it)
			}
		}
		b.ReportMetric(float64(len(its)*b.N)/b.Elapsed().Seconds(), "sigs/s")
	})
	b.Run("crypto-ed25519", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for _, it := range its {
				ed25519.Verify(it.PubKey, it.Msg, it.Sig)
			}
		}
		b.ReportMetric(float64(len(its)*b.N)/b.Elapsed().Seconds(), "sigs/s")
	})
}
