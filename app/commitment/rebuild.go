package commitment

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
)

// ErrRebuild is matched by every inconsistency Rebuild finds between the
// records, their slots and the stores' counts of a restored state.
var ErrRebuild = errors.New("the record trees do not rebuild")

// Rebuilder makes the record trees again from a state's hashed entries,
// given in key order (a snapshot's): the records, then their slots, then
// the stores' counts, then the free slots all come in that order, since
// their prefixes do. It holds one leaf per slot in memory.
type Rebuilder struct {
	records []pending // the provable records seen, in key order
	next    int       // the first record not yet matched with its slot
	leaves  [256][]slotted
	counts  [256]counts
	free    [256][]uint64 // the free queue's slots, in queue order
	err     error
}

type slotted struct {
	slot uint64
	leaf []byte
}

type pending struct {
	key  []byte
	leaf []byte
}

// Add takes the next entry of the state (key order). It keeps what the
// trees need and skips the rest.
func (b *Rebuilder) Add(k, v []byte) {
	if b.err != nil || len(k) == 0 {
		return
	}
	switch {
	case isRecord(k):
		b.records = append(b.records, pending{key: append([]byte(nil), k...), leaf: Leaf(k, v)})
	case k[0] == store.PrefixRecordSlot:
		rec := k[1:]
		if !isRecord(rec) || len(v) != 8 {
			b.fail("slot entry %x of %d bytes is not a provable record's", k, len(v))
			return
		}
		if b.next >= len(b.records) || !bytes.Equal(b.records[b.next].key, rec) {
			if b.next < len(b.records) && bytes.Compare(b.records[b.next].key, rec) < 0 {
				b.fail("record %x has no slot", b.records[b.next].key)
			} else {
				b.fail("slot entry %x names no record", k)
			}
			return
		}
		b.leaves[rec[0]] = append(b.leaves[rec[0]], slotted{slot: beU64(v), leaf: b.records[b.next].leaf})
		b.records[b.next] = pending{}
		b.next++
	case k[0] == store.PrefixRecordCount:
		c, err := decodeCounts(v)
		if len(k) != 2 || !isRecord(k[1:]) || err != nil {
			b.fail("count entry %x is malformed (%v)", k, err)
			return
		}
		b.counts[k[1]] = c
	case k[0] == store.PrefixRecordFree:
		if len(k) != 10 || !isRecord(k[1:2]) || len(v) != 8 {
			b.fail("free slot entry %x is malformed", k)
			return
		}
		s, pos := k[1], beU64(k[2:])
		if c := b.counts[s]; pos != c.head+uint64(len(b.free[s])) || pos >= c.tail {
			b.fail("free slot entry %x is not next in the queue [%d, %d) of store %#x", k, c.head, c.tail, s)
			return
		}
		b.free[s] = append(b.free[s], beU64(v))
	}
}

func isRecord(k []byte) bool {
	_, ok := wire.StoreOfKey(k)
	return ok
}

func beU64(v []byte) uint64 {
	var n uint64
	for _, c := range v {
		n = n<<8 | uint64(c)
	}
	return n
}

func (b *Rebuilder) fail(format string, args ...any) {
	if b.err == nil {
		b.err = fmt.Errorf("%w: "+format, append([]any{ErrRebuild}, args...)...)
	}
}

// Finish checks that every record has its slot and every store's slots are
// exactly 0 … count−1, then calls put with every node of every tree in key
// order (a snapshot's sink takes keys in order) and returns the stores'
// roots (Roots' order).
func (b *Rebuilder) Finish(put func(k, v []byte) error) ([][]byte, error) {
	if b.err != nil {
		return nil, b.err
	}
	if b.next < len(b.records) {
		return nil, fmt.Errorf("%w: record %x has no slot", ErrRebuild, b.records[b.next].key)
	}
	// Node keys sort by store byte, then level, then index.
	order := make([]int, len(wire.ProvableStores))
	for i := range order {
		order[i] = i
	}
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && wire.ProvableStores[order[j]].Prefix < wire.ProvableStores[order[j-1]].Prefix; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	roots := make([][]byte, len(wire.ProvableStores))
	for _, i := range order {
		s := wire.ProvableStores[i].Prefix
		c := b.counts[s]
		n := c.n
		if uint64(len(b.free[s])) != c.tail-c.head {
			return nil, fmt.Errorf("%w: store %#x's free queue [%d, %d) holds %d slots", ErrRebuild, s, c.head, c.tail, len(b.free[s]))
		}
		if uint64(len(b.leaves[s]))+uint64(len(b.free[s])) != n {
			return nil, fmt.Errorf("%w: store %#x counts %d leaves and has %d records and %d free slots", ErrRebuild, s, n, len(b.leaves[s]), len(b.free[s]))
		}
		for _, slot := range b.free[s] {
			b.leaves[s] = append(b.leaves[s], slotted{slot: slot, leaf: emptyLeaf()})
		}
		level := make([][]byte, n)
		for _, e := range b.leaves[s] {
			if e.slot >= n {
				return nil, fmt.Errorf("%w: slot %d of store %#x is past its count %d", ErrRebuild, e.slot, s, n)
			}
			if level[e.slot] != nil {
				return nil, fmt.Errorf("%w: slot %d of store %#x is taken twice", ErrRebuild, e.slot, s)
			}
			level[e.slot] = e.leaf
		}
		// The complete subtrees, level by level; the incomplete right edge
		// is folded from them, as tree.span does.
		levels := [][][]byte{level}
		for l := 0; len(level) > 0; l++ {
			for j, h := range level {
				if err := put(nodeKey(s, l, uint64(j)), h); err != nil {
					return nil, err
				}
			}
			next := make([][]byte, len(level)/2)
			for j := range next {
				next[j] = inner(level[2*j], level[2*j+1])
			}
			level = next
			levels = append(levels, level)
		}
		roots[i] = emptyRoot()
		if n > 0 {
			roots[i] = spanOf(levels, 0, n)
		}
		b.leaves[s] = nil
	}
	return roots, nil
}

// spanOf is tree.span over levels held in memory.
func spanOf(levels [][][]byte, start, size uint64) []byte {
	if size&(size-1) == 0 {
		l := 0
		for 1<<l < size {
			l++
		}
		return levels[l][start>>l]
	}
	k := split(size)
	return inner(spanOf(levels, start, k), spanOf(levels, start+k, size-k))
}
