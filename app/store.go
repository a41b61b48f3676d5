package app

import (
	"errors"
	"fmt"
	"sort"

	"github.com/dgraph-io/badger/v4"
)

// reader is a view of the state: committed badger, or an overlay over a reader.
type reader interface {
	get(k []byte) ([]byte, bool)
}

// snapshot reads committed state through one badger read transaction.
type snapshot struct{ txn *badger.Txn }

// get returns a copy of the committed value. A read error other than "not
// found" means the database is broken under us: a node cannot go on
// deterministically, so it panics.
func (s snapshot) get(k []byte) ([]byte, bool) {
	item, err := s.txn.Get(k)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, false
	}
	if err != nil {
		panic(fmt.Sprintf("app: badger read %x: %v", k, err))
	}
	v, err := item.ValueCopy(nil)
	if err != nil {
		panic(fmt.Sprintf("app: badger read %x: %v", k, err))
	}
	return v, true
}

// entry is one overlay write: a value, or a deletion.
type entry struct {
	val []byte
	del bool
}

// entryOverhead is what one entry is counted for beyond its key and value
// when bounding a block's writes (badger's per-entry metadata is smaller).
const entryOverhead = 100

// overlay buffers writes over a base reader. Nothing reaches badger until
// Commit flushes the block's overlay in one transaction. size counts the
// bytes of the buffered entries (key + value + entryOverhead each).
type overlay struct {
	base   reader
	writes map[string]entry
	size   int
}

func newOverlay(base reader) *overlay {
	return &overlay{base: base, writes: make(map[string]entry)}
}

func (o *overlay) get(k []byte) ([]byte, bool) {
	if e, ok := o.writes[string(k)]; ok {
		if e.del {
			return nil, false
		}
		return e.val, true
	}
	return o.base.get(k)
}

func (o *overlay) set(k, v []byte) { o.put(string(k), entry{val: v}) }

func (o *overlay) del(k []byte) { o.put(string(k), entry{del: true}) }

func (o *overlay) put(k string, e entry) {
	if old, ok := o.writes[k]; ok {
		o.size -= len(k) + len(old.val) + entryOverhead
	}
	o.size += len(k) + len(e.val) + entryOverhead
	o.writes[k] = e
}

// sortedKeys returns the written keys in byte order. It is the one range
// over a map in app/: the keys are sorted before anyone sees them, so the
// map's order never reaches state, hashes or output.
func (o *overlay) sortedKeys() []string {
	keys := make([]string, 0, len(o.writes))
	// det: sorted
	for k := range o.writes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// mergeInto copies this overlay's writes into parent (its base), in key order.
func (o *overlay) mergeInto(parent *overlay) {
	for _, k := range o.sortedKeys() {
		parent.put(k, o.writes[k])
	}
}
