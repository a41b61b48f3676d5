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

	"github.com/scoringsubnet/validatord/app/parallel"
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
// to a uint64 and added with carries masked at lane borders (SWAR). On
// amd64 with AES-NI an entry is expanded and added by lanes_amd64.s (the
// same bytes as crypto/aes's stream, without its allocations); elsewhere,
// and under the purego build tag, by crypto/aes.
type Lanes [words]uint64

// laneHigh has the top bit of every 16-bit lane set.
const laneHigh = 0x8000800080008000

// expander turns entries into lanes, reusing its buffers: one per
// ApplyOverlay, so hashing a block's writes allocates nothing per entry.
type expander struct {
	sum  [sha256.Size]byte
	n    [4]byte
	buf  [2 * laneCount]byte
	iv   [aes.BlockSize]byte
	out  Lanes
	hash hash.Hash
}

func newExpander() *expander { return &expander{hash: sha256.New()} }

// digest is the key of one entry's expansion: SHA-256(len ‖ k ‖ len ‖ v).
// Lengths are encoded so that (k, v) pairs cannot collide by moving bytes
// between key and value.
func (x *expander) digest(k, v []byte) *[sha256.Size]byte {
	h := x.hash
	h.Reset()
	binary.BigEndian.PutUint32(x.n[:], uint32(len(k)))
	h.Write(x.n[:])
	h.Write(k)
	binary.BigEndian.PutUint32(x.n[:], uint32(len(v)))
	h.Write(x.n[:])
	h.Write(v)
	h.Sum(x.sum[:0])
	return &x.sum
}

// lanes expands one entry with crypto/aes: AES-256-CTR (zero IV) keyed
// with the entry's digest, a pseudorandom generator seeded by a
// collision-resistant digest of the entry, about ten times faster than the
// SHAKE128 it replaced. Where laneAsm holds, add and sub use addKeyStream
// instead, which makes the same stream without allocating.
func (x *expander) lanes(k, v []byte) *Lanes {
	block, err := aes.NewCipher(x.digest(k, v)[:])
	if err != nil {
		panic("store: aes key: " + err.Error()) // a 32-byte key never fails
	}
	clear(x.buf[:])
	cipher.NewCTR(block, x.iv[:]).XORKeyStream(x.buf[:], x.buf[:])
	for i := range x.out {
		x.out[i] = binary.LittleEndian.Uint64(x.buf[8*i:])
	}
	return &x.out
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

func (l *Lanes) add(x *expander, k, v []byte) {
	if laneAsm {
		addKeyStream(l, x.digest(k, v), false)
		return
	}
	e := x.lanes(k, v)
	for i := range l {
		l[i] = addLanes(l[i], e[i])
	}
}

func (l *Lanes) sub(x *expander, k, v []byte) {
	if laneAsm {
		addKeyStream(l, x.digest(k, v), true)
		return
	}
	e := x.lanes(k, v)
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
	return applyOverlay(base, o, before.Get, false)
}

// ApplyBlock is ApplyOverlay over the overlay's own base: the lanes of
// o's base updated by o's writes. A block overlay (NewBlockOverlay) gives
// the old values it already read from its cache, and a key it created
// (Overlay.Create) had none.
func ApplyBlock(base Lanes, o *Overlay) Lanes {
	return applyOverlay(base, o, o.before, true)
}

// minPerExpander: below this many changes per core, one core expands them
// all (an expansion is about 1.6 µs; a goroutine start costs a few).
const minPerExpander = 64

// applyOverlay lists the overlay's writes in key order, then on every core
// (app/parallel: each range of writes sums into its own Lanes) reads each
// key's old value and expands the entries that changed, and adds the
// partial sums to base. Lane sums are additions mod 2^16, so the result
// does not depend on how the writes were split. before must be safe for
// concurrent reads: a badger read transaction, a map nobody writes, or a
// block overlay's cache (complete once execution is over).
func applyOverlay(base Lanes, o *Overlay, before func([]byte) ([]byte, bool), created bool) Lanes {
	writes := o.sortedWrites()
	partial := make([]Lanes, max(1, runtime.GOMAXPROCS(0)))
	verify := created && verifyCreates.Load()
	var falseClaims [][]byte // VerifyCreates: per range, a created key the base holds
	if verify {
		falseClaims = make([][]byte, len(partial))
	}
	parts := parallel.Ranges(len(writes), len(partial), minPerExpander, func(p, lo, hi int) {
		x := newExpander()
		for _, w := range writes[lo:hi] {
			var old []byte
			had := false
			switch {
			case created && w.fresh && !verify:
			case created && w.fresh:
				if _, held := before(w.k); held && falseClaims[p] == nil {
					falseClaims[p] = w.k
				}
			default:
				old, had = before(w.k)
			}
			if had && !w.del && bytes.Equal(old, w.val) {
				continue
			}
			if had {
				partial[p].sub(x, w.k, old)
			}
			if !w.del {
				partial[p].add(x, w.k, w.val)
			}
		}
	})
	for _, k := range falseClaims { // panicked here, on the caller's goroutine, a replay can report it
		if k != nil {
			panic(fmt.Sprintf("store: key %x was created by a block but the state under it holds a value", k))
		}
	}
	out := base
	for p := 0; p < parts; p++ {
		for i := range out {
			out[i] = addLanes(out[i], partial[p][i])
		}
	}
	return out
}
