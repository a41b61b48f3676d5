package snapshot

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/scoringsubnet/validatord/app/store"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// versionedStore writes heights 1..n into a managed badger at dir as the app
// does (each height a version, the meta record with the app hash of the
// state), each height setting, changing and deleting some keys, and returns
// the full state of each height (index h).
func versionedStore(t *testing.T, dir string, rng *rand.Rand, n int) [][]Entry {
	t.Helper()
	db, err := badger.OpenManaged(badger.DefaultOptions(dir).WithLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cur := map[string][]byte{string(store.KeyChainID): []byte("test-chain")}
	states := make([][]Entry, n+1)
	for h := 1; h <= n; h++ {
		txn := db.NewTransactionAt(uint64(h-1), true)
		if h == 1 {
			if err := txn.Set(store.KeyChainID, []byte("test-chain")); err != nil {
				t.Fatal(err)
			}
		}
		for _, e := range randomState(rng, 40, 500) {
			if bytes.Equal(e.Key, store.KeyChainID) {
				continue
			}
			cur[string(e.Key)] = e.Value
			if err := txn.Set(e.Key, e.Value); err != nil {
				t.Fatal(err)
			}
		}
		del := 0
		for k := range cur {
			if del == 5 || k == string(store.KeyChainID) {
				continue
			}
			delete(cur, k)
			if err := txn.Delete([]byte(k)); err != nil {
				t.Fatal(err)
			}
			del++
		}
		var es []Entry
		for k, v := range cur {
			es = append(es, Entry{[]byte(k), v})
		}
		sortEntries(es)
		states[h] = es
		bz, err := (&subnetv1.Meta{Height: int64(h), Time: int64(1_700_000_000 + h), AppHash: appHashOf(es), FirstHeight: 1}).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if err := txn.Set(store.KeyMeta, bz); err != nil {
			t.Fatal(err)
		}
		if err := txn.CommitAt(uint64(h), nil); err != nil {
			t.Fatal(err)
		}
	}
	return states
}

// scanStore is every entry of a managed badger (without the meta record)
// at its newest version, and the meta record.
func scanStore(t *testing.T, dir string) ([]Entry, *subnetv1.Meta) {
	t.Helper()
	db, err := badger.OpenManaged(badger.DefaultOptions(dir).WithReadOnly(true).WithLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	txn := db.NewTransactionAt(store.Latest, false)
	defer txn.Discard()
	it := txn.NewIterator(badger.DefaultIteratorOptions)
	defer it.Close()
	var es []Entry
	for it.Rewind(); it.Valid(); it.Next() {
		v, err := it.Item().ValueCopy(nil)
		if err != nil {
			t.Fatal(err)
		}
		if k := it.Item().KeyCopy(nil); k[0] != store.PrefixMeta {
			es = append(es, Entry{k, v})
		}
	}
	m, _, err := metaAt(db, store.Latest)
	if err != nil {
		t.Fatal(err)
	}
	return es, m
}

// TestExportRestoreStore: the snapshot of every kept height of a versioned
// store, exported and restored into an empty store, gives that height's
// state, app hash and meta record (FirstHeight = the height); the newest
// height is the default and equals what Create writes from the same state.
func TestExportRestoreStore(t *testing.T) {
	src := t.TempDir()
	states := versionedStore(t, src, newRng(31), 6)
	for _, h := range []uint64{0, 6, 3, 1} {
		out := t.TempDir()
		info, err := ExportStore(src, out, ExportOptions{Height: h, ChunkSize: 2048})
		if err != nil {
			t.Fatalf("export %d: %v", h, err)
		}
		want := h
		if h == 0 {
			want = 6
		}
		if info.Height != want || info.Meta.ChainID != "test-chain" || info.Meta.Time != int64(1_700_000_000+want) {
			t.Fatalf("export %d: %+v", h, info.Meta)
		}
		ref := mustCreate(t, t.TempDir(), states[want], want, 2048)
		if !bytes.Equal(ref.Meta.AppHash, info.Meta.AppHash) || ref.Meta.Entries != info.Meta.Entries {
			t.Fatalf("export %d: app hash %x entries %d, want %x %d", h, info.Meta.AppHash, info.Meta.Entries, ref.Meta.AppHash, ref.Meta.Entries)
		}
		dst := filepath.Join(t.TempDir(), "app")
		meta, err := RestoreStore(dst, out, want, info.Meta.AppHash)
		if err != nil {
			t.Fatalf("restore %d: %v", want, err)
		}
		got, m := scanStore(t, dst)
		if !sameEntries(got, states[want]) {
			t.Fatalf("restore %d: %d entries, want %d (or contents differ)", want, len(got), len(states[want]))
		}
		if m.Height != int64(want) || m.FirstHeight != int64(want) || !bytes.Equal(m.AppHash, info.Meta.AppHash) || m.Height != meta.Height {
			t.Fatalf("restore %d: meta %+v", want, m)
		}
		// The restored store exports the same snapshot again.
		again, err := ExportStore(dst, t.TempDir(), ExportOptions{ChunkSize: 2048})
		if err != nil || !bytes.Equal(again.Hash, info.Hash) {
			t.Fatalf("re-export of the restore: %v, hash %x want %x", err, again.Hash, info.Hash)
		}
	}
}

// TestExportStoreRefusals: heights outside the kept versions, an empty
// store and a store open in another handle (a running node) are refused
// with their error.
func TestExportStoreRefusals(t *testing.T) {
	src := t.TempDir()
	versionedStore(t, src, newRng(32), 5)
	for _, o := range []ExportOptions{{Height: 6}, {Height: 2, KeepVersions: 3}} {
		_, err := ExportStore(src, t.TempDir(), o)
		wantErr(t, err, ErrVersionGone)
	}
	if _, err := ExportStore(src, t.TempDir(), ExportOptions{Height: 3, KeepVersions: 3}); err != nil {
		t.Fatal(err)
	}
	_, err := ExportStore(t.TempDir(), t.TempDir(), ExportOptions{})
	wantErr(t, err, ErrNoState)
	_, err = ExportStore(filepath.Join(t.TempDir(), "missing"), t.TempDir(), ExportOptions{})
	if !os.IsNotExist(err) && (err == nil || !bytes.Contains([]byte(err.Error()), []byte("no such file"))) {
		t.Fatalf("missing store: %v", err)
	}

	db, err := badger.OpenManaged(badger.DefaultOptions(src).WithLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, err = ExportStore(src, t.TempDir(), ExportOptions{})
	wantErr(t, err, ErrStoreLocked)
	_, err = RestoreStore(src, t.TempDir(), 1, make([]byte, 32))
	if err == nil {
		t.Fatal("restore into an open store succeeded")
	}
}

// TestRestoreStoreRefusals: a store with state is refused (and left as it
// was); a corrupted chunk and a wrong app hash are refused and leave the
// store empty, so a correct restore then succeeds.
func TestRestoreStoreRefusals(t *testing.T) {
	src := t.TempDir()
	states := versionedStore(t, src, newRng(33), 4)
	out := t.TempDir()
	info, err := ExportStore(src, out, ExportOptions{ChunkSize: 1024})
	if err != nil {
		t.Fatal(err)
	}
	if info.Chunks < 3 {
		t.Fatalf("want several chunks, got %d", info.Chunks)
	}

	_, err = RestoreStore(src, out, 4, info.Meta.AppHash)
	wantErr(t, err, ErrStoreNotEmpty)
	if got, m := scanStore(t, src); !sameEntries(got, states[4]) || m.Height != 4 {
		t.Fatal("the refused store changed")
	}

	dst := t.TempDir()
	wrong := append([]byte(nil), info.Meta.AppHash...)
	wrong[0] ^= 1
	_, err = RestoreStore(dst, out, 4, wrong)
	wantErr(t, err, ErrAppHash)
	_, err = RestoreStore(dst, out, 5, info.Meta.AppHash)
	wantErr(t, err, ErrNotFound)

	bad := t.TempDir()
	copyTree(t, out, bad)
	chunk := filepath.Join(bad, "4", chunkFile(1))
	bz, err := os.ReadFile(chunk)
	if err != nil {
		t.Fatal(err)
	}
	bz[len(bz)/2] ^= 0x40
	if err := os.WriteFile(chunk, bz, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = RestoreStore(dst, bad, 4, info.Meta.AppHash)
	wantErr(t, err, ErrChunkHash)
	if got, _ := scanStore(t, dst); len(got) != 0 {
		t.Fatalf("a refused restore left %d entries", len(got))
	}
	if _, err := RestoreStore(dst, out, 4, info.Meta.AppHash); err != nil {
		t.Fatalf("restore after refusals: %v", err)
	}
	if got, _ := scanStore(t, dst); !sameEntries(got, states[4]) {
		t.Fatal("restored state differs")
	}
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if fi.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		bz, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), bz, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestExportStoreUnclean: a store a killed node left (its files as they
// were while open: the memtable not flushed) cannot be opened read-only;
// ExportStore opens it read-write, as the node's restart would, and writes
// the snapshot of its newest height.
func TestExportStoreUnclean(t *testing.T) {
	src := t.TempDir()
	states := versionedStore(t, src, newRng(34), 3)
	// Small files: the copy reads them whole.
	db, err := badger.OpenManaged(badger.DefaultOptions(src).WithValueLogFileSize(1 << 20).WithMemTableSize(4 << 20).WithValueThreshold(1 << 10).WithLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Height 4 in the memtable only, then the files copied as a crash leaves them.
	txn := db.NewTransactionAt(3, true)
	if err := txn.Set([]byte{store.PrefixTask, 4}, []byte("four")); err != nil {
		t.Fatal(err)
	}
	es := append(append([]Entry(nil), states[3]...), Entry{[]byte{store.PrefixTask, 4}, []byte("four")})
	sortEntries(es)
	bz, err := (&subnetv1.Meta{Height: 4, Time: 1_700_000_004, AppHash: appHashOf(es), FirstHeight: 1}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := txn.Set(store.KeyMeta, bz); err != nil {
		t.Fatal(err)
	}
	if err := txn.CommitAt(4, nil); err != nil {
		t.Fatal(err)
	}
	crashed := t.TempDir()
	copyTree(t, src, crashed)
	if err := os.Remove(filepath.Join(crashed, "LOCK")); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if ro, err := badger.OpenManaged(badger.DefaultOptions(crashed).WithReadOnly(true).WithLogger(nil)); err == nil {
		ro.Close()
		t.Fatal("the crashed copy opens read-only: the test does not reach the read-write fallback")
	}
	info, err := ExportStore(crashed, t.TempDir(), ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if info.Height != 4 || !bytes.Equal(info.Meta.AppHash, appHashOf(es)) {
		t.Fatalf("export of the crashed copy: %+v", info.Meta)
	}
}
