package store

// ValueCache keeps committed values across blocks, for the reads of block
// execution: the same miners' accounts and the same tasks are read in
// every block, each a badger lookup without it. It answers exactly what
// the committed state at its height holds: it is filled by reads that
// found a value (a read that finds nothing is mostly of a key the block is
// about to create: keeping those cost more than it saved), and Commit
// moves it to the next height with the block's writes to the keys it
// holds (a deleted key is then held as absent), so it never holds a value
// of a block that was not committed. When asked for another height than its own (a state-sync
// restore, a reload, a Commit it did not see) it empties itself first.
//
// It holds at most maxEntries keys and maxBytes bytes of keys and values
// (counted as an Overlay counts an entry), evicted in insertion order with
// a second chance for the keys read since they were last passed over. It
// is for one goroutine at a time (the app's lock); while ApplyBlock runs on
// every core its reader is frozen (only looks).
//
// The values it hands out are shared by every reader: like an overlay's
// written values, they must not be changed by the caller (State decodes
// them into fresh messages; the raw readers only decode them).
type ValueCache struct {
	maxEntries, maxBytes int
	height               int64 // the committed height whose values it holds
	m                    map[string]*cachedValue
	order                []string // the keys held, oldest first from head
	head                 int
	bytes                int
	hits, misses         int // reads found here or read from the base (for tests and benchmarks)
}

// cachedValue is what the committed state holds at a key: val, or
// nothing (present false).
type cachedValue struct {
	val     []byte
	present bool
	used    bool // read since it was last passed over for eviction
}

// maxCachedValue: a larger value is not kept (one would crowd out
// thousands of accounts).
const maxCachedValue = 64 << 10

// NewValueCache returns an empty cache of at most maxEntries keys and
// maxBytes bytes; with maxEntries < 1 it keeps nothing.
func NewValueCache(maxEntries, maxBytes int) *ValueCache {
	return &ValueCache{maxEntries: max(0, maxEntries), maxBytes: max(0, maxBytes), m: make(map[string]*cachedValue)}
}

// Len is the number of keys held.
func (c *ValueCache) Len() int { return len(c.m) }

// Counts is the number of reads (by readers not frozen) the cache answered
// and of those that read the base, since it was made.
func (c *ValueCache) Counts() (hits, misses int) { return c.hits, c.misses }

// Clear empties the cache.
func (c *ValueCache) Clear() {
	clear(c.m)
	c.order, c.head, c.bytes = c.order[:0], 0, 0
}

// at makes the cache one of the committed state at height: emptied if it
// held another height's values.
func (c *ValueCache) at(height int64) {
	if c.height != height {
		c.Clear()
		c.height = height
	}
}

func valueBytes(k string, v []byte) int { return len(k) + len(v) + EntryOverhead }

// insert holds (k, v, present), evicting as needed.
func (c *ValueCache) insert(k string, v []byte, present bool) {
	if c.maxEntries == 0 || len(v) > maxCachedValue {
		return
	}
	c.m[k] = &cachedValue{val: v, present: present}
	c.order = append(c.order, k)
	c.bytes += valueBytes(k, v)
	c.evict()
}

// evict drops the oldest keys not read since they were last passed over
// until the cache is within its bounds.
func (c *ValueCache) evict() {
	for len(c.m) > c.maxEntries || c.bytes > c.maxBytes {
		k := c.order[c.head]
		c.order[c.head] = ""
		c.head++
		e, held := c.m[k]
		switch {
		case !held: // dropped by Commit
		case e.used && len(c.m) > 1:
			e.used = false
			c.order = append(c.order, k)
		default:
			delete(c.m, k)
			c.bytes -= valueBytes(k, e.val)
		}
		if c.head > len(c.order)/2 {
			n := copy(c.order, c.order[c.head:])
			c.order, c.head = c.order[:n], 0
		}
	}
}

// Commit moves the cache from the committed state at height from to the
// one at height to, which overlays' writes made (in order: a later one's
// writes replace an earlier one's): the keys it holds take their new
// values. A cache that was not at from is emptied.
func (c *ValueCache) Commit(from, to int64, overlays ...*Overlay) {
	if c.height != from {
		c.Clear()
	}
	c.height = to
	for _, o := range overlays {
		o.Entries(func(k, val []byte, del bool) {
			e, ok := c.m[string(k)]
			if !ok {
				return
			}
			if len(val) > maxCachedValue { // not kept: its key leaves order at its turn
				c.bytes -= valueBytes(string(k), e.val)
				delete(c.m, string(k))
				return
			}
			c.bytes += len(val) - len(e.val)
			e.val, e.present = val, !del
		})
	}
	c.evict()
}

// Reader reads base, the committed state at height, through the cache.
func (c *ValueCache) Reader(base Reader, height int64) *CachedReader {
	c.at(height)
	return &CachedReader{c: c, base: base}
}

// CachedReader is a Reader of the committed state through a ValueCache:
// a miss reads base and keeps what it found.
type CachedReader struct {
	c      *ValueCache
	base   Reader
	frozen bool
}

// Get reads k: from the cache, else from base.
func (r *CachedReader) Get(k []byte) ([]byte, bool) {
	if e, ok := r.c.m[string(k)]; ok {
		if !r.frozen {
			e.used = true
			r.c.hits++
		}
		return e.val, e.present
	}
	v, ok := r.base.Get(k)
	if !r.frozen {
		r.c.misses++
		if ok { // an absent key is mostly one the block is about to create
			r.c.insert(string(k), v, true)
		}
	}
	return v, ok
}

// Freeze makes the reader only look from now on, so that several
// goroutines may read through it (ApplyBlock's ranges).
func (r *CachedReader) Freeze() { r.frozen = true }
