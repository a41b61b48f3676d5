package snapshot

import (
	"github.com/dgraph-io/badger/v4"

	"github.com/scoringsubnet/validatord/app/store"
)

// BadgerIterator reads every entry after the meta prefix through one badger
// read transaction: the state as of that transaction's version, whatever is
// committed meanwhile. Close it before discarding the transaction.
type BadgerIterator struct {
	it      *badger.Iterator
	started bool
	k, v    []byte
}

// NewBadgerIterator iterates txn (a read transaction: db.NewTransaction(false)).
func NewBadgerIterator(txn *badger.Txn) *BadgerIterator {
	opts := badger.DefaultIteratorOptions
	opts.PrefetchSize = 256
	return &BadgerIterator{it: txn.NewIterator(opts)}
}

// Next implements Iterator. The slices are reused by the next call.
func (b *BadgerIterator) Next() ([]byte, []byte, bool, error) {
	if b.started {
		b.it.Next()
	} else {
		b.it.Seek([]byte{store.PrefixMeta + 1})
		b.started = true
	}
	if !b.it.Valid() {
		return nil, nil, false, nil
	}
	item := b.it.Item()
	b.k = item.KeyCopy(b.k[:0])
	var err error
	if b.v, err = item.ValueCopy(b.v[:0]); err != nil {
		return nil, nil, false, err
	}
	return b.k, b.v, true, nil
}

// Close releases the iterator.
func (b *BadgerIterator) Close() { b.it.Close() }
