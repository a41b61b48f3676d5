package sigverify

import (
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
	for _, n := range []int{0, 1, 15, 16, 33, 257, 1000} {
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
