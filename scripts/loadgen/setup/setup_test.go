package setup

import (
	"bytes"
	"testing"
)

func TestShare(t *testing.T) {
	for _, c := range []struct{ n, parts int }{{0, 3}, {2, 3}, {3, 3}, {10, 4}, {200, 4}, {7, 1}} {
		total := 0
		for i := range c.parts {
			s := Share(c.n, c.parts, i)
			if s != c.n/c.parts && s != c.n/c.parts+1 {
				t.Errorf("Share(%d, %d, %d) = %d", c.n, c.parts, i, s)
			}
			total += s
		}
		if total != c.n {
			t.Errorf("Share(%d, %d, ·) sums to %d", c.n, c.parts, total)
		}
	}
	if Share(10, 4, 1) != 3 || Share(10, 4, 2) != 2 {
		t.Errorf("the first n%%parts parts take one more")
	}
}

func TestKey(t *testing.T) {
	if !bytes.Equal(Key("miner0"), Key("miner0")) || bytes.Equal(Key("miner0"), Key("miner1")) {
		t.Fatal("Key: the same text must give the same key, another text another key")
	}
}

// TestGasBid: miner i bids (97 + 2i)% of the truth, to 5 places.
func TestGasBid(t *testing.T) {
	for _, c := range []struct {
		truthMilli int64
		miner      int
		want       string
	}{
		{20500, 0, "19.88500"}, // 20.5 × 0.97
		{20500, 2, "20.70500"}, // 20.5 × 1.01
		{22000, 4, "23.10000"}, // 22 × 1.05
	} {
		if got := GasBid(1, 20_000_000, c.truthMilli, c.miner).GetGas().GetPrice(); got != c.want {
			t.Errorf("GasBid(%d, miner %d) = %s, want %s", c.truthMilli, c.miner, got, c.want)
		}
	}
}
