package store

import (
	"errors"
	"fmt"
	"sort"
	"sync/atomic"

	"github.com/dgraph-io/badger/v4"
)

// Reader is a view of the state: committed badger, or an overlay over a reader.
type Reader interface {
	Get(k []byte) ([]byte, bool)
}

// Snapshot reads committed state through one badger read transaction.
type Snapshot struct{ Txn *badger.Txn }

// Get returns a copy of the committed value. A read error other than "not
// found" means the database is broken under us: a node cannot go on
// deterministically, so it panics.
func (s Snapshot) Get(k []byte) ([]byte, bool) {
	item, err := s.Txn.Get(k)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, false
	}
	if err != nil {
		panic(fmt.Sprintf("store: badger read %x: %v", k, err))
	}
	v, err := item.ValueCopy(nil)
	if err != nil {
		panic(fmt.Sprintf("store: badger read %x: %v", k, err))
	}
	return v, true
}

// entry is one overlay write: a value, or a deletion. fresh: the first
// write of the key in this overlay was a Create, so the committed state
// under the block holds nothing there.
type entry struct {
	val   []byte
	del   bool
	fresh bool
}

// verifyCreates: Create and ApplyBlock check every Create's claim
// (VerifyCreates).
var verifyCreates atomic.Bool

// VerifyCreates turns the checking of Create's claims on or off, for the
// whole process, and returns whether it was on: tests turn it on (it costs
// the badger look-ups Create saves); a broken claim panics with the key.
//
//	defer store.VerifyCreates(store.VerifyCreates(true)) // on, then as it was
func VerifyCreates(on bool) (was bool) { return verifyCreates.Swap(on) }

// EntryOverhead is what one entry is counted for beyond its key and value
// when bounding a block's writes (badger's per-entry metadata is smaller).
const EntryOverhead = 100

// Overlay buffers writes over a base reader. Nothing reaches badger until
// Persist writes a block's overlay in one transaction. Size counts the bytes
// of the buffered entries (key + value + EntryOverhead each).
type Overlay struct {
	base   Reader
	writes map[string]entry
	size   int
	reads  map[string]entry // NewBlockOverlay: what base held at the keys read through it
	sorted []sortedWrite    // the writes in key order, kept until the next write (sortedWrites)
}

// sortedWrite is one buffered write with its key as bytes: val is nil for a
// deletion.
type sortedWrite struct {
	k, val     []byte
	del, fresh bool
}

// NewOverlay returns an empty overlay over base.
func NewOverlay(base Reader) *Overlay {
	return &Overlay{base: base, writes: make(map[string]entry)}
}

// NewBlockOverlay returns an empty overlay over base that also remembers
// what it read from base, so that ApplyBlock finds the old value of a key
// the block read before writing it without reading base again (a badger
// lookup). base must not change while the overlay lives; a block's base
// does not. Such an overlay is for one goroutine (a read writes the cache).
// hint is the number of keys the block is expected to touch (its maps are
// sized for it, so they do not grow step by step).
func NewBlockOverlay(base Reader, hint int) *Overlay {
	return &Overlay{base: base, writes: make(map[string]entry, hint), reads: make(map[string]entry, hint)}
}

// Get reads k through the overlay.
func (o *Overlay) Get(k []byte) ([]byte, bool) {
	if e, ok := o.writes[string(k)]; ok {
		if e.del {
			return nil, false
		}
		return e.val, true
	}
	if o.reads == nil {
		return o.base.Get(k)
	}
	if e, ok := o.reads[string(k)]; ok {
		return e.val, !e.del
	}
	v, ok := o.base.Get(k)
	o.reads[string(k)] = entry{val: v, del: !ok}
	return v, ok
}

// before is what base holds at k: from the read cache of a block overlay,
// else read from base. It writes nothing, so ApplyBlock may call it from
// several goroutines once the block's execution is over.
func (o *Overlay) before(k []byte) ([]byte, bool) {
	if e, ok := o.reads[string(k)]; ok {
		return e.val, !e.del
	}
	return o.base.Get(k)
}

// Set writes v at k.
func (o *Overlay) Set(k, v []byte) { o.put(string(k), entry{val: v}) }

// Create writes v at a key that has never held a value in the chain's
// state: one named by an id that a counter hands out once (a submission's
// id, a task's next submission index). ApplyBlock then takes the key's old
// value to be nothing without looking it up in badger, which for a key
// that is absent walks every memtable and level. A false claim would make
// an app hash that no scan of the stored state reproduces, so tests run
// with VerifyCreates on, which checks every claim (here, against what the
// overlay reads, and in ApplyBlock, against the committed state).
func (o *Overlay) Create(k, v []byte) {
	if verifyCreates.Load() {
		if _, ok := o.Get(k); ok {
			panic(fmt.Sprintf("store: Create of %x, which holds a value", k))
		}
	}
	o.put(string(k), entry{val: v, fresh: true})
}

// Delete removes k.
func (o *Overlay) Delete(k []byte) { o.put(string(k), entry{del: true}) }

// Size is the counted bytes of the buffered entries.
func (o *Overlay) Size() int { return o.size }

func (o *Overlay) put(k string, e entry) {
	if old, ok := o.writes[k]; ok {
		o.size -= len(k) + len(old.val) + EntryOverhead
		e.fresh = old.fresh // the first write of k here made (or did not make) the claim about the base
	}
	o.size += len(k) + len(e.val) + EntryOverhead
	o.writes[k] = e
	o.sorted = nil
}

// sortedKeys returns the written keys in byte order. It is the one range
// over a map in the store: the keys are sorted before anyone sees them, so
// the map's order never reaches state, hashes or output.
func (o *Overlay) sortedKeys() []string {
	keys := make([]string, 0, len(o.writes))
	// det: sorted
	for k := range o.writes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// MergeInto copies this overlay's writes into parent (its base), in key order.
func (o *Overlay) MergeInto(parent *Overlay) {
	for _, k := range o.sortedKeys() {
		parent.put(k, o.writes[k])
	}
}

// Entries calls fn for every buffered write in key order; val is nil for a
// deletion. fn must not change k: the key bytes are kept for the next call.
func (o *Overlay) Entries(fn func(k, val []byte, del bool)) {
	for _, w := range o.sortedWrites() {
		fn(w.k, w.val, w.del)
	}
}

// Writes is Entries with each write's Create claim: fresh is true for a key
// written with Create, which never held a value in the chain's state.
func (o *Overlay) Writes(fn func(k, val []byte, del, fresh bool)) {
	for _, w := range o.sortedWrites() {
		fn(w.k, w.val, w.del, w.fresh)
	}
}

// sortedWrites lists the writes in key order. The list is kept until the
// next write, so a block's overlay is sorted once for both its app hash
// (ApplyBlock, in FinalizeBlock) and its badger transaction (Persist, in
// Commit).
func (o *Overlay) sortedWrites() []sortedWrite {
	if o.sorted != nil || len(o.writes) == 0 {
		return o.sorted
	}
	keys := o.sortedKeys()
	o.sorted = make([]sortedWrite, len(keys))
	for i, k := range keys {
		e := o.writes[k]
		o.sorted[i] = sortedWrite{k: []byte(k), val: e.val, del: e.del, fresh: e.fresh}
	}
	return o.sorted
}

// Len is the number of buffered writes.
func (o *Overlay) Len() int { return len(o.writes) }

// Empty is a state with nothing stored.
type Empty struct{}

// Get finds nothing.
func (Empty) Get([]byte) ([]byte, bool) { return nil, false }
