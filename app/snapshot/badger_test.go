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

// TestBadgerSink: a restore through the StreamWriter sink leaves a badger
// that, with the meta record written afterwards by a normal transaction and
// after a reopen, yields the same snapshot again.
func TestBadgerSink(t *testing.T) {
	es := randomState(newRng(12), 2000, 3000)
	src := t.TempDir()
	info := mustCreate(t, src, es, 6, 8192)
	path := t.TempDir()
	db, err := badger.Open(badger.DefaultOptions(path).WithLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	sink, err := NewBadgerSink(db, 1)
	if err != nil {
		t.Fatal(err)
	}
	r, err := RestoreDir(src, 6, info.Meta.AppHash, sink)
	if err != nil {
		sink.Cancel()
		t.Fatal(err)
	}
	if err := sink.Flush(); err != nil {
		t.Fatal(err)
	}
	l := r.Lanes()
	if err := db.Update(func(txn *badger.Txn) error { return txn.Set(store.KeyMeta, l.Encode()) }); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if db, err = badger.Open(badger.DefaultOptions(path).WithLogger(nil)); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	txn := db.NewTransaction(false)
	defer txn.Discard()
	if item, err := txn.Get(store.KeyMeta); err != nil || item.ValueSize() != int64(len(l.Encode())) {
		t.Fatalf("meta record: %v", err)
	}
	it := NewBadgerIterator(txn)
	again, err := Create(t.TempDir(), it, header(es, 6), Options{ChunkSize: 8192, VerifyAppHash: true})
	it.Close()
	if err != nil || !bytes.Equal(again.Hash, info.Hash) {
		t.Fatalf("restored badger gives another snapshot: %v", err)
	}
	// A later write through a normal transaction is visible, above the restored version.
	if err := db.Update(func(w *badger.Txn) error { return w.Set(es[0].Key, []byte("new")) }); err != nil {
		t.Fatal(err)
	}
	if err := db.View(func(v *badger.Txn) error {
		item, err := v.Get(es[0].Key)
		if err != nil {
			return err
		}
		return item.Value(func(b []byte) error {
			if string(b) != "new" {
				t.Fatalf("read %q after a write over a restored key", b)
			}
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
}

// TestTwoNodesSameSnapshot: two badgers that reach the same state by
// different histories (order of writes, batches, overwritten and deleted
// keys) give byte-identical snapshots: what lets every node serve the same
// snapshot hash for a height.
func TestTwoNodesSameSnapshot(t *testing.T) {
	es := randomState(newRng(13), 1500, 3000)
	rng := newRng(14)
	var infos []Info
	for node := 0; node < 2; node++ {
		db, err := badger.Open(badger.DefaultOptions(t.TempDir()).WithLogger(nil))
		if err != nil {
			t.Fatal(err)
		}
		order := rng.Perm(len(es))
		for start := 0; start < len(order); start += 100 + node*37 {
			err := db.Update(func(txn *badger.Txn) error {
				for _, i := range order[start:min(start+100+node*37, len(order))] {
					if node == 1 { // an older value first, and a key that comes and goes
						if err := txn.Set(es[i].Key, []byte("old")); err != nil {
							return err
						}
					}
					if err := txn.Set(es[i].Key, es[i].Value); err != nil {
						return err
					}
				}
				if node == 1 {
					if err := txn.Set([]byte{store.PrefixTask, 0xee, byte(start)}, []byte("gone")); err != nil {
						return err
					}
				}
				return txn.Set(store.KeyMeta, []byte{byte(node), byte(start)})
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		if node == 1 {
			err := db.Update(func(txn *badger.Txn) error {
				for start := 0; start < len(order); start += 137 {
					if err := txn.Delete([]byte{store.PrefixTask, 0xee, byte(start)}); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		txn := db.NewTransaction(false)
		it := NewBadgerIterator(txn)
		info, err := Create(t.TempDir(), it, header(es, 20), Options{ChunkSize: 16 << 10, VerifyAppHash: true})
		it.Close()
		txn.Discard()
		_ = db.Close()
		if err != nil {
			t.Fatalf("node %d: %v", node, err)
		}
		infos = append(infos, info)
	}
	if !bytes.Equal(infos[0].Metadata, infos[1].Metadata) || !bytes.Equal(infos[0].Hash, infos[1].Hash) {
		t.Fatal("two nodes with one state give two snapshots")
	}
}
