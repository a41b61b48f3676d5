package replay

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/dgraph-io/badger/v4"
)

func TestDumpBadger(t *testing.T) {
	dir := t.TempDir()
	db, err := badger.Open(badger.DefaultOptions(dir).WithLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := es("a", "1", "b/1", "", "b/2", "xyz")
	err = db.Update(func(txn *badger.Txn) error {
		for i := len(want) - 1; i >= 0; i-- {
			if err := txn.Set(want[i].Key, want[i].Value); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	if _, err := DumpBadger(dir); !errors.Is(err, ErrNodeRunning) {
		t.Fatalf("dump of an open badger dir: got %v, want ErrNodeRunning", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := DumpBadger(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("got %d entries, want %d", len(got), len(want))
	}
	for i := range want {
		if !bytes.Equal(got[i].Key, want[i].Key) || !bytes.Equal(got[i].Value, want[i].Value) || got[i].Value == nil {
			t.Fatalf("entry %d: %q=%q, want %q=%q", i, got[i].Key, got[i].Value, want[i].Key, want[i].Value)
		}
	}
	if _, err := DumpBadger(dir + "/missing"); err == nil {
		t.Fatal("dump of a missing dir: no error")
	}
}

func TestCopyDirThenDump(t *testing.T) {
	src := t.TempDir()
	db, err := badger.Open(badger.DefaultOptions(src).WithLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(txn *badger.Txn) error { return txn.Set([]byte("k"), []byte("v")) }); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	if err := copyDir(src, dst); err != nil {
		t.Fatal(err)
	}
	got, err := dumpBadger(dst, false, math.MaxUint64)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || string(got[0].Key) != "k" || string(got[0].Value) != "v" {
		t.Fatalf("copy holds %q, want k=v", got)
	}
}
