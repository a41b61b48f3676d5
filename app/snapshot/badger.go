package snapshot

import (
	"fmt"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/pb"
	"github.com/dgraph-io/ristretto/v2/z"

	"github.com/scoringsubnet/validatord/app/store"
)

// BadgerIterator reads every entry of the hashed set (store.Hashed: after the
// meta prefix, before the record trees' nodes) through one badger
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
	if !b.it.Valid() || !store.Hashed(b.it.Item().Key()) { // the record trees' nodes come last, outside the hashed set
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

// BadgerSink writes a restore into a badger through a StreamWriter:
// badger's bulk-load path, which writes sorted keys straight into tables
// (no memtable, no compaction). Prepare deletes whatever db holds: give it
// the empty store a restore fills. Flush once the Restorer is Done (then
// normal transactions work again, for the meta record); Cancel otherwise.
type BadgerSink struct {
	sw      *badger.StreamWriter
	buf     *z.Buffer
	version uint64
}

// sinkBatch is how many bytes the sink buffers per StreamWriter.Write.
const sinkBatch = 16 << 20

// NewBadgerSink prepares db (emptying it) for a restore whose entries get
// badger version version (≥ 1): 1 for the app's store today; the snapshot's
// height if the store ever keeps versions by height (managed mode, for
// queries at a height), so the restored state is the state as of that height.
// Discard open transactions and iterators of db first.
func NewBadgerSink(db *badger.DB, version uint64) (*BadgerSink, error) {
	if version == 0 {
		return nil, fmt.Errorf("snapshot: badger sink: version 0")
	}
	sw := db.NewStreamWriter()
	if err := sw.Prepare(); err != nil {
		return nil, err
	}
	return &BadgerSink{sw: sw, buf: z.NewBuffer(sinkBatch+sinkBatch/4, "snapshot.BadgerSink"), version: version}, nil
}

// Put implements Sink. The entry is copied into the sink's buffer.
func (s *BadgerSink) Put(k, v []byte) error {
	badger.KVToBuffer(&pb.KV{Key: k, Value: v, Version: s.version}, s.buf)
	if s.buf.LenNoPadding() < sinkBatch {
		return nil
	}
	return s.write()
}

func (s *BadgerSink) write() error {
	err := s.sw.Write(s.buf)
	s.buf.Reset()
	return err
}

// Flush writes what is buffered and finishes the tables.
func (s *BadgerSink) Flush() error {
	defer s.buf.Release()
	if err := s.write(); err != nil {
		s.sw.Cancel()
		return err
	}
	return s.sw.Flush()
}

// Cancel drops the restore.
func (s *BadgerSink) Cancel() {
	s.sw.Cancel()
	s.buf.Release()
}
