package commitment

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/cometbft/cometbft/crypto/merkle"
	cmtcrypto "github.com/cometbft/cometbft/proto/tendermint/crypto"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
)

// change is one provable record a block wrote: its store, its leaf's index
// and the leaf's new hash.
type change struct {
	store byte
	slot  uint64
	leaf  []byte
}

// Changes are the provable records a block wrote, in key order, with their
// leaves: what Assign found and Update writes into the trees.
type Changes struct {
	list []change
}

// Len is the number of records changed.
func (c *Changes) Len() int { return len(c.list) }

// Assign looks at o's writes (a block's, or InitChain's) for records of
// the provable stores, in key order, and keeps each store's slots: a record
// written for the first time takes the oldest free slot (one a deleted
// record left), else the next new leaf; a deleted record frees its slot,
// whose leaf becomes the empty leaf until a new record takes it. So a
// tree's leaves are bounded by the most records its store held at once,
// and retention keeps the trees as flat as the state. The slots, the free
// queue and the counts are state: Assign writes them into o, and they go
// into the LtHash with the block's other writes (Assign runs before it). A
// record created and deleted in the same block never had a slot. A record
// written with Create (store.Overlay.Create: a key that never held a
// value) has no slot yet, so its slot is not looked up: looking up an
// absent key is badger's dearest read.
func Assign(o *store.Overlay) *Changes {
	out := &Changes{}
	var cs [256]counts
	var loaded, dirty [256]bool
	load := func(s byte) {
		if !loaded[s] {
			cs[s], loaded[s] = readCounts(o, s), true
		}
		dirty[s] = true
	}
	o.Writes(func(k, val []byte, del, fresh bool) {
		if _, ok := wire.StoreOfKey(k); !ok {
			return
		}
		s := k[0]
		var slot uint64
		have := false
		if !fresh { // a created key never held a value, so it has no slot: no look-up of an absent key
			slot, have = readU64(o, slotKey(k))
		}
		switch {
		case del && !have:
			return
		case del:
			load(s)
			o.Set(freeKey(s, cs[s].tail), u64(slot))
			cs[s].tail++
			o.Delete(slotKey(k))
			out.list = append(out.list, change{store: s, slot: slot, leaf: emptyLeaf()})
			return
		case !have:
			load(s)
			if c := &cs[s]; c.head < c.tail {
				free, ok := readU64(o, freeKey(s, c.head))
				if !ok {
					panic(fmt.Sprintf("commitment: free slot %d of store %#x is missing", c.head, s))
				}
				o.Delete(freeKey(s, c.head))
				slot = free
				c.head++
			} else {
				slot = c.n
				c.n++
			}
			if fresh {
				o.Create(slotKey(k), u64(slot))
			} else {
				o.Set(slotKey(k), u64(slot))
			}
		}
		out.list = append(out.list, change{store: s, slot: slot, leaf: Leaf(k, val)})
	})
	for _, st := range wire.ProvableStores {
		if dirty[st.Prefix] {
			o.Set(countKey(st.Prefix), cs[st.Prefix].encode())
		}
	}
	return out
}

// Update writes the changed leaves into the trees through o, and every
// complete subtree above them once: for k changes in a tree of n leaves at
// most k·(log2 n + 1) node writes. o reads the trees as Assign left them
// (the counts and slots) and must not be the overlay whose writes go into
// the LtHash: the nodes are outside the hashed set. It returns the number
// of nodes written.
func Update(o *store.Overlay, c *Changes) int {
	written := 0
	// Changes come in key order, and a store's keys share their first byte:
	// the list is grouped by store already.
	for lo := 0; lo < len(c.list); {
		s := c.list[lo].store
		hi := lo
		for hi < len(c.list) && c.list[hi].store == s {
			hi++
		}
		t := openTree(o, s)
		idx := make([]uint64, 0, hi-lo)
		for _, ch := range c.list[lo:hi] {
			o.Set(nodeKey(s, 0, ch.slot), ch.leaf)
			idx = append(idx, ch.slot)
			written++
		}
		slices.Sort(idx)
		for level := 1; len(idx) > 0; level++ {
			parents := idx[:0]
			for _, i := range idx {
				p := i >> 1
				if (p+1)<<level > t.n { // not complete: its root is folded when asked (tree.span)
					continue
				}
				if len(parents) > 0 && parents[len(parents)-1] == p {
					continue
				}
				parents = append(parents, p)
			}
			for _, p := range parents {
				o.Set(nodeKey(s, level, p), inner(t.node(level-1, 2*p), t.node(level-1, 2*p+1)))
				written++
			}
			idx = parents
		}
		lo = hi
	}
	return written
}

// Roots are the provable stores' roots as the state r holds them, in the
// order of wire.ProvableStores.
func Roots(r store.Reader) [][]byte {
	out := make([][]byte, len(wire.ProvableStores))
	for i, s := range wire.ProvableStores {
		out[i] = openTree(r, s.Prefix).root()
	}
	return out
}

// mapItems are the app hash's leaves, sorted by name: each provable
// store's root and the LtHash digest.
func mapItems(ltSum []byte, roots [][]byte) (names []string, items [][]byte) {
	type kv struct {
		name  string
		value []byte
	}
	kvs := []kv{{wire.LtHashLeaf, ltSum}}
	for i, s := range wire.ProvableStores {
		kvs = append(kvs, kv{s.Name, roots[i]})
	}
	slices.SortFunc(kvs, func(a, b kv) int { return bytes.Compare([]byte(a.name), []byte(b.name)) })
	for _, e := range kvs {
		vh := sha256.Sum256(e.value)
		var b []byte
		b = binary.AppendUvarint(b, uint64(len(e.name)))
		b = append(b, e.name...)
		b = binary.AppendUvarint(b, uint64(len(vh)))
		b = append(b, vh[:]...)
		names = append(names, e.name)
		items = append(items, b)
	}
	return names, items
}

// AppHash is the app hash of a state whose LtHash digest is ltSum and
// whose provable stores have roots (Roots).
func AppHash(ltSum []byte, roots [][]byte) []byte {
	_, items := mapItems(ltSum, roots)
	return merkle.HashFromByteSlices(items)
}

// StateAppHash is AppHash of the state r holds, with its LtHash digest.
func StateAppHash(r store.Reader, ltSum []byte) []byte { return AppHash(ltSum, Roots(r)) }

// Errors of Prove; match them with errors.Is.
var (
	// ErrUnknownStore: the name is none of wire.ProvableStores.
	ErrUnknownStore = errors.New("not a provable store")
	// ErrNotInStore: the key does not belong to the named store.
	ErrNotInStore = errors.New("key not in the store")
	// ErrNotFound: the store holds no record under the key.
	ErrNotFound = errors.New("no record under the key")
)

// Prove returns the record under key in the provable store name of the
// state r holds (whose LtHash digest is ltSum) and its proof against that
// state's app hash: two CometBFT value proofs, the record in its store's
// tree, then the store's root in the app hash. It reads O(log² n) nodes.
func Prove(r store.Reader, ltSum []byte, name string, key []byte) ([]byte, *cmtcrypto.ProofOps, error) {
	s, ok := wire.StorePrefix(name)
	if !ok {
		return nil, nil, fmt.Errorf("%w: %q (provable: counters, epoch, gas_agent, submission, window)", ErrUnknownStore, name)
	}
	if len(key) == 0 || key[0] != s {
		return nil, nil, fmt.Errorf("%w: key %x is not a key of store %q (its keys start with %02x)", ErrNotInStore, key, name, s)
	}
	value, ok := r.Get(key)
	if !ok {
		return nil, nil, fmt.Errorf("%w: store %q holds nothing under key %x", ErrNotFound, name, key)
	}
	slot, ok := readU64(r, slotKey(key))
	if !ok {
		panic(fmt.Sprintf("commitment: record %x has no slot", key))
	}
	t := openTree(r, s)
	leaf := Leaf(key, value)
	if got := t.node(0, slot); !bytes.Equal(got, leaf) {
		panic(fmt.Sprintf("commitment: the leaf of record %x is %x, its value hashes to %x", key, got, leaf))
	}
	inStore := merkle.NewValueOp(key, &merkle.Proof{Total: int64(t.n), Index: int64(slot), LeafHash: leaf, Aunts: t.aunts(slot)})
	names, items := mapItems(ltSum, Roots(r))
	_, proofs := merkle.ProofsFromByteSlices(items)
	i := slices.Index(names, name)
	inApp := merkle.NewValueOp([]byte(name), proofs[i])
	return value, &cmtcrypto.ProofOps{Ops: []cmtcrypto.ProofOp{inStore.ProofOp(), inApp.ProofOp()}}, nil
}
