package snapshot

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/scoringsubnet/validatord/app/store"
)

// randomState is a sorted state of n entries with keys under the layout's
// prefixes (never the meta prefix), empty values, and now and then a value
// of up to big bytes.
func randomState(rng *rand.Rand, n, big int) []Entry {
	seen := map[string]bool{}
	var out []Entry
	for len(out) < n {
		p := store.Layout[1+rng.IntN(len(store.Layout)-1)].Byte
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

// appHashOf is the app hash computed directly with store.Lanes: the naive
// reference the Restorer must agree with.
func appHashOf(es []Entry) []byte {
	var l store.Lanes
	for _, e := range es {
		if e.Key[0] != store.PrefixMeta {
			l.Add(e.Key, e.Value)
		}
	}
	return l.Sum()
}

// mapSink keeps what it is given, in order.
type mapSink struct {
	entries []Entry
	fail    error
}

func (s *mapSink) Put(k, v []byte) error {
	if s.fail != nil {
		return s.fail
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
