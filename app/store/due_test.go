package store

import (
	"math/rand/v2"
	"slices"
	"testing"
)

type emptyReader struct{}

func (emptyReader) Get([]byte) ([]byte, bool) { return nil, false }

// TestDueAgainstNaive drives a schedule with random adds (at heights from
// now on) and random drain budgets, against a naive list of (height, seq)
// in due order: every entry comes out exactly once, in height then arrival
// order, never before its height; resume indexes survive across blocks; and
// nothing of the schedule is left in state when everything is done.
func TestDueAgainstNaive(t *testing.T) {
	for seed := uint64(1); seed <= 50; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		st := State{O: NewOverlay(emptyReader{})}
		d := Due{St: st, Kind: DueTasks}
		type ent struct {
			h  int64
			id uint64
		}
		var naive []ent
		next := uint64(0)
		for now := int64(1); now <= 200; now++ {
			for n := r.IntN(4); n > 0; n-- {
				h := now + int64(r.IntN(5))
				d.Add(h, next)
				naive = append(naive, ent{h, next})
				next++
			}
			slices.SortStableFunc(naive, func(a, b ent) int { return int(a.h - b.h) })
			budget := r.IntN(6)
			for {
				it, ok := d.Next(now, func() bool { budget--; return budget >= 0 })
				if !ok {
					break
				}
				if len(naive) == 0 || naive[0].h > now || it.IDs[0] != naive[0].id || it.Height != naive[0].h {
					t.Fatalf("seed %d now %d: got %+v, want %+v", seed, now, it, naive[:min(1, len(naive))])
				}
				if r.IntN(3) == 0 && it.Resume == 0 {
					d.Resume(it, 5)
					continue
				}
				d.Done(it)
				naive = naive[1:]
			}
		}
		for now := int64(201); len(naive) > 0 || d.Pending(); now++ {
			it, ok := d.Next(now, func() bool { return true })
			if !ok {
				if now > 300 {
					t.Fatalf("seed %d: %d entries never came out", seed, len(naive))
				}
				continue
			}
			if it.IDs[0] != naive[0].id {
				t.Fatalf("seed %d: drain got %d, want %d", seed, it.IDs[0], naive[0].id)
			}
			d.Done(it)
			naive = naive[1:]
		}
		left := 0
		st.O.Entries(func(k, _ []byte, del bool) {
			if !del {
				left++
			}
		})
		if left != 0 {
			t.Fatalf("seed %d: %d schedule entries left in state after everything was done", seed, left)
		}
	}
}

// TestDecU64NeverWraps: a count taken below 0 stays 0 (wrapping would
// lock a validator out with an enormous count).
func TestDecU64NeverWraps(t *testing.T) {
	st := State{O: NewOverlay(emptyReader{})}
	k := KeyOpenTasks(0)
	st.SetU64(k, 1)
	st.DecU64(k)
	st.DecU64(k)
	if v := st.U64(k); v != 0 || st.Has(k) {
		t.Fatalf("count = %d (stored %v), want 0 and no entry", v, st.Has(k))
	}
}
