package snapshot

import (
	"bytes"
	"errors"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"
)

// TestRestoreRefuses: each bad stream is refused with its typed error and
// the answer its verdict names.
func TestRestoreRefuses(t *testing.T) {
	a, b, c := e("\x01a", "1"), e("\x01b", "2"), e("\x02c", "")
	good := []Entry{a, b, c}
	hash := appHashOf(good)
	truncated := stream(a, b)
	truncated = truncated[:len(truncated)-1]
	cases := []struct {
		name    string
		chunks  [][]byte
		entries uint64
		want    error
		action  Action
	}{
		{"truncated stream", [][]byte{truncated}, 2, ErrMalformed, RejectSnapshot},
		{"bytes after the last entry", [][]byte{append(stream(a, b, c), 0x05)}, 3, ErrMalformed, RejectSnapshot},
		{"non-minimal length", [][]byte{{0x83, 0x00, 1, 'x', 0}}, 1, ErrMalformed, RejectSnapshot},
		{"empty key", [][]byte{{0x00, 0x00}}, 1, ErrMalformed, RejectSnapshot},
		{"reordered entries", [][]byte{stream(b, a, c)}, 3, ErrOrder, RejectSnapshot},
		{"reordered across chunks", [][]byte{stream(a, c), stream(b)}, 3, ErrOrder, RejectSnapshot},
		{"duplicate key", [][]byte{stream(a, b, b, c)}, 4, ErrDuplicateKey, RejectSnapshot},
		{"duplicate key across chunks", [][]byte{stream(a, b), stream(b, c)}, 4, ErrDuplicateKey, RejectSnapshot},
		{"meta key", [][]byte{stream(e("\x00", "m"), a, b, c)}, 4, ErrMetaKey, RejectSnapshot},
		{"missing entries", [][]byte{stream(a, b)}, 3, ErrEntryCount, RejectSnapshot},
		{"more entries than the metadata", [][]byte{stream(a, b), stream(c)}, 2, ErrEntryCount, RejectSnapshot},
		{"state not of the trusted hash", [][]byte{stream(a, b, e("\x02c", "X"))}, 3, ErrAppHash, RejectSnapshot},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := NewRestorer(crafted(tc.chunks, tc.entries, hash), hash, &mapSink{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := applyAll(r, tc.chunks)
			wantErr(t, err, tc.want)
			var ce *ChunkError
			if !errors.As(err, &ce) {
				t.Fatalf("%T is not a *ChunkError", err)
			}
			if res.Action != tc.action || res.Done || res.RejectSender || res.Refetch != nil {
				t.Fatalf("result %+v, want %v", res, tc.action)
			}
			if _, again := r.Apply(ce.Index, tc.chunks[ce.Index]); !errors.Is(again, tc.want) {
				t.Fatalf("a finished restorer answered %v", again)
			}
		})
	}
	// The same good stream is accepted, and Done only after the last chunk.
	chunks := [][]byte{stream(a), stream(b, c)}
	r, _ := NewRestorer(crafted(chunks, 3, hash), hash, &mapSink{})
	if res, err := r.Apply(0, chunks[0]); err != nil || res.Done || res.Action != Accept {
		t.Fatalf("chunk 0: %+v %v", res, err)
	}
	if res, err := r.Apply(1, chunks[1]); err != nil || !res.Done || res.Action != Accept {
		t.Fatalf("chunk 1: %+v %v", res, err)
	}
}

// TestCorruptedChunk: a chunk that is not its metadata hash is refetched
// from another peer and its sender rejected; the good chunk then applies.
func TestCorruptedChunk(t *testing.T) {
	es := randomState(newRng(5), 200, 0)
	dir := t.TempDir()
	info := mustCreate(t, dir, es, 8, 512)
	r, err := NewRestorer(info.Meta, info.Meta.AppHash, &mapSink{})
	if err != nil {
		t.Fatal(err)
	}
	c0, _ := Load(dir, 8, 0)
	bad := append([]byte(nil), c0...)
	bad[len(bad)/2] ^= 1
	res, err := r.Apply(0, bad)
	wantErr(t, err, ErrChunkHash)
	if res.Action != Retry || !res.RejectSender || len(res.Refetch) != 1 || res.Refetch[0] != 0 {
		t.Fatalf("result %+v", res)
	}
	resp := res.Response("peer-1")
	if resp.Result != abcitypes.ResponseApplySnapshotChunk_RETRY || resp.RejectSenders[0] != "peer-1" || resp.RefetchChunks[0] != 0 {
		t.Fatalf("response %+v", resp)
	}
	if res, err = r.Apply(0, c0[:len(c0)-1]); !errors.Is(err, ErrChunkHash) || res.Action != Retry {
		t.Fatalf("truncated chunk: %+v %v", res, err)
	}
	for i := uint32(0); i < info.Chunks; i++ {
		c, _ := Load(dir, 8, i)
		if res, err = r.Apply(i, c); err != nil {
			t.Fatalf("chunk %d after a refetch: %v", i, err)
		}
	}
	if !res.Done {
		t.Fatal("not done")
	}
}

// TestChunkOutOfOrder: chunks are applied in order only; an index other
// than the next restarts the snapshot. After Done, any chunk is out of order.
func TestChunkOutOfOrder(t *testing.T) {
	es := randomState(newRng(6), 100, 0)
	dir := t.TempDir()
	info := mustCreate(t, dir, es, 8, 256)
	r, _ := NewRestorer(info.Meta, info.Meta.AppHash, &mapSink{})
	c1, _ := Load(dir, 8, 1)
	res, err := r.Apply(1, c1)
	wantErr(t, err, ErrOutOfOrder)
	if res.Action != RetrySnapshot || res.Response("p").Result != abcitypes.ResponseApplySnapshotChunk_RETRY_SNAPSHOT {
		t.Fatalf("result %+v", res)
	}
	for i := uint32(0); i < info.Chunks; i++ {
		c, _ := Load(dir, 8, i)
		if _, err := r.Apply(i, c); err != nil {
			t.Fatal(err)
		}
	}
	_, err = r.Apply(info.Chunks, nil)
	wantErr(t, err, ErrOutOfOrder)
}

// TestSinkFailure: a local write failure aborts state sync.
func TestSinkFailure(t *testing.T) {
	chunks := [][]byte{stream(e("\x01a", "1"))}
	hash := appHashOf([]Entry{e("\x01a", "1")})
	r, _ := NewRestorer(crafted(chunks, 1, hash), hash, &mapSink{fail: errors.New("disk full")})
	res, err := r.Apply(0, chunks[0])
	wantErr(t, err, ErrSink)
	if res.Action != Abort || res.Response("p").Result != abcitypes.ResponseApplySnapshotChunk_ABORT {
		t.Fatalf("result %+v", res)
	}
}

// TestOffer: OfferSnapshot's checks and answers.
func TestOffer(t *testing.T) {
	es := randomState(newRng(7), 50, 0)
	info := mustCreate(t, t.TempDir(), es, 12, 256)
	trusted := appHashOf(es)
	good := Descriptor{Height: 12, Format: FormatV1, Chunks: info.Chunks, Hash: info.Hash, Metadata: info.Metadata}
	if m, err := Offer(good, 12, trusted); err != nil || m.Entries != 50 {
		t.Fatalf("good offer: %v", err)
	}
	if DescriptorOf(info.ABCI()).Chunks != info.Chunks || OfferResponse(nil).Result != abcitypes.ResponseOfferSnapshot_ACCEPT {
		t.Fatal("abci round trip")
	}
	nonCanonical := append([]byte(nil), info.Metadata...)
	nonCanonical = append(nonCanonical[:4], append([]byte{0x81, 0x00}, nonCanonical[5:]...)...) // format 1 in two bytes
	other := appHashOf(es[1:])
	cases := []struct {
		name    string
		mutate  func(d *Descriptor)
		height  uint64
		trusted []byte
		want    error
		answer  abcitypes.ResponseOfferSnapshot_Result
	}{
		{"format", func(d *Descriptor) { d.Format = 2 }, 12, trusted, ErrFormat, abcitypes.ResponseOfferSnapshot_REJECT_FORMAT},
		{"hash", func(d *Descriptor) { d.Hash = other }, 12, trusted, ErrSnapshotHash, abcitypes.ResponseOfferSnapshot_REJECT_SENDER},
		{"chunk count", func(d *Descriptor) { d.Chunks++ }, 12, trusted, ErrChunkCount, abcitypes.ResponseOfferSnapshot_REJECT_SENDER},
		{"garbage metadata", func(d *Descriptor) { d.Metadata = []byte("VDSS\x01"); d.Hash = sha(d.Metadata) }, 12, trusted, ErrMetadata, abcitypes.ResponseOfferSnapshot_REJECT_SENDER},
		{"non-canonical metadata", func(d *Descriptor) { d.Metadata = nonCanonical; d.Hash = sha(d.Metadata) }, 12, trusted, ErrMetadata, abcitypes.ResponseOfferSnapshot_REJECT_SENDER},
		{"height", func(d *Descriptor) { d.Height = 13 }, 12, trusted, ErrHeight, abcitypes.ResponseOfferSnapshot_REJECT},
		{"trusted height", func(d *Descriptor) {}, 11, trusted, ErrHeight, abcitypes.ResponseOfferSnapshot_REJECT},
		{"wrong app hash", func(d *Descriptor) {}, 12, other, ErrAppHash, abcitypes.ResponseOfferSnapshot_REJECT},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := good
			c.mutate(&d)
			_, err := Offer(d, c.height, c.trusted)
			wantErr(t, err, c.want)
			if got := OfferResponse(err).Result; got != c.answer {
				t.Fatalf("answer %v, want %v", got, c.answer)
			}
		})
	}
	// NewRestorer refuses a trusted hash other than the metadata's too.
	if _, err := NewRestorer(info.Meta, other, &mapSink{}); !errors.Is(err, ErrAppHash) {
		t.Fatalf("NewRestorer: %v", err)
	}
}

// TestMetadataEncoding: decode(encode(m)) == m, and only canonical bytes decode.
func TestMetadataEncoding(t *testing.T) {
	m := Metadata{Format: FormatV1, ChainID: "c", Height: 1 << 40, Time: -5, AppHash: bytes.Repeat([]byte{7}, 32),
		Entries: 3, Size: 300, Chunks: [][32]byte{{1}, {2}}}
	got, err := DecodeMetadata(m.Encode())
	if err != nil || !bytes.Equal(got.Encode(), m.Encode()) || got.Time != -5 || len(got.Chunks) != 2 {
		t.Fatalf("%+v %v", got, err)
	}
	enc := m.Encode()
	for n := 0; n < len(enc); n++ {
		if _, err := DecodeMetadata(enc[:n]); err == nil {
			t.Fatalf("a %d-byte prefix decoded", n)
		}
	}
	if _, err := DecodeMetadata(append(enc, 0)); !errors.Is(err, ErrMetadata) {
		t.Fatalf("trailing byte: %v", err)
	}
}

// TestVerdictTable: every sentinel has one verdict and every answer maps to
// a CometBFT result.
func TestVerdictTable(t *testing.T) {
	seen := map[error]bool{}
	for _, v := range verdicts {
		if seen[v.Err] {
			t.Fatalf("%v twice", v.Err)
		}
		seen[v.Err] = true
		if v.Offer == 0 && v.Apply == 0 {
			t.Fatalf("%v answers nothing", v.Err)
		}
		if _, ok := offerResults[v.Offer]; !ok && v.Offer != 0 {
			t.Fatalf("%v: offer answer %v unmapped", v.Err, v.Offer)
		}
		if _, ok := applyResults[v.Apply]; !ok && v.Apply != 0 {
			t.Fatalf("%v: apply answer %v unmapped", v.Err, v.Apply)
		}
		if v.Refetch != (v.Apply == Retry) {
			t.Fatalf("%v: refetch without retry", v.Err)
		}
	}
	if OfferResult(errors.New("unknown")) != OfferAbort {
		t.Fatal("an unknown error must abort")
	}
}
