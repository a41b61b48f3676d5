package store

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"runtime"

	"github.com/scoringsubnet/validatord/x/parallel"
)

// laneCount is the number of 16-bit lanes of the multiset hash.
const laneCount = 1024

// words is the number of uint64 words holding the lanes (4 lanes per word,
// little-endian: lane 4w+j is bits 16j..16j+15 of word w).
const words = laneCount / 4

// Lanes is a homomorphic multiset hash of the whole state (LtHash): each
// (key, value) entry is expanded into 1024 uint16 lanes (little-endian) by
// AES-256-CTR keyed with the entry's SHA-256 (a pseudorandom generator
// seeded by a collision-resistant digest of the entry), and the state's lanes are the lane-wise sum mod 2^16 of
// its entries. Writing an entry adds its lanes, deleting it subtracts them,
// so the hash of the full state is kept up to date at the cost of the
// block's changes only, and equals the hash recomputed from a scan of every
// key. The app hash is SHA-256 of the 2048 lane bytes. Lanes are packed four
// to a uint64 and added with carries masked at lane borders (SWAR).
type Lanes [words]uint64

// laneHigh has the top bit of every 16-bit lane set.
const laneHigh = 0x8000800080008000

// expander turns entries into lanes, reusing its buffers: one per range of
// a block's writes, so hashing them allocates only what crypto/aes must (a
// key schedule and a CTR stream per entry).
type expander struct {
	sum  [sha256.Size]byte
	buf  [2 * laneCount]byte
	iv   [aes.BlockSize]byte
	out  Lanes
	hash hash.Hash
}

func newExpander() *expander { return &expander{hash: sha256.New()} }

// lanes expands one entry into the expander's own buffer.
func (x *expander) lanes(k, v []byte) *Lanes {
	x.expand(x.digest(k, v), &x.out)
	return &x.out
}

// digest is the entry's SHA-256, the key of its expansion. Lengths are
// encoded so that (k, v) pairs cannot collide by moving bytes between key
// and value: SHA-256(len ‖ k ‖ len ‖ v).
func (x *expander) digest(k, v []byte) [sha256.Size]byte {
	h := x.hash
	h.Reset()
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(k)))
	h.Write(n[:])
	h.Write(k)
	binary.BigEndian.PutUint32(n[:], uint32(len(v)))
	h.Write(n[:])
	h.Write(v)
	h.Sum(x.sum[:0])
	return x.sum
}

// expand writes into out the lanes of the entry whose digest is sum:
// AES-256-CTR (zero IV) keyed with the digest, a pseudorandom generator
// seeded by a collision-resistant digest of the entry, about ten times
// faster than the SHAKE128 it replaced.
func (x *expander) expand(sum [sha256.Size]byte, out *Lanes) {
	block, err := aes.NewCipher(sum[:])
	if err != nil {
		panic("store: aes key: " + err.Error()) // a 32-byte key never fails
	}
	clear(x.buf[:])
	cipher.NewCTR(block, x.iv[:]).XORKeyStream(x.buf[:], x.buf[:])
	for i := range out {
		out[i] = binary.LittleEndian.Uint64(x.buf[8*i:])
	}
}

// addLanes adds every 16-bit lane of y to x's, mod 2^16.
func addLanes(x, y uint64) uint64 {
	return ((x &^ laneHigh) + (y &^ laneHigh)) ^ ((x ^ y) & laneHigh)
}

// subLanes subtracts every 16-bit lane of y from x's, mod 2^16.
func subLanes(x, y uint64) uint64 {
	return ((x | laneHigh) - (y &^ laneHigh)) ^ ((x ^ ^y) & laneHigh)
}

// Add adds the entry (k, v) to the multiset. It allocates its expansion
// buffers per call; a caller adding many entries uses a Hasher.
func (l *Lanes) Add(k, v []byte) { l.add(newExpander(), k, v) }

// Hasher adds many entries to its Lanes with one set of expansion buffers
// (what ApplyOverlay does for a block), for scans: a snapshot's writer and
// restorer hash every entry of the state.
type Hasher struct {
	Lanes Lanes
	x     *expander
}

// Add adds the entry (k, v) to h.Lanes.
func (h *Hasher) Add(k, v []byte) {
	if h.x == nil {
		h.x = newExpander()
	}
	h.Lanes.add(h.x, k, v)
}

// Sub removes the entry (k, v) from the multiset.
func (l *Lanes) Sub(k, v []byte) { l.sub(newExpander(), k, v) }

func (l *Lanes) add(x *expander, k, v []byte) { l.addAll(x.lanes(k, v)) }

func (l *Lanes) sub(x *expander, k, v []byte) { l.subAll(x.lanes(k, v)) }

// addAll adds e's lanes to l's.
func (l *Lanes) addAll(e *Lanes) {
	for i := range l {
		l[i] = addLanes(l[i], e[i])
	}
}

// subAll subtracts e's lanes from l's.
func (l *Lanes) subAll(e *Lanes) {
	for i := range l {
		l[i] = subLanes(l[i], e[i])
	}
}

func (l *Lanes) Encode() []byte {
	out := make([]byte, 2*laneCount)
	for i, x := range l {
		binary.LittleEndian.PutUint64(out[8*i:], x)
	}
	return out
}

func DecodeLanes(bz []byte) (Lanes, error) {
	var l Lanes
	if len(bz) != 2*laneCount {
		return l, fmt.Errorf("store: stored lanes have %d bytes, want %d", len(bz), 2*laneCount)
	}
	for i := range l {
		l[i] = binary.LittleEndian.Uint64(bz[8*i:])
	}
	return l, nil
}

// sum is the app hash.
func (l *Lanes) Sum() []byte {
	h := sha256.Sum256(l.Encode())
	return h[:]
}

// ApplyOverlay returns base lanes updated by the overlay's writes, where
// before reads each key's value as it was under those base lanes.
func ApplyOverlay(base Lanes, o *Overlay, before Reader) Lanes {
	return applyOverlay(base, o, before.Get, nil)
}

// ApplyBlock is ApplyOverlay over the overlay's own base: the lanes of
// o's base updated by o's writes. A block overlay (NewBlockOverlay) gives
// the old values it already read from its cache. With a LaneCache c (nil:
// none) an overwritten or deleted entry whose lanes c holds is subtracted
// without expanding it, and the entries the block adds are kept in c.
func ApplyBlock(base Lanes, o *Overlay, c *LaneCache) Lanes {
	return applyOverlay(base, o, o.before, c)
}

// minPerExpander: below this many changes per core, one core expands them
// all (an expansion is about 1.6 µs; a goroutine start costs a few).
const minPerExpander = 64

// applyOverlay lists the overlay's writes in key order, then on every core
// (x/parallel: each range of writes sums into its own Lanes) reads each
// key's old value and expands the entries that changed, and adds the
// partial sums to base. Lane sums are additions mod 2^16, so the result
// does not depend on how the writes were split. before must be safe for
// concurrent reads: a badger read transaction, a map nobody writes, or a
// block overlay's cache (complete once execution is over). The lane cache
// c, when not nil, is only read on the cores (each range fills buffers of
// its own pool) and changed after them, on this goroutine.
func applyOverlay(base Lanes, o *Overlay, before func([]byte) ([]byte, bool), c *LaneCache) Lanes {
	writes := o.sortedWrites()
	n := max(1, runtime.GOMAXPROCS(0))
	partial := make([]Lanes, n)
	hits, misses := make([]int, n), make([]int, n)
	if c != nil {
		c.prepare(n)
	}
	parts := parallel.Ranges(len(writes), n, minPerExpander, func(p, lo, hi int) {
		x := newExpander()
		hit, miss := 0, 0
		defer func() { hits[p], misses[p] = hit, miss }()
		for _, w := range writes[lo:hi] {
			old, had := before(w.k)
			if had && !w.del && bytes.Equal(old, w.val) {
				continue
			}
			var slot *laneSlot // where to expand the new entry to keep it
			if had {
				sum := x.digest(w.k, old)
				e, found := (*Lanes)(nil), false
				if c != nil {
					e, found = c.lookup(sum)
					if !w.del {
						slot = c.slot(p, n)
					}
				}
				if found {
					hit++
				} else {
					miss++
					x.expand(sum, &x.out)
					e = &x.out
				}
				partial[p].subAll(e)
			}
			if w.del {
				continue
			}
			sum, e := x.digest(w.k, w.val), &x.out
			if slot != nil {
				slot.sum, e = sum, &slot.lanes
			}
			x.expand(sum, e)
			partial[p].addAll(e)
		}
	})
	if c != nil {
		h, m := 0, 0
		for p := range hits {
			h, m = h+hits[p], m+misses[p]
		}
		c.keep(h, m)
	}
	out := base
	for p := 0; p < parts; p++ {
		out.addAll(&partial[p])
	}
	return out
}
