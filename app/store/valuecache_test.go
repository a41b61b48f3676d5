package store

import (
	"fmt"
	"testing"

	"github.com/dgraph-io/badger/v4"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// countingReader counts the reads that reach its base.
type countingReader struct {
	base  Reader
	reads int
}

func (r *countingReader) Get(k []byte) ([]byte, bool) {
	r.reads++
	return r.base.Get(k)
}

func openMemDB(t *testing.T) *badger.DB {
	t.Helper()
	db, err := badger.OpenManaged(badger.DefaultOptions("").WithInMemory(true).WithLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

func persistAt(t *testing.T, db *badger.DB, h int64, o *Overlay) {
	t.Helper()
	if err := Persist(db, []*Overlay{o}, &subnetv1.Meta{Height: h}); err != nil {
		t.Fatal(err)
	}
}

// TestValueCacheFollowsCommits, on a real badger: the cache answers what
// the committed state holds. A block that is executed and never committed
// (a proposal that lost) leaves nothing in it; the committed block's
// writes, deletions and new keys are what the next height's reads see,
// from the cache for the keys it held (no badger read); a reader for
// another height finds it empty.
func TestValueCacheFollowsCommits(t *testing.T) {
	db := openMemDB(t)
	genesis := NewOverlay(Empty{})
	for _, k := range []string{"a", "b", "c"} {
		genesis.Set([]byte(k), []byte(k+"1"))
	}
	persistAt(t, db, 1, genesis)
	c := NewValueCache(100, 1<<20)
	txn1 := db.NewTransactionAt(Latest, false)
	defer txn1.Discard()
	r := c.Reader(Snapshot{Txn: txn1}, 1)
	for _, k := range []string{"a", "b", "z"} {
		r.Get([]byte(k))
	}
	if c.Len() != 2 {
		t.Fatalf("the cache holds %d keys after reading 2 present and 1 absent", c.Len())
	}
	lost := NewBlockOverlay(c.Reader(Snapshot{Txn: txn1}, 1), 0)
	lost.Get([]byte("a"))
	lost.Set([]byte("a"), []byte("lost"))
	lost.Delete([]byte("b"))

	won := NewBlockOverlay(c.Reader(Snapshot{Txn: txn1}, 1), 0)
	if v, _ := won.Get([]byte("a")); string(v) != "a1" {
		t.Fatalf("after a losing proposal, a reads %q, want the committed a1", v)
	}
	won.Set([]byte("a"), []byte("a2"))
	won.Delete([]byte("b"))
	won.Set([]byte("z"), []byte("z2"))
	won.Set([]byte("d"), []byte("d2"))
	persistAt(t, db, 2, won)
	c.Commit(1, 2, won)

	txn2 := db.NewTransactionAt(Latest, false)
	defer txn2.Discard()
	badgerReads := &countingReader{base: Snapshot{Txn: txn2}}
	r2 := c.Reader(badgerReads, 2)
	for _, k := range []string{"a", "b", "c", "d", "z", "y"} {
		got, gotOK := r2.Get([]byte(k))
		want, wantOK := Snapshot{Txn: txn2}.Get([]byte(k))
		if gotOK != wantOK || string(got) != string(want) {
			t.Fatalf("%s reads %q %v through the cache, badger holds %q %v", k, got, gotOK, want, wantOK)
		}
	}
	if badgerReads.reads != 4 { // c, d, z, y: not held before
		t.Fatalf("%d reads reached badger, want 4 (the keys the cache did not hold)", badgerReads.reads)
	}
	c.Reader(Snapshot{Txn: txn2}, 7)
	if c.Len() != 0 {
		t.Fatalf("a reader at another height found %d keys held", c.Len())
	}
}

// TestValueCacheCommitFromElsewhere: a Commit from a height the cache is
// not at (it missed a block) empties it instead of patching old values.
func TestValueCacheCommitFromElsewhere(t *testing.T) {
	c := NewValueCache(100, 1<<20)
	base := NewOverlay(Empty{})
	base.Set([]byte("a"), []byte("1"))
	c.Reader(base, 5).Get([]byte("a"))
	o := NewOverlay(base)
	o.Set([]byte("b"), []byte("2"))
	c.Commit(6, 7, o)
	if c.Len() != 0 {
		t.Fatalf("a Commit from height 6 kept %d keys of height 5", c.Len())
	}
}

// TestValueCacheBounds: the cache keeps within its entry and byte bounds,
// a key read again survives eviction ahead of one read once, a frozen
// reader adds nothing, and a value over maxCachedValue is not kept.
func TestValueCacheBounds(t *testing.T) {
	base := NewOverlay(Empty{})
	for i := 0; i < 50; i++ {
		base.Set([]byte(fmt.Sprint("k", i)), make([]byte, 100))
	}
	base.Set([]byte("big"), make([]byte, maxCachedValue+1))
	c := NewValueCache(10, 1<<20)
	r := c.Reader(base, 1)
	r.Get([]byte("k0"))
	for i := 1; i < 50; i++ {
		r.Get([]byte("k0"))
		r.Get([]byte(fmt.Sprint("k", i)))
		if c.Len() > 10 {
			t.Fatalf("%d keys held, bound 10", c.Len())
		}
	}
	if _, ok := c.m["k0"]; !ok {
		t.Fatal("k0, read before every other read, was evicted")
	}
	r.Get([]byte("big"))
	if _, ok := c.m["big"]; ok {
		t.Fatal("a value over maxCachedValue was kept")
	}
	small := NewValueCache(100, 3*(100+3+EntryOverhead))
	rs := small.Reader(base, 1)
	for i := 10; i < 20; i++ {
		rs.Get([]byte(fmt.Sprint("k", i)))
	}
	if small.Len() != 3 || small.bytes > small.maxBytes {
		t.Fatalf("%d keys, %d bytes held under a bound of 3 entries' bytes", small.Len(), small.bytes)
	}
	rs.Freeze()
	rs.Get([]byte("k30"))
	if _, ok := small.m["k30"]; ok {
		t.Fatal("a frozen reader added a key")
	}
}
