package snapshot

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/scoringsubnet/validatord/app/commitment"
	"github.com/scoringsubnet/validatord/app/store"
)

// Sink receives the restored entries in strictly increasing key order. The
// slices alias the chunk given to Apply; the Restorer never writes to them,
// so a sink may keep them while the caller keeps the chunk. The app writes
// them into an empty badger in batches and flushes when Apply reports Done.
type Sink interface {
	Put(key, value []byte) error
}

// Descriptor is a snapshot as CometBFT offers it (abci.Snapshot).
type Descriptor struct {
	Height   uint64
	Format   uint32
	Chunks   uint32
	Hash     []byte
	Metadata []byte
}

// Offer checks an offered snapshot before any chunk is fetched: the format,
// the hash of the metadata, the metadata itself, its chunk count and height
// against the descriptor and the trusted height, and its app hash against
// the trusted app hash (the one CometBFT's light client verified for that
// height). OfferResult(err) is the answer. The chain id needs no check of
// its own: it is an entry of the hashed state.
func Offer(d Descriptor, trustedHeight uint64, trustedAppHash []byte) (Metadata, error) {
	if d.Format != FormatV1 {
		return Metadata{}, fmt.Errorf("%w: %d", ErrFormat, d.Format)
	}
	if h := sha256.Sum256(d.Metadata); !bytes.Equal(h[:], d.Hash) {
		return Metadata{}, fmt.Errorf("%w: %x", ErrSnapshotHash, d.Hash)
	}
	m, err := DecodeMetadata(d.Metadata)
	if err != nil {
		return Metadata{}, err
	}
	switch {
	case uint64(d.Chunks) != uint64(len(m.Chunks)):
		return Metadata{}, fmt.Errorf("%w: offered %d, metadata lists %d", ErrChunkCount, d.Chunks, len(m.Chunks))
	case m.Height != d.Height || m.Height != trustedHeight:
		return Metadata{}, fmt.Errorf("%w: offered %d, metadata %d, trusted %d", ErrHeight, d.Height, m.Height, trustedHeight)
	case !bytes.Equal(m.AppHash, trustedAppHash):
		return Metadata{}, fmt.Errorf("%w: metadata %x, trusted %x", ErrAppHash, m.AppHash, trustedAppHash)
	}
	return m, nil
}

// Result is what the app answers one ApplySnapshotChunk.
type Result struct {
	Action       Action
	Refetch      []uint32 // chunks CometBFT must fetch again
	RejectSender bool     // reject the peer that sent this chunk
	Done         bool     // every chunk is applied and the state verified
}

// Restorer rebuilds a state from a snapshot's chunks: it verifies each
// chunk's SHA-256 against the metadata, decodes its entries, checks their
// order across chunks, feeds them to the sink and sums their lanes; after the
// last chunk it checks the entry count, the stream size and the app hash.
//
// Chunks must be applied in order, one at a time: CometBFT applies them
// sequentially from 0, one ApplySnapshotChunk at a time. After a bad chunk
// hash the Restorer is unchanged and takes the same index again; after any
// other error it is finished and Apply returns that error again: the app
// discards what the sink holds.
type Restorer struct {
	meta    Metadata
	trusted []byte
	sink    Sink
	next    uint32
	prev    []byte
	entries uint64
	size    uint64
	lanes   store.Hasher
	trees   commitment.Rebuilder
	err     error
	done    bool
}

// NewRestorer starts a restore of meta (as Offer returned it) into sink.
func NewRestorer(meta Metadata, trustedAppHash []byte, sink Sink) (*Restorer, error) {
	if meta.Format != FormatV1 {
		return nil, fmt.Errorf("%w: %d", ErrFormat, meta.Format)
	}
	if err := meta.validate(); err != nil {
		return nil, err
	}
	if len(meta.Chunks) == 0 || len(meta.Chunks) > MaxChunks {
		return nil, fmt.Errorf("%w: %d chunks", ErrMetadata, len(meta.Chunks))
	}
	if !bytes.Equal(meta.AppHash, trustedAppHash) {
		return nil, fmt.Errorf("%w: metadata %x, trusted %x", ErrAppHash, meta.AppHash, trustedAppHash)
	}
	return &Restorer{meta: meta, trusted: append([]byte(nil), trustedAppHash...), sink: sink}, nil
}

// Apply applies chunk index. The Result is the answer to give CometBFT;
// the error, when not nil, is a *ChunkError that says why.
func (r *Restorer) Apply(index uint32, chunk []byte) (Result, error) {
	err := r.apply(index, chunk)
	if err == nil {
		return Result{Action: Accept, Done: r.done}, nil
	}
	err = &ChunkError{Index: index, Err: err}
	v := verdictOf(err)
	res := Result{Action: v.Apply, RejectSender: v.RejectSender}
	if v.Refetch {
		res.Refetch = []uint32{index}
	}
	return res, err
}

func (r *Restorer) apply(index uint32, chunk []byte) error {
	if r.err != nil {
		return r.err
	}
	if r.done || index != r.next {
		return fmt.Errorf("%w: got %d, want %d of %d", ErrOutOfOrder, index, r.next, len(r.meta.Chunks))
	}
	if sum := sha256.Sum256(chunk); sum != r.meta.Chunks[index] {
		return fmt.Errorf("%w: %x", ErrChunkHash, sum)
	}
	if err := r.decode(chunk); err != nil {
		r.err = err
		return err
	}
	r.next++
	if int(r.next) == len(r.meta.Chunks) {
		if err := r.finish(); err != nil {
			r.err = err
			return err
		}
		r.done = true
	}
	return nil
}

func (r *Restorer) decode(chunk []byte) error {
	r.size += uint64(len(chunk))
	for rest := chunk; len(rest) > 0; {
		k, v, tail, err := DecodeEntry(rest)
		if err != nil {
			return fmt.Errorf("at byte %d: %w", len(chunk)-len(rest), err)
		}
		rest = tail
		if err := checkNext(r.prev, k); err != nil {
			return err
		}
		if r.entries++; r.entries > r.meta.Entries {
			return fmt.Errorf("%w: more than %d entries", ErrEntryCount, r.meta.Entries)
		}
		if err := r.sink.Put(k, v); err != nil {
			return fmt.Errorf("%w: %v", ErrSink, err)
		}
		r.lanes.Add(k, v)
		r.trees.Add(k, v)
		r.prev = append(r.prev[:0], k...)
	}
	return nil
}

func (r *Restorer) finish() error {
	if r.entries != r.meta.Entries || r.size != r.meta.Size {
		return fmt.Errorf("%w: %d entries in %d bytes, metadata says %d in %d",
			ErrEntryCount, r.entries, r.size, r.meta.Entries, r.meta.Size)
	}
	// The record trees' nodes are not in a snapshot: they are made again
	// from the records and their slots, after every entry (their keys sort
	// last), and the app hash over their roots and the LtHash must be the
	// trusted one.
	roots, err := r.trees.Finish(func(k, v []byte) error {
		if err := r.sink.Put(k, v); err != nil {
			return fmt.Errorf("%w: %v", ErrSink, err)
		}
		return nil
	})
	if err != nil {
		if errors.Is(err, ErrSink) {
			return err
		}
		return fmt.Errorf("%w: %v", ErrAppHash, err)
	}
	if sum := commitment.AppHash(r.lanes.Lanes.Sum(), roots); !bytes.Equal(sum, r.trusted) {
		return fmt.Errorf("%w: restored state hashes to %x, trusted %x", ErrAppHash, sum, r.trusted)
	}
	return nil
}

// Done reports whether every chunk is applied and the state verified.
func (r *Restorer) Done() bool { return r.done }

// Lanes returns the restored state's lanes (valid once Done): the app
// stores them in its meta record with the height and app hash.
func (r *Restorer) Lanes() store.Lanes { return r.lanes.Lanes }

// Metadata returns the metadata being restored.
func (r *Restorer) Metadata() Metadata { return r.meta }

// RestoreDir restores the snapshot of height stored under dir into sink, as
// state sync would (the operator's `snapshot restore`): Offer with the
// trusted app hash, then every chunk in order. The returned Restorer is
// Done and holds the lanes.
func RestoreDir(dir string, height uint64, trustedAppHash []byte, sink Sink) (*Restorer, error) {
	info, err := LoadInfo(dir, height)
	if err != nil {
		return nil, err
	}
	d := Descriptor{Height: info.Height, Format: info.Format, Chunks: info.Chunks, Hash: info.Hash, Metadata: info.Metadata}
	m, err := Offer(d, height, trustedAppHash)
	if err != nil {
		return nil, err
	}
	r, err := NewRestorer(m, trustedAppHash, sink)
	if err != nil {
		return nil, err
	}
	for i := uint32(0); i < info.Chunks; i++ {
		chunk, err := Load(dir, height, i)
		if err != nil {
			return nil, err
		}
		if _, err := r.Apply(i, chunk); err != nil {
			return nil, err
		}
	}
	return r, nil
}
