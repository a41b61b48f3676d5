package snapshot

import (
	"encoding/binary"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/scoringsubnet/validatord/app/store"
)

// 16 MiB by default, so that make test (which runs every benchmark once)
// stays quick; docs/statesync.md gives the figures of -snapshot.mib=256.
var benchMiB = flag.Int("snapshot.mib", 16, "state size of the snapshot benchmarks, MiB")

var bench struct {
	once    sync.Once
	entries []Entry
	bytes   int64
	appHash []byte
}

// benchState is a generated state of about -snapshot.mib MiB: keys of the
// layout's prefixes and 8-byte ids, values of 64–2047 random bytes (the
// size of the app's records; the mean is about 1 KiB), and the provable
// records' slots, so that a restore rebuilds their trees.
func benchState(b *testing.B) ([]Entry, int64, []byte) {
	bench.once.Do(func() {
		rng := rand.New(rand.NewChaCha8([32]byte{42}))
		want := int64(*benchMiB) << 20
		for id := uint64(0); bench.bytes < want; id++ {
			p := store.Layout[1+id%uint64(len(store.Layout)-1)]
			if p.Unhashed || p.Byte == store.PrefixRecordSlot || p.Byte == store.PrefixRecordCount || p.Byte == store.PrefixRecordFree {
				continue // withSlots writes the records' slots and counts
			}
			k := binary.BigEndian.AppendUint64([]byte{p.Byte}, id)
			v := make([]byte, 64+rng.IntN(1984))
			for i := 0; i+8 <= len(v); i += 8 {
				binary.LittleEndian.PutUint64(v[i:], rng.Uint64())
			}
			bench.entries = append(bench.entries, Entry{k, v})
			bench.bytes += int64(EntrySize(k, v))
		}
		bench.entries = withSlots(bench.entries)
		bench.appHash = appHashOf(bench.entries)
	})
	return bench.entries, bench.bytes, bench.appHash
}

func report(b *testing.B, bytes int64, keys int) {
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(bytes)*float64(b.N)/s/1e6, "MB/s")
	b.ReportMetric(float64(keys)*float64(b.N)/s, "keys/s")
	b.ReportMetric(float64(bytes)/1e6, "MB")
}

// BenchmarkCreate: writing the chunks and metadata of a state from a sorted
// iterator, fsyncs included (go test -run '^$' -bench Create -benchtime 1x).
func BenchmarkCreate(b *testing.B) {
	es, size, hash := benchState(b)
	dir := b.TempDir()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h := Header{ChainID: "bench", Height: uint64(i + 1), AppHash: hash}
		if _, err := Create(dir, &SliceIterator{Entries: es}, h, Options{}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		_ = os.RemoveAll(heightDir(dir, uint64(i+1)))
		b.StartTimer()
	}
	report(b, size, len(es))
}

// BenchmarkRestore: reading a stored snapshot, verifying every chunk,
// decoding and hashing every entry (the lanes) and checking the app hash;
// "discard" drops the entries; "badger-batch" writes them into an empty
// badger on disk in a WriteBatch, "badger-stream" through BadgerSink (a
// StreamWriter), then syncs.
func BenchmarkRestore(b *testing.B) {
	es, size, hash := benchState(b)
	dir := b.TempDir()
	if _, err := Create(dir, &SliceIterator{Entries: es}, Header{ChainID: "bench", Height: 1, AppHash: hash}, Options{}); err != nil {
		b.Fatal(err)
	}
	b.Run("discard", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := RestoreDir(dir, 1, hash, sinkFunc(func(k, v []byte) error { return nil })); err != nil {
				b.Fatal(err)
			}
		}
		report(b, size, len(es))
	})
	// intoBadger restores into a fresh badger per iteration through the
	// sink open returns, then flushes and syncs (the open is not timed).
	intoBadger := func(b *testing.B, open func(db *badger.DB) (Sink, func() error, error)) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			path := filepath.Join(b.TempDir(), "db"+strconv.Itoa(i))
			db, err := badger.Open(badger.DefaultOptions(path).WithLogger(nil))
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			sink, flush, err := open(db)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := RestoreDir(dir, 1, hash, sink); err != nil {
				b.Fatal(err)
			}
			if err := flush(); err != nil {
				b.Fatal(err)
			}
			if err := db.Sync(); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			_ = db.Close()
			b.StartTimer()
		}
		report(b, size, len(es))
	}
	b.Run("badger-batch", func(b *testing.B) {
		intoBadger(b, func(db *badger.DB) (Sink, func() error, error) {
			wb := db.NewWriteBatch()
			return sinkFunc(wb.Set), wb.Flush, nil
		})
	})
	b.Run("badger-stream", func(b *testing.B) {
		intoBadger(b, func(db *badger.DB) (Sink, func() error, error) {
			sink, err := NewBadgerSink(db, 1)
			if err != nil {
				return nil, nil, err
			}
			return sink, sink.Flush, nil
		})
	})
}
