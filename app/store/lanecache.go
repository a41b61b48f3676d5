package store

import "crypto/sha256"

// LaneCache keeps the lanes of the entries recent blocks added, by the
// entry's digest (SHA-256 of its key and value, the key of its
// expansion), so that a later block that overwrites or deletes one of them
// subtracts the kept lanes instead of expanding the old entry again: an
// account or a task rewritten in every block then costs one expansion, not
// two. The lanes of an entry are a function of its digest alone, so a hit
// is right whatever block put it there — a proposal that lost, a block
// executed twice, a block never committed — and a miss costs only the
// expansion the cache would have saved: the cache changes no result, only
// the time to reach it.
//
// Only the entries that overwrote one are kept (an account, a task, a
// counter: what the next blocks rewrite again); a fresh key's entry (a
// submission, an index) is expanded into the expander's own buffer, as
// writing 2 KiB of lanes to memory for each of a block's fresh keys cost
// more than the later hits saved.
//
// It holds at most its capacity of entries (about 2 KiB each), evicted
// first in, first out; its buffers, twice its capacity, are allocated and
// touched at its first block, so that filling it does not grow the heap page
// by page under the blocks (a fresh page costs a fault of ~10 µs in the
// VM measured, more than an expansion). ApplyBlock's
// ranges read it on every core, each taking buffers from its own pool for
// the entries it expands to keep; the cache changes only after that
// parallel part, on the caller's goroutine. One LaneCache serves one app,
// under its lock.
type LaneCache struct {
	capacity int
	m        map[[sha256.Size]byte]*laneSlot
	ring     [][sha256.Size]byte // the digests held, oldest at next once full
	next     int
	free     []*laneSlot   // spare buffers, dealt to the pools before each block
	pools    [][]*laneSlot // per range of ApplyBlock: its spare buffers
	kept     [][]*laneSlot // per range: the buffers it filled in this block
	hits     int           // subtractions that found their lanes here
	misses   int           // subtractions that expanded
}

// laneSlot is one entry's lanes and digest.
type laneSlot struct {
	sum   [sha256.Size]byte
	lanes Lanes
}

// NewLaneCache returns an empty cache of at most capacity entries; with
// capacity < 1 it keeps nothing.
func NewLaneCache(capacity int) *LaneCache {
	return &LaneCache{capacity: max(0, capacity), m: make(map[[sha256.Size]byte]*laneSlot, max(0, capacity))}
}

// Len is the number of entries held.
func (c *LaneCache) Len() int { return len(c.m) }

// Counts is the number of subtractions that found their lanes in the cache
// and of those that expanded, since it was made.
func (c *LaneCache) Counts() (hits, misses int) { return c.hits, c.misses }

// prepare gives each of parts ranges its list of kept buffers and a pool
// of its share of the capacity.
func (c *LaneCache) prepare(parts int) {
	if c.pools == nil { // the first block: the buffers, in one slab
		slab := make([]laneSlot, 2*c.capacity)
		for i := range slab {
			slab[i].sum[0] = 1 // a write to every page of the slab, now rather than under later blocks
			c.free = append(c.free, &slab[i])
		}
	}
	for len(c.pools) < parts {
		c.pools = append(c.pools, nil)
		c.kept = append(c.kept, nil)
	}
	for p := range c.pools {
		for len(c.pools[p]) < c.capacity/parts && len(c.free) > 0 {
			n := len(c.free)
			c.pools[p], c.free = append(c.pools[p], c.free[n-1]), c.free[:n-1]
		}
	}
}

// slot is a buffer for range p to expand an entry it will keep into, or
// nil when the range has taken its share of the capacity for this block.
// Only range p's goroutine calls it.
func (c *LaneCache) slot(p, parts int) *laneSlot {
	if len(c.kept[p]) >= c.capacity/parts {
		return nil
	}
	var s *laneSlot
	if n := len(c.pools[p]); n > 0 {
		s, c.pools[p] = c.pools[p][n-1], c.pools[p][:n-1]
	} else {
		s = new(laneSlot)
	}
	c.kept[p] = append(c.kept[p], s)
	return s
}

// lookup returns the kept lanes of the entry with digest sum. It only
// reads, so every range of ApplyBlock may call it at once.
func (c *LaneCache) lookup(sum [sha256.Size]byte) (*Lanes, bool) {
	s, ok := c.m[sum]
	if !ok {
		return nil, false
	}
	return &s.lanes, true
}

// keep adds the buffers the ranges filled to the cache, range by range,
// evicting the oldest entries beyond capacity; a buffer not kept goes back
// to a pool. hits and misses are the block's subtractions that found
// their lanes or expanded.
func (c *LaneCache) keep(hits, misses int) {
	c.hits += hits
	c.misses += misses
	release := func(s *laneSlot) { c.free = append(c.free, s) }
	for p, kept := range c.kept {
		for i, s := range kept {
			kept[i] = nil
			if _, dup := c.m[s.sum]; dup {
				release(s)
				continue
			}
			if len(c.ring) < c.capacity {
				c.ring = append(c.ring, s.sum)
			} else {
				old := c.ring[c.next]
				release(c.m[old])
				delete(c.m, old)
				c.ring[c.next] = s.sum
				c.next = (c.next + 1) % c.capacity
			}
			c.m[s.sum] = s
		}
		c.kept[p] = kept[:0]
	}
}
