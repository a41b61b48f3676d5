package snapshot

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/scoringsubnet/validatord/app/commitment"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
)

// randomState is a sorted state of n entries with keys under the layout's
// prefixes (never the meta prefix), empty values, and now and then a value
// of up to big bytes.
func randomState(rng *rand.Rand, n, big int) []Entry {
	seen := map[string]bool{}
	var out []Entry
	for len(out) < n {
		p := store.Layout[1+rng.IntN(len(store.Layout)-1)].Byte
		if _, provable := wire.StoreOfKey([]byte{p}); provable || p == store.PrefixRecordSlot || p == store.PrefixRecordCount ||
			p == store.PrefixRecordFree || p == store.PrefixRecordNode {
			continue // records need their slots in the trees: withSlots makes such states
		}
		k := make([]byte, 1+rng.IntN(24))
		k[0] = p
		for i := 1; i < len(k); i++ {
			k[i] = byte(rng.IntN(256))
		}
		if seen[string(k)] {
			continue
		}
		seen[string(k)] = true
		var v []byte
		switch r := rng.IntN(10); {
		case r == 0:
			v = []byte{}
		case r == 1 && big > 0:
			v = randBytes(rng, rng.IntN(big+1))
		default:
			v = randBytes(rng, rng.IntN(300))
		}
		out = append(out, Entry{k, v})
	}
	sortEntries(out)
	return out
}

// withSlots gives every provable record of es its slot in its store's tree
// (in key order) and every store its count, as the app would have, and
// returns the whole state sorted.
func withSlots(es []Entry) []Entry {
	sortEntries(es)
	var counts [256]uint64
	var grown []byte
	out := es
	for _, e := range es {
		if _, ok := wire.StoreOfKey(e.Key); !ok {
			continue
		}
		s := e.Key[0]
		if counts[s] == 0 {
			grown = append(grown, s)
		}
		out = append(out, Entry{append([]byte{store.PrefixRecordSlot}, e.Key...), binary.BigEndian.AppendUint64(nil, counts[s])})
		counts[s]++
	}
	for _, s := range grown {
		// leaves, then an empty free queue (head = tail = 0)
		out = append(out, Entry{[]byte{store.PrefixRecordCount, s}, binary.BigEndian.AppendUint64(make([]byte, 0, 24), counts[s])[:24]})
	}
	sortEntries(out)
	return out
}

func randBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

func sortEntries(es []Entry) {
	sort.Slice(es, func(i, j int) bool { return bytes.Compare(es[i].Key, es[j].Key) < 0 })
}

// lanesOf is the LtHash digest of es computed directly with store.Lanes.
func lanesOf(es []Entry) []byte {
	var l store.Lanes
	for _, e := range es {
		if store.Hashed(e.Key) {
			l.Add(e.Key, e.Value)
		}
	}
	return l.Sum()
}

// appHashOf is the app hash of es: the LtHash computed directly with
// store.Lanes and the record trees' roots, the reference the Restorer must
// agree with.
func appHashOf(es []Entry) []byte {
	var l store.Lanes
	var trees commitment.Rebuilder
	for _, e := range es {
		if store.Hashed(e.Key) {
			l.Add(e.Key, e.Value)
			trees.Add(e.Key, e.Value)
		}
	}
	roots, err := trees.Finish(func(_, _ []byte) error { return nil })
	if err != nil {
		panic(err)
	}
	return commitment.AppHash(l.Sum(), roots)
}

// mapSink keeps what it is given, in order: the snapshot's entries, and
// apart from them the record trees' nodes the restore makes again.
type mapSink struct {
	entries []Entry
	nodes   int
	fail    error
}

func (s *mapSink) Put(k, v []byte) error {
	if s.fail != nil {
		return s.fail
	}
	if !store.Hashed(k) {
		s.nodes++
		return nil
	}
	s.entries = append(s.entries, Entry{append([]byte(nil), k...), append([]byte(nil), v...)})
	return nil
}

func header(es []Entry, height uint64) Header {
	return Header{ChainID: "test-chain", Height: height, Time: 1_700_000_000, AppHash: appHashOf(es)}
}

func mustCreate(t testing.TB, dir string, es []Entry, height uint64, chunk int) Info {
	t.Helper()
	info, err := Create(dir, &SliceIterator{Entries: es}, header(es, height), Options{ChunkSize: chunk})
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// crafted builds the metadata of hand-made chunks (their hashes right), so
// that a test reaches the checks behind the chunk hash.
func crafted(chunks [][]byte, entries uint64, appHash []byte) Metadata {
	m := Metadata{Format: FormatV1, ChainID: "test-chain", Height: 7, AppHash: appHash, Entries: entries}
	for _, c := range chunks {
		m.Chunks = append(m.Chunks, sha256.Sum256(c))
		m.Size += uint64(len(c))
	}
	return m
}

func stream(es ...Entry) []byte {
	var out []byte
	for _, e := range es {
		out = AppendEntry(out, e.Key, e.Value)
	}
	return out
}

func e(k, v string) Entry { return Entry{[]byte(k), []byte(v)} }

// applyAll applies chunks in order and returns the first error.
func applyAll(r *Restorer, chunks [][]byte) (Result, error) {
	var res Result
	for i, c := range chunks {
		var err error
		if res, err = r.Apply(uint32(i), c); err != nil {
			return res, err
		}
	}
	return res, nil
}

func wantErr(t *testing.T, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("error %v, want %v", err, want)
	}
}

func newRng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed)) }

func sha(b []byte) []byte {
	h := sha256.Sum256(b)
	return h[:]
}
