package snapshot

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/scoringsubnet/validatord/app/store"
)

// TestRoundTrip: random states (empty values, values larger than a chunk, a
// meta record that must be left out) → Create → RestoreDir into a map sink →
// the same entries in the same order, and the app hash store.Lanes computes
// directly.
func TestRoundTrip(t *testing.T) {
	for seed := uint64(0); seed < 40; seed++ {
		rng := rand.New(rand.NewPCG(seed, 99))
		es := randomState(rng, rng.IntN(400), 5000)
		chunk := []int{512, 2048, 8192, 1 << 20}[seed%4]
		withMeta := append([]Entry{{Key: []byte{store.PrefixMeta}, Value: []byte("meta")}}, es...)
		dir := t.TempDir()
		info := mustCreate(t, dir, withMeta, 10+seed, chunk)
		if info.Meta.Entries != uint64(len(es)) {
			t.Fatalf("seed %d: %d entries, want %d", seed, info.Meta.Entries, len(es))
		}
		sink := &mapSink{}
		r, err := RestoreDir(dir, 10+seed, appHashOf(es), sink)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !r.Done() || !sameEntries(sink.entries, es) {
			t.Fatalf("seed %d: restored %d entries, want %d (done %v)", seed, len(sink.entries), len(es), r.Done())
		}
		l := r.Lanes()
		if !bytes.Equal(l.Sum(), lanesOf(es)) {
			t.Fatalf("seed %d: restored lanes differ", seed)
		}
	}
}

func sameEntries(a, b []Entry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i].Key, b[i].Key) || !bytes.Equal(a[i].Value, b[i].Value) {
			return false
		}
	}
	return true
}

// TestChunking: chunks are cut at entry boundaries, none over the limit
// unless it holds one entry, and an empty state is one empty chunk.
func TestChunking(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	es := randomState(rng, 300, 3000)
	dir := t.TempDir()
	info := mustCreate(t, dir, es, 5, 1000)
	var total int
	for i := uint32(0); i < info.Chunks; i++ {
		c, err := Load(dir, 5, i)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rest := c; len(rest) > 0; n++ {
			if _, _, rest, err = DecodeEntry(rest); err != nil {
				t.Fatalf("chunk %d: %v", i, err)
			}
		}
		if len(c) > 1000 && n != 1 {
			t.Fatalf("chunk %d: %d bytes in %d entries", i, len(c), n)
		}
		total += len(c)
	}
	if uint64(total) != info.Meta.Size {
		t.Fatalf("chunks hold %d bytes, metadata says %d", total, info.Meta.Size)
	}

	edir := t.TempDir()
	empty := mustCreate(t, edir, nil, 1, 0)
	if empty.Chunks != 1 || empty.Meta.Entries != 0 || empty.Meta.Size != 0 {
		t.Fatalf("empty state: %+v", empty.Meta)
	}
	if r, err := RestoreDir(edir, 1, appHashOf(nil), &mapSink{}); err != nil || !r.Done() {
		t.Fatalf("empty state restore: %v", err)
	}
}

// TestDeterminism: two creations of the same state are byte-identical.
func TestDeterminism(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	es := randomState(rng, 500, 4000)
	a, b := t.TempDir(), t.TempDir()
	ia, ib := mustCreate(t, a, es, 9, 2048), mustCreate(t, b, es, 9, 2048)
	if !bytes.Equal(ia.Hash, ib.Hash) || !bytes.Equal(ia.Metadata, ib.Metadata) {
		t.Fatal("metadata differs")
	}
	files, _ := filepath.Glob(filepath.Join(a, "9", "*"))
	if len(files) != int(ia.Chunks)+1 {
		t.Fatalf("%d files for %d chunks", len(files), ia.Chunks)
	}
	for _, f := range files {
		x, _ := os.ReadFile(f)
		y, err := os.ReadFile(filepath.Join(b, "9", filepath.Base(f)))
		if err != nil || !bytes.Equal(x, y) {
			t.Fatalf("%s differs (%v)", filepath.Base(f), err)
		}
	}
}

// TestCreateRefuses: keys out of order, duplicate keys, a header whose app
// hash the state does not have (VerifyAppHash), an existing height.
func TestCreateRefuses(t *testing.T) {
	es := []Entry{e("\x01a", "1"), e("\x01b", "2")}
	cases := []struct {
		name string
		es   []Entry
		want error
	}{
		{"reordered", []Entry{es[1], es[0]}, ErrOrder},
		{"duplicate", []Entry{es[0], es[0]}, ErrDuplicateKey},
		{"empty key", []Entry{{Key: []byte{}, Value: nil}}, ErrMalformed},
		{"oversized entry", []Entry{{Key: []byte{1}, Value: make([]byte, MaxEntrySize)}}, ErrEntryTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			_, err := Create(dir, &SliceIterator{Entries: c.es}, header(es, 3), Options{})
			wantErr(t, err, c.want)
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Fatalf("a failed create left %d files", len(left))
			}
		})
	}
	dir := t.TempDir()
	h := header(es, 3)
	h.AppHash = appHashOf(es[:1])
	_, err := Create(dir, &SliceIterator{Entries: es}, h, Options{VerifyAppHash: true})
	wantErr(t, err, ErrAppHash)
	mustCreate(t, dir, es, 3, 0)
	_, err = Create(dir, &SliceIterator{Entries: es}, header(es, 3), Options{})
	wantErr(t, err, ErrExists)
	if _, err := Create(dir, &SliceIterator{Entries: es}, header(es, 4), Options{VerifyAppHash: true}); err != nil {
		t.Fatal(err)
	}
}

// TestListLoadPrune: the directory API.
func TestListLoadPrune(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "snapshots")
	if l, err := List(dir); err != nil || len(l) != 0 {
		t.Fatalf("missing dir: %v %v", l, err)
	}
	if removed, err := Prune(dir, 1); err != nil || removed != nil {
		t.Fatalf("prune of a missing dir: %v %v", removed, err)
	}
	es := []Entry{e("\x02chain", "x"), e("\x05m", "y")}
	for _, h := range []uint64{100, 20, 300, 4} {
		mustCreate(t, dir, es, h, 0)
	}
	if err := os.Mkdir(filepath.Join(dir, tmpPrefix+"500-crashed"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "0007"), 0o755); err != nil { // not a canonical height
		t.Fatal(err)
	}
	l, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	var hs []uint64
	for _, i := range l {
		hs = append(hs, i.Height)
	}
	if fmt.Sprint(hs) != "[4 20 100 300]" {
		t.Fatalf("List: %v", hs)
	}
	c, err := Load(dir, 20, 0)
	if err != nil || !bytes.Equal(c, stream(es...)) {
		t.Fatalf("Load: %x %v", c, err)
	}
	_, err = Load(dir, 20, 1)
	wantErr(t, err, ErrNotFound)
	_, err = LoadInfo(dir, 21)
	wantErr(t, err, ErrNotFound)

	removed, err := Prune(dir, 2)
	if err != nil || fmt.Sprint(removed) != "[4 20]" {
		t.Fatalf("Prune: %v %v", removed, err)
	}
	if l, _ = List(dir); len(l) != 2 || l[0].Height != 100 {
		t.Fatalf("after prune: %v", l)
	}
	if _, err := os.Stat(filepath.Join(dir, tmpPrefix+"500-crashed")); !os.IsNotExist(err) {
		t.Fatal("Prune left a crashed create's directory")
	}
	if removed, _ = Prune(dir, 0); removed != nil {
		t.Fatalf("keep 0 removed %v", removed)
	}
}
