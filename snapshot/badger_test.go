package snapshot

import (
	"bytes"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/scoringsubnet/validatord/app/store"
)

// TestBadgerIterator: a snapshot read through a badger read transaction
// equals the one of the same entries from a slice, leaves out the meta
// record, and sees the state as of the transaction, not later writes.
func TestBadgerIterator(t *testing.T) {
	db, err := badger.Open(badger.DefaultOptions("").WithInMemory(true).WithLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	es := randomState(newRng(11), 300, 2000)
	err = db.Update(func(txn *badger.Txn) error {
		if err := txn.Set(store.KeyMeta, []byte("meta")); err != nil {
			return err
		}
		for _, e := range es {
			if err := txn.Set(e.Key, e.Value); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	txn := db.NewTransaction(false)
	defer txn.Discard()
	if err := db.Update(func(w *badger.Txn) error { return w.Set([]byte{store.PrefixEpoch, 0xff}, []byte("later")) }); err != nil {
		t.Fatal(err)
	}
	it := NewBadgerIterator(txn)
	got, err := Create(t.TempDir(), it, header(es, 4), Options{ChunkSize: 4096, VerifyAppHash: true})
	it.Close()
	if err != nil {
		t.Fatal(err)
	}
	want := mustCreate(t, t.TempDir(), es, 4, 4096)
	if !bytes.Equal(got.Hash, want.Hash) {
		t.Fatal("badger and slice snapshots differ")
	}
}
