package store

import (
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
)

// mapReader is a base state in a map, counting its reads.
type mapReader struct {
	m     map[string]string
	reads atomic.Int64 // ApplyBlock reads from several goroutines
}

func (r *mapReader) Get(k []byte) ([]byte, bool) {
	r.reads.Add(1)
	v, ok := r.m[string(k)]
	if !ok {
		return nil, false
	}
	return []byte(v), true
}

// scanLanes hashes every entry of m from scratch.
func scanLanes(m map[string]string) Lanes {
	var h Hasher
	for k, v := range m {
		h.Add([]byte(k), []byte(v))
	}
	return h.Lanes
}

// TestApplyBlockMatchesScan: a block overlay's lanes, with the old values
// taken from its read cache, equal ApplyOverlay's and a full rescan's,
// whatever mix of reads, rewrites, deletions, fresh keys and created keys
// (Create, directly or merged from a transaction's overlay) the block made,
// and ApplyBlock reads base only for keys the block wrote without reading
// or creating.
func TestApplyBlockMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 50; round++ {
		base := &mapReader{m: map[string]string{}}
		for i := 0; i < 40; i++ {
			base.m[fmt.Sprint("k", rng.IntN(60))] = fmt.Sprint("v", rng.IntN(5))
		}
		baseLanes := scanLanes(base.m)
		o := NewBlockOverlay(base, 0)
		after := map[string]string{}
		for k, v := range base.m {
			after[k] = v
		}
		readFirst, written, created := map[string]bool{}, map[string]bool{}, map[string]bool{}
		next := 0                // the created keys' counter: "n<i>" is never in base
		read := func(k string) { // a read reaches base only before the key's first write
			o.Get([]byte(k))
			if !written[k] {
				readFirst[k] = true
			}
		}
		for i := 0; i < 30; i++ {
			k := fmt.Sprint("k", rng.IntN(60))
			switch rng.IntN(6) {
			case 4: // a key from a counter, created in the block or in a transaction merged into it
				k = fmt.Sprint("n", next)
				next++
				v := fmt.Sprint("v", rng.IntN(5))
				if rng.IntN(2) == 0 {
					o.Create([]byte(k), []byte(v))
				} else {
					tx := NewOverlay(o)
					tx.Create([]byte(k), []byte(v))
					tx.MergeInto(o)
				}
				after[k] = v
				written[k], created[k] = true, true
			case 5: // a created key written again or deleted: still not looked up
				if next == 0 {
					continue
				}
				k = fmt.Sprint("n", rng.IntN(next))
				if rng.IntN(3) == 0 {
					o.Delete([]byte(k))
					delete(after, k)
				} else {
					v := fmt.Sprint("w", rng.IntN(5))
					o.Set([]byte(k), []byte(v))
					after[k] = v
				}
				written[k] = true
			case 0:
				read(k)
			case 1, 2:
				if rng.IntN(2) == 0 {
					read(k)
				}
				v := fmt.Sprint("v", rng.IntN(5)) // sometimes the value base holds
				o.Set([]byte(k), []byte(v))
				after[k] = v
				written[k] = true
			case 3:
				o.Delete([]byte(k))
				delete(after, k)
				written[k] = true
			}
		}
		want := scanLanes(after)
		plain := ApplyOverlay(baseLanes, o, &mapReader{m: base.m})
		before := base.reads.Load()
		got := ApplyBlock(baseLanes, o)
		if got != want || plain != want {
			t.Fatalf("round %d: ApplyBlock %v, ApplyOverlay %v equal to the rescan", round, got == want, plain == want)
		}
		unread := 0
		o.Entries(func(k, _ []byte, _ bool) {
			if !readFirst[string(k)] && !created[string(k)] {
				unread++
			}
		})
		if got := base.reads.Load() - before; got != int64(unread) {
			t.Fatalf("round %d: ApplyBlock read base %d times, want %d (the written keys not read first nor created)", round, got, unread)
		}
	}
}

// TestApplyBlockParallelMatchesScan: a block large enough to be expanded on
// several cores gives the lanes of a full rescan.
func TestApplyBlockParallelMatchesScan(t *testing.T) {
	base := &mapReader{m: map[string]string{}}
	for i := 0; i < 3000; i++ {
		base.m[fmt.Sprint("k", i)] = fmt.Sprint("v", i%7)
	}
	baseLanes := scanLanes(base.m)
	o := NewBlockOverlay(base, 0)
	after := map[string]string{}
	for k, v := range base.m {
		after[k] = v
	}
	for i := 0; i < 5000; i += 2 { // rewrites, fresh keys, and a few deletions
		k := fmt.Sprint("k", i)
		if i%10 == 4 {
			o.Delete([]byte(k))
			delete(after, k)
			continue
		}
		o.Get([]byte(k))
		o.Set([]byte(k), []byte(fmt.Sprint("w", i%5)))
		after[k] = fmt.Sprint("w", i%5)
	}
	if got := ApplyBlock(baseLanes, o); got != scanLanes(after) {
		t.Fatal("lanes of a 2,500-write block differ from the rescan")
	}
}

// TestEntriesAfterApplyBlock: ApplyBlock sorts a block's writes once and
// keeps the list for Persist; a write after it (an overlay changed after its
// lanes were taken) must not leave Entries and the next ApplyBlock on the
// stale list: both see the new write, and the lanes equal a rescan's.
func TestEntriesAfterApplyBlock(t *testing.T) {
	base := &mapReader{m: map[string]string{"a": "1", "c": "3"}}
	o := NewBlockOverlay(base, 0)
	o.Set([]byte("b"), []byte("2"))
	first := ApplyBlock(scanLanes(base.m), o)
	if want := scanLanes(map[string]string{"a": "1", "b": "2", "c": "3"}); first != want {
		t.Fatal("lanes of the first write differ from a rescan")
	}
	o.Set([]byte("b"), []byte("22"))
	o.Delete([]byte("a"))
	o.Set([]byte("d"), []byte("4"))
	var got []string
	o.Entries(func(k, val []byte, del bool) { got = append(got, fmt.Sprintf("%s=%s/%v", k, val, del)) })
	if want := "[a=/true b=22/false d=4/false]"; fmt.Sprint(got) != want {
		t.Fatalf("Entries after more writes = %v, want %s", got, want)
	}
	if want := scanLanes(map[string]string{"b": "22", "c": "3", "d": "4"}); ApplyBlock(scanLanes(base.m), o) != want {
		t.Fatal("lanes after more writes differ from a rescan: ApplyBlock used the stale sorted list")
	}
}

// TestCreateClaims: a Create after a Set of the same key in the overlay
// makes no claim, and a Set or Delete after a Create keeps it (the first
// write decides), each checked by its own count of base reads; with
// VerifyCreates on, a Create
// of a key that holds a value panics, in Create when the overlay sees the
// value and in ApplyBlock when only the committed state holds it.
func TestCreateClaims(t *testing.T) {
	base := &mapReader{m: map[string]string{"held": "1"}}
	for _, c := range []struct {
		name  string
		write func(o *Overlay)
		reads int64
	}{
		{"a Create after a Set makes no claim", func(o *Overlay) {
			o.Set([]byte("a"), []byte("1"))
			o.Create([]byte("a"), []byte("2"))
		}, 1},
		{"a Set after a Create keeps the claim", func(o *Overlay) {
			o.Create([]byte("a"), []byte("1"))
			o.Set([]byte("a"), []byte("2"))
		}, 0},
		{"a Delete after a Create keeps the claim", func(o *Overlay) {
			o.Create([]byte("a"), []byte("1"))
			o.Delete([]byte("a"))
		}, 0},
	} {
		o := NewBlockOverlay(base, 0)
		c.write(o)
		after := map[string]string{"held": "1"}
		if v, ok := o.Get([]byte("a")); ok {
			after["a"] = string(v)
		}
		before := base.reads.Load()
		if got := ApplyBlock(scanLanes(base.m), o); got != scanLanes(after) {
			t.Fatalf("%s: lanes differ from a rescan", c.name)
		}
		if got := base.reads.Load() - before; got != c.reads {
			t.Fatalf("%s: ApplyBlock read base %d times, want %d", c.name, got, c.reads)
		}
	}

	defer VerifyCreates(VerifyCreates(true))
	mustPanic(t, "Create of a key the overlay sees", func() {
		NewBlockOverlay(base, 0).Create([]byte("held"), []byte("2"))
	})
	VerifyCreates(false)
	o := NewBlockOverlay(base, 0)
	o.Create([]byte("held"), []byte("2")) // unchecked: the claim is false
	VerifyCreates(true)
	mustPanic(t, "ApplyBlock over a false claim", func() { ApplyBlock(scanLanes(base.m), o) })
}

func mustPanic(t *testing.T, what string, fn func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Fatalf("%s: no panic", what)
		}
	}()
	fn()
}
