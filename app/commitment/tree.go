package commitment

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/scoringsubnet/validatord/app/store"
)

// Hashing of CometBFT's crypto/merkle (RFC 6962 with its prefixes): a leaf
// is sha256(0x00 ‖ bytes), an inner node sha256(0x01 ‖ left ‖ right). A
// record's leaf bytes are those CometBFT's value proof rebuilds:
// uvarint(len key) ‖ key ‖ uvarint(32) ‖ sha256(value).

// Leaf is the leaf hash of value under key, as merkle.ValueOp computes it.
func Leaf(key, value []byte) []byte {
	vh := sha256.Sum256(value)
	return leafOf(key, vh[:])
}

// emptyLeaf is the leaf of a free slot (its record deleted, the slot not
// yet taken again): an empty key and an empty value hash, which no record's
// leaf can equal (a value hash is 32 bytes long), so no proof verifies at
// its index.
func emptyLeaf() []byte { return leafOf(nil, nil) }

func leafOf(key, vhash []byte) []byte {
	h := sha256.New()
	var n [binary.MaxVarintLen64]byte
	h.Write([]byte{0})
	h.Write(n[:binary.PutUvarint(n[:], uint64(len(key)))])
	h.Write(key)
	h.Write(n[:binary.PutUvarint(n[:], uint64(len(vhash)))])
	h.Write(vhash)
	return h.Sum(nil)
}

func inner(left, right []byte) []byte {
	h := sha256.New()
	h.Write([]byte{1})
	h.Write(left)
	h.Write(right)
	return h.Sum(nil)
}

// emptyRoot is the root of a tree without leaves (CometBFT's: sha256 of
// nothing).
func emptyRoot() []byte {
	h := sha256.Sum256(nil)
	return h[:]
}

// nodeKey is the key of the node at level over leaves [index·2^level,
// (index+1)·2^level) of store s's tree.
func nodeKey(s byte, level int, index uint64) []byte {
	k := make([]byte, 0, 11)
	k = append(k, store.PrefixRecordNode, s, byte(level))
	return binary.BigEndian.AppendUint64(k, index)
}

func slotKey(record []byte) []byte {
	return append([]byte{store.PrefixRecordSlot}, record...)
}

func countKey(s byte) []byte { return []byte{store.PrefixRecordCount, s} }

func freeKey(s byte, pos uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{store.PrefixRecordFree, s}, pos)
}

// counts is a store's count entry: its tree's leaves and the queue of free
// slots, positions [head, tail).
type counts struct {
	n, head, tail uint64
}

func readCounts(r store.Reader, s byte) counts {
	v, ok := r.Get(countKey(s))
	if !ok {
		return counts{}
	}
	c, err := decodeCounts(v)
	if err != nil {
		panic(fmt.Sprintf("commitment: the count entry of store %#x: %v", s, err))
	}
	return c
}

func decodeCounts(v []byte) (counts, error) {
	if len(v) != 24 {
		return counts{}, fmt.Errorf("%d bytes, want 24", len(v))
	}
	c := counts{binary.BigEndian.Uint64(v), binary.BigEndian.Uint64(v[8:]), binary.BigEndian.Uint64(v[16:])}
	if c.head > c.tail || c.tail-c.head > c.n {
		return counts{}, fmt.Errorf("free queue [%d, %d) of %d leaves", c.head, c.tail, c.n)
	}
	return c, nil
}

func (c counts) encode() []byte {
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, c.n), c.head), c.tail)
}

func readU64(r store.Reader, k []byte) (uint64, bool) {
	v, ok := r.Get(k)
	if !ok || len(v) != 8 {
		return 0, false
	}
	return binary.BigEndian.Uint64(v), true
}

func u64(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }

// tree is one store's tree as the state r holds it.
type tree struct {
	r     store.Reader
	store byte
	n     uint64
}

func openTree(r store.Reader, s byte) tree {
	return tree{r: r, store: s, n: readCounts(r, s).n}
}

// node reads a complete subtree's hash. A missing node is a broken store
// (every complete subtree is written when it completes): the panic stops
// the node rather than let it commit to a different root than its peers.
func (t tree) node(level int, index uint64) []byte {
	v, ok := t.r.Get(nodeKey(t.store, level, index))
	if !ok || len(v) != sha256.Size {
		panic(fmt.Sprintf("commitment: node %d/%d of the tree of store %#x is missing or malformed", level, index, t.store))
	}
	return v
}

// span is the hash of leaves [start, start+size): a complete subtree's
// stored node when size is a power of two (start is then a multiple of
// it), else CometBFT's split, a complete left part and the rest.
func (t tree) span(start, size uint64) []byte {
	if size&(size-1) == 0 {
		level := bits.TrailingZeros64(size)
		return t.node(level, start>>level)
	}
	k := split(size)
	return inner(t.span(start, k), t.span(start+k, size-k))
}

// split is the size of the left part of a tree of size leaves (size ≥ 2):
// the largest power of two below it, as CometBFT's getSplitPoint.
func split(size uint64) uint64 {
	return 1 << (63 - bits.LeadingZeros64(size-1))
}

// root is the tree's root: the empty root without leaves.
func (t tree) root() []byte {
	if t.n == 0 {
		return emptyRoot()
	}
	return t.span(0, t.n)
}

// aunts are the sibling hashes from leaf i up to the root, in the order
// CometBFT's merkle.Proof takes them (the leaf's sibling first).
func (t tree) aunts(i uint64) [][]byte {
	var out [][]byte
	start, size := uint64(0), t.n
	var path [][]byte // from the root down
	for size > 1 {
		k := split(size)
		if i < start+k {
			path = append(path, t.span(start+k, size-k))
			size = k
		} else {
			path = append(path, t.span(start, k))
			start, size = start+k, size-k
		}
	}
	for j := len(path) - 1; j >= 0; j-- {
		out = append(out, path[j])
	}
	return out
}
