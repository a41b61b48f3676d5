package window

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

func track(t testing.TB, name, share string, uids []uint16, scores ...string) TrackScores {
	t.Helper()
	return TrackScores{Track: name, Share: d(t, share), UIDs: uids, Scores: ds(t, scores...)}
}

func weightsOf(t *testing.T, r EpochResult) map[uint16]string {
	t.Helper()
	m := map[uint16]string{}
	for i, uid := range r.UIDs {
		m[uid] = r.Weights[i].String()
	}
	return m
}

func TestIsEpochHeight(t *testing.T) {
	p := DefaultParams() // E = 10
	for h, want := range map[int64]bool{-10: false, 0: false, 1: false, 9: false, 10: true, 15: false, 20: true, 1_000_000: true} {
		if got := IsEpochHeight(p, h); got != want {
			t.Errorf("IsEpochHeight(%d) = %v, want %v", h, got, want)
		}
	}
}

func TestComputeEpoch(t *testing.T) {
	tests := []struct {
		name        string
		cap         string
		tracks      func(t *testing.T) []TrackScores
		want        map[uint16]string
		unallocated string
	}{
		{
			"one track, the issue's cap example", "0.15",
			func(t *testing.T) []TrackScores {
				return []TrackScores{track(t, "workflow", "1", []uint16{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, "1", "1", "1", "1", "1", "1", "1", "1", "5", "10")}
			},
			map[uint16]string{1: "0.15", 2: "0.15", 3: "0.0875", 4: "0.0875", 5: "0.0875", 6: "0.0875", 7: "0.0875", 8: "0.0875", 9: "0.0875", 10: "0.0875"},
			"0",
		},
		{
			// uid 1: 1×0.5/2 = 0.25; uid 2: 0.25 + 3×0.5/4 = 0.625; uid 3: 1×0.5/4 = 0.125.
			"two tracks, no cap binds", "1",
			func(t *testing.T) []TrackScores {
				return []TrackScores{
					track(t, "workflow", "0.5", []uint16{1, 2}, "0.8", "0.8"),
					track(t, "gas", "0.5", []uint16{3, 2}, "0.1", "0.3"),
				}
			},
			map[uint16]string{1: "0.25", 2: "0.625", 3: "0.125"},
			"0",
		},
		{
			// uid 2 is clipped to 0.5; the other 0.5 goes 2:1 to uids 1 and 3,
			// the one ulp of dust to the larger truncation remainder (uid 3).
			"two tracks, cap binds", "0.5",
			func(t *testing.T) []TrackScores {
				return []TrackScores{
					track(t, "workflow", "0.5", []uint16{1, 2}, "0.8", "0.8"),
					track(t, "gas", "0.5", []uint16{3, 2}, "0.1", "0.3"),
				}
			},
			map[uint16]string{1: "0.333333333333333333", 2: "0.5", 3: "0.166666666666666667"},
			"0",
		},
		{
			// S = 0.6; relative cap 0.25 does not bind over 10 equal miners: 0.1 × 0.6 each.
			"a zero track's share is unallocated", "0.15",
			func(t *testing.T) []TrackScores {
				return []TrackScores{
					track(t, "workflow", "0.6", []uint16{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, "1", "1", "1", "1", "1", "1", "1", "1", "1", "1"),
					track(t, "gas", "0.4", []uint16{11}, "0"),
				}
			},
			map[uint16]string{1: "0.06", 2: "0.06", 3: "0.06", 4: "0.06", 5: "0.06", 6: "0.06", 7: "0.06", 8: "0.06", 9: "0.06", 10: "0.06", 11: "0"},
			"0.4",
		},
		{
			// S = 0.7: 0.15/0.7 rounds up to …286, so it is taken down to
			// 0.214285714285714285; × 0.7 = 0.1499999999999999995 rounds to 0.15, never above.
			"the relative cap is rounded down", "0.15",
			func(t *testing.T) []TrackScores {
				return []TrackScores{
					track(t, "workflow", "0.7", []uint16{1, 2}, "0.9", "0.3"),
					track(t, "gas", "0.3", nil),
				}
			},
			map[uint16]string{1: "0.15", 2: "0.15"},
			"0.7",
		},
		{
			"nobody scored", "0.15",
			func(t *testing.T) []TrackScores {
				return []TrackScores{track(t, "workflow", "1", []uint16{4, 2}, "0", "0")}
			},
			map[uint16]string{2: "0", 4: "0"},
			"1",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := DefaultParams()
			p.Cap = d(t, tt.cap)
			p.BurnUID = 0
			r, err := ComputeEpoch(p, 10, tt.tracks(t))
			if err != nil {
				t.Fatal(err)
			}
			got := weightsOf(t, r)
			if len(got) != len(tt.want) {
				t.Fatalf("weights = %v, want %v", got, tt.want)
			}
			for uid, w := range tt.want {
				if !d(t, got[uid]).Equal(d(t, w)) {
					t.Errorf("uid %d: weight %s, want %s", uid, got[uid], w)
				}
			}
			assertDec(t, "unallocated", r.Unallocated, tt.unallocated)
			checkU16(t, r, p)
		})
	}
}

// checkU16 checks the u16 vector's total and, with everything unallocated, the burn uid.
func checkU16(t *testing.T, r EpochResult, p Params) {
	t.Helper()
	var sum int
	for _, w := range r.U16 {
		sum += int(w.Weight)
	}
	if sum != 65535 {
		t.Fatalf("u16 total = %d, want 65535", sum)
	}
	if r.Unallocated.Equal(scoring.One) {
		for _, w := range r.U16 {
			if w.UID != p.BurnUID && w.Weight != 0 {
				t.Fatalf("everything unallocated but uid %d gets %d", w.UID, w.Weight)
			}
		}
	}
}

func TestComputeEpochErrors(t *testing.T) {
	good := func(t *testing.T) TrackScores { return track(t, "w", "1", []uint16{1}, "1") }
	tests := []struct {
		name   string
		height int64
		tracks func(t *testing.T) []TrackScores
	}{
		{"height 0", 0, func(t *testing.T) []TrackScores { return []TrackScores{good(t)} }},
		{"no tracks", 10, func(t *testing.T) []TrackScores { return nil }},
		{"shares below 1", 10, func(t *testing.T) []TrackScores {
			return []TrackScores{track(t, "w", "0.999999999999999999", []uint16{1}, "1")}
		}},
		{"shares above 1", 10, func(t *testing.T) []TrackScores {
			return []TrackScores{good(t), track(t, "g", "0.000000000000000001", []uint16{1}, "1")}
		}},
		{"duplicate track", 10, func(t *testing.T) []TrackScores {
			return []TrackScores{track(t, "w", "0.5", []uint16{1}, "1"), track(t, "w", "0.5", []uint16{2}, "1")}
		}},
		{"empty name", 10, func(t *testing.T) []TrackScores { return []TrackScores{track(t, "", "1", []uint16{1}, "1")} }},
		{"negative share", 10, func(t *testing.T) []TrackScores {
			return []TrackScores{track(t, "w", "1.5", []uint16{1}, "1"), track(t, "g", "-0.5", []uint16{2}, "1")}
		}},
		{"duplicate uid", 10, func(t *testing.T) []TrackScores { return []TrackScores{track(t, "w", "1", []uint16{1, 1}, "1", "2")} }},
		{"length mismatch", 10, func(t *testing.T) []TrackScores { return []TrackScores{track(t, "w", "1", []uint16{1, 2}, "1")} }},
		{"negative score", 10, func(t *testing.T) []TrackScores { return []TrackScores{track(t, "w", "1", []uint16{1}, "-1")} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ComputeEpoch(DefaultParams(), tt.height, tt.tracks(t)); !errors.Is(err, ErrInvalidInput) {
				t.Fatalf("err = %v, want ErrInvalidInput", err)
			}
		})
	}
	bad := DefaultParams()
	bad.EpochBlocks = 0
	if _, err := ComputeEpoch(bad, 10, []TrackScores{good(t)}); !errors.Is(err, ErrInvalidParams) {
		t.Fatalf("invalid params: %v", err)
	}
}

// TestPropertyEpochBounds checks over random tracks that every weight is at
// most the cap, weights + unallocated = 1, a miner's weight never falls when
// its score rises within a single-track epoch, and the u16 vector sums to 65535.
func TestPropertyEpochBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for round := 0; round < 300; round++ {
		p := DefaultParams()
		p.Cap = decimal.New(1+r.Int64N(100), -2)
		shares := []decimal.Decimal{decimal.New(r.Int64N(101), -2)}
		shares = append(shares, scoring.One.Sub(shares[0]))
		var tracks []TrackScores
		for k, share := range shares {
			n := r.IntN(30)
			tr := TrackScores{Track: string(rune('a' + k)), Share: share}
			for i := 0; i < n; i++ {
				tr.UIDs = append(tr.UIDs, uint16(r.IntN(40)*2+k)) // even/odd: unique within a track
				tr.Scores = append(tr.Scores, decimal.New(r.Int64N(4)*r.Int64N(1000), -3))
			}
			tr.UIDs, tr.Scores = uniqueUIDs(tr.UIDs, tr.Scores)
			tracks = append(tracks, tr)
		}
		res, err := ComputeEpoch(p, 10, tracks)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		sum := res.Unallocated
		for _, w := range res.Weights {
			if w.Sign() < 0 || w.Cmp(p.Cap) > 0 {
				t.Fatalf("round %d: weight %s outside [0, cap %s]", round, w, p.Cap)
			}
			sum = sum.Add(w)
		}
		if !sum.Equal(scoring.One) || res.Unallocated.Sign() < 0 {
			t.Fatalf("round %d: weights + unallocated = %s", round, sum)
		}
		checkU16(t, res, p)
	}
}

func uniqueUIDs(uids []uint16, scores []decimal.Decimal) ([]uint16, []decimal.Decimal) {
	seen := map[uint16]bool{}
	var u []uint16
	var s []decimal.Decimal
	for i, uid := range uids {
		if !seen[uid] {
			seen[uid] = true
			u, s = append(u, uid), append(s, scores[i])
		}
	}
	return u, s
}

// BenchmarkComputeEpoch10k is an epoch over 10,000 miners in the workflow
// track (share 0.7) and 1,000 of them also in the gas track (share 0.3).
func BenchmarkComputeEpoch10k(b *testing.B) {
	p := DefaultParams()
	wf := TrackScores{Track: "workflow", Share: decimal.RequireFromString("0.7")}
	gas := TrackScores{Track: "gas", Share: decimal.RequireFromString("0.3")}
	for i := 0; i < 10_000; i++ {
		wf.UIDs = append(wf.UIDs, uint16(i+1))
		wf.Scores = append(wf.Scores, decimal.New(int64(i*7919%1_000_000), -6))
		if i%10 == 0 {
			gas.UIDs = append(gas.UIDs, uint16(i+1))
			gas.Scores = append(gas.Scores, decimal.New(int64(i*104729%1_000_000), -6))
		}
	}
	tracks := []TrackScores{wf, gas}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ComputeEpoch(p, 10, tracks); err != nil {
			b.Fatal(err)
		}
	}
}
