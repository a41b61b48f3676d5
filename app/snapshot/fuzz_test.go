package snapshot

import (
	"bytes"
	"crypto/sha256"
	"testing"
)

// FuzzDecodeChunk: decoding any bytes as a chunk never panics; a chunk the
// Restorer accepts re-encodes to the same bytes (one stream per state), and
// its keys are strictly increasing and never of the meta prefix.
func FuzzDecodeChunk(f *testing.F) {
	f.Add(stream(e("\x01a", "1"), e("\x01b", ""), e("\x02c", "xyz")))
	f.Add([]byte{})
	f.Add([]byte{0x01, 0x05, 0x00})
	f.Fuzz(func(t *testing.T, chunk []byte) {
		var es []Entry
		sink := sinkFunc(func(k, v []byte) error { es = append(es, Entry{k, v}); return nil })
		// The Restorer's own count and hash checks fail for arbitrary bytes;
		// decode with counts that cannot be reached, so every entry is seen.
		m := Metadata{Format: FormatV1, Height: 1, AppHash: make([]byte, 32), Entries: uint64(len(chunk)), Size: uint64(len(chunk)) + 1,
			Chunks: [][32]byte{sha256.Sum256(chunk), {}}}
		r, err := NewRestorer(m, m.AppHash, sink)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Apply(0, chunk); err != nil {
			return
		}
		if !bytes.Equal(stream(es...), chunk) {
			t.Fatalf("accepted %x, re-encodes to %x", chunk, stream(es...))
		}
		for i, x := range es {
			if len(x.Key) == 0 || x.Key[0] == 0 || (i > 0 && bytes.Compare(es[i-1].Key, x.Key) >= 0) {
				t.Fatalf("accepted key %x after %v", x.Key, es[:i])
			}
		}
	})
}

// FuzzDecodeMetadata: any metadata that decodes is canonical.
func FuzzDecodeMetadata(f *testing.F) {
	f.Add(Metadata{Format: FormatV1, ChainID: "c", Height: 3, AppHash: make([]byte, 32), Entries: 1, Size: 4, Chunks: [][32]byte{{9}}}.Encode())
	f.Add([]byte("VDSS"))
	f.Fuzz(func(t *testing.T, bz []byte) {
		m, err := DecodeMetadata(bz)
		if err == nil && !bytes.Equal(m.Encode(), bz) {
			t.Fatalf("%x decoded but encodes to %x", bz, m.Encode())
		}
	})
}

type sinkFunc func(k, v []byte) error

func (s sinkFunc) Put(k, v []byte) error { return s(k, v) }
