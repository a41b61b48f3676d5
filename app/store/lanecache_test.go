package store

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"
)

// TestLaneCacheMatchesScan: blocks hashed with a shared LaneCache give the
// lanes of a full rescan, block after block, with a cache small enough to
// evict and one that holds everything, while blocks that are executed and
// never committed (a proposal that lost) write other values to the same
// keys in between: a cached expansion is found by the entry's digest, so
// what such a block added is never subtracted for the value the committed
// state holds. The cache is used: most overwrites of the last block's
// entries find their lanes.
func TestLaneCacheMatchesScan(t *testing.T) {
	for _, capacity := range []int{0, 7, 100, 5000} {
		rng := rand.New(rand.NewPCG(3, uint64(capacity)))
		c := NewLaneCache(capacity)
		state := map[string]string{}
		lanes := scanLanes(state)
		block := func(tag string) (*Overlay, map[string]string) {
			base := &mapReader{m: maps.Clone(state)}
			o := NewBlockOverlay(base, 0)
			after := maps.Clone(state)
			for i := 0; i < 40; i++ {
				k := fmt.Sprint("k", rng.IntN(50))
				if rng.IntN(6) == 0 {
					o.Delete([]byte(k))
					delete(after, k)
					continue
				}
				o.Get([]byte(k))
				v := fmt.Sprint(tag, rng.IntN(3))
				o.Set([]byte(k), []byte(v))
				after[k] = v
			}
			return o, after
		}
		for h := 0; h < 30; h++ {
			lost, lostAfter := block("lost")
			if got := ApplyBlock(lanes, lost, c); got != scanLanes(lostAfter) {
				t.Fatalf("capacity %d, height %d: a losing proposal's lanes differ from its rescan", capacity, h)
			}
			o, after := block("v")
			got := ApplyBlock(lanes, o, c)
			if want := scanLanes(after); got != want {
				t.Fatalf("capacity %d, height %d: lanes differ from the rescan", capacity, h)
			}
			state, lanes = after, got
			if c.Len() > capacity {
				t.Fatalf("capacity %d: the cache holds %d entries", capacity, c.Len())
			}
		}
		hits, misses := c.Counts()
		t.Logf("capacity %d: %d hits, %d misses", capacity, hits, misses)
		if capacity == 5000 && hits <= misses {
			t.Fatalf("capacity 5000: %d hits against %d misses: the cache is not used", hits, misses)
		}
		if capacity == 0 && hits != 0 {
			t.Fatalf("an empty cache had %d hits", hits)
		}
	}
}

// TestLaneCacheParallel: a block of thousands of writes, hashed on every
// core, reads the cache from several goroutines (go test -race checks
// them) and finds the lanes the block before kept: those of its
// overwrites, not those of the keys it wrote first.
func TestLaneCacheParallel(t *testing.T) {
	c := NewLaneCache(8000)
	state := map[string]string{}
	lanes := scanLanes(state)
	for h := 0; h < 3; h++ {
		o := NewBlockOverlay(&mapReader{m: maps.Clone(state)}, 0)
		after := maps.Clone(state)
		for i := 0; i < 3000; i++ {
			k, v := fmt.Sprint("k", i), fmt.Sprint("v", h, i%3)
			o.Set([]byte(k), []byte(v))
			after[k] = v
		}
		lanes = ApplyBlock(lanes, o, c)
		if lanes != scanLanes(after) {
			t.Fatalf("height %d: lanes differ from the rescan", h)
		}
		state = after
	}
	if hits, misses := c.Counts(); hits != 3000 || misses != 3000 {
		t.Fatalf("%d hits and %d misses, want 3000 and 3000 (the second block's overwrites of fresh keys miss, the third's hit)", hits, misses)
	}
}
