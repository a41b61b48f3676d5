package snapshot

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"strconv"

	"github.com/scoringsubnet/validatord/app/commitment"
	"github.com/scoringsubnet/validatord/app/store"
)

// Header names the committed state a snapshot is taken of.
type Header struct {
	ChainID string
	Height  uint64
	Time    int64  // the committed block's time, unix seconds
	AppHash []byte // the committed app hash (32 bytes)
}

// Options tune Create. The zero value is the default.
type Options struct {
	// ChunkSize bounds a chunk (DefaultChunkSize when 0); chunks are cut at
	// entry boundaries, and an entry larger than ChunkSize gets a chunk of
	// its own.
	ChunkSize int
	// VerifyAppHash recomputes the lanes of the stream and refuses to write
	// a snapshot whose app hash is not Header.AppHash (which no peer would
	// accept). It costs what a restore's hashing costs.
	VerifyAppHash bool
}

// Info describes a stored snapshot: what ListSnapshots advertises.
type Info struct {
	Height   uint64
	Format   uint32
	Chunks   uint32
	Hash     []byte // SHA-256 of Metadata
	Metadata []byte // Meta, encoded
	Meta     Metadata
}

func infoOf(m Metadata) Info {
	enc := m.Encode()
	h := sha256.Sum256(enc)
	return Info{Height: m.Height, Format: m.Format, Chunks: uint32(len(m.Chunks)), Hash: h[:], Metadata: enc, Meta: m}
}

// File names inside <dir>/<height>/.
const (
	metadataFile = "metadata"
	tmpPrefix    = ".tmp-"
)

func chunkFile(i int) string { return fmt.Sprintf("chunk-%06d", i) }

func heightDir(dir string, height uint64) string {
	return filepath.Join(dir, strconv.FormatUint(height, 10))
}

// Create writes the snapshot of the entries of it under <dir>/<height>/:
// chunk files and the metadata, each fsynced, in a temporary directory
// renamed into place, so a reader sees a whole snapshot or none. It skips
// entries of the meta prefix and refuses keys out of order. The same entries
// and header give byte-identical chunks and metadata on every node.
func Create(dir string, it Iterator, h Header, opts Options) (Info, error) {
	if h.Height == 0 || len(h.AppHash) != sha256.Size {
		return Info{}, fmt.Errorf("snapshot: create: height %d, app hash of %d bytes", h.Height, len(h.AppHash))
	}
	final := heightDir(dir, h.Height)
	if _, err := os.Stat(final); err == nil {
		return Info{}, fmt.Errorf("%w: %s", ErrExists, final)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Info{}, err
	}
	tmp, err := os.MkdirTemp(dir, tmpPrefix+strconv.FormatUint(h.Height, 10)+"-")
	if err != nil {
		return Info{}, err
	}
	info, err := create(tmp, it, h, opts)
	if err == nil {
		err = publish(tmp, final)
	}
	if err != nil {
		_ = os.RemoveAll(tmp)
		return Info{}, err
	}
	return info, nil
}

func create(tmp string, it Iterator, h Header, opts Options) (Info, error) {
	size := opts.ChunkSize
	if size <= 0 {
		size = DefaultChunkSize
	}
	m := Metadata{Format: FormatV1, ChainID: h.ChainID, Height: h.Height, Time: h.Time, AppHash: append([]byte(nil), h.AppHash...)}
	cw := &chunker{dir: tmp, limit: size, hash: sha256.New()}
	var lanes store.Hasher
	var trees commitment.Rebuilder
	var prev []byte
	for {
		k, v, ok, err := it.Next()
		if err != nil {
			return Info{}, fmt.Errorf("snapshot: read state: %w", err)
		}
		if !ok {
			break
		}
		if len(k) > 0 && !store.Hashed(k) {
			continue
		}
		if err := checkNext(prev, k); err != nil {
			return Info{}, fmt.Errorf("snapshot: iterator: %w", err)
		}
		if n := EntrySize(k, v); n > MaxEntrySize || len(k) > MaxKeySize {
			return Info{}, fmt.Errorf("%w: %x (%d bytes)", ErrEntryTooLarge, k, n)
		}
		if err := cw.add(k, v); err != nil {
			return Info{}, err
		}
		if opts.VerifyAppHash {
			lanes.Add(k, v)
			trees.Add(k, v)
		}
		prev = append(prev[:0], k...)
		m.Entries++
		m.Size += uint64(EntrySize(k, v))
	}
	if err := cw.close(); err != nil {
		return Info{}, err
	}
	m.Chunks = cw.sums
	if opts.VerifyAppHash {
		roots, err := trees.Finish(func(_, _ []byte) error { return nil })
		if err != nil {
			return Info{}, fmt.Errorf("%w: the state at height %d: %v", ErrAppHash, h.Height, err)
		}
		if got := commitment.AppHash(lanes.Lanes.Sum(), roots); !bytes.Equal(got, h.AppHash) {
			return Info{}, fmt.Errorf("%w: the state at height %d hashes to %x, header says %x", ErrAppHash, h.Height, got, h.AppHash)
		}
	}
	if len(m.Chunks) > MaxChunks {
		return Info{}, fmt.Errorf("snapshot: %d chunks, limit %d: raise the chunk size", len(m.Chunks), MaxChunks)
	}
	if err := writeFile(filepath.Join(tmp, metadataFile), m.Encode()); err != nil {
		return Info{}, err
	}
	return infoOf(m), nil
}

// checkNext refuses an empty key, or a key not greater than prev.
func checkNext(prev, k []byte) error {
	if len(k) == 0 {
		return fmt.Errorf("%w: empty key", ErrMalformed)
	}
	if prev == nil {
		return nil
	}
	switch c := bytes.Compare(k, prev); {
	case c == 0:
		return fmt.Errorf("%w: %x", ErrDuplicateKey, k)
	case c < 0:
		return fmt.Errorf("%w: %x after %x", ErrOrder, k, prev)
	}
	return nil
}

// chunker writes entries into chunk files of at most limit bytes, hashing
// them as it goes.
type chunker struct {
	dir   string
	limit int
	f     *os.File
	w     *bufio.Writer
	hash  hash.Hash
	n     int
	sums  [][32]byte
	lenb  [binary.MaxVarintLen64]byte
}

func (c *chunker) add(k, v []byte) error {
	size := EntrySize(k, v)
	if c.f != nil && c.n > 0 && c.n+size > c.limit {
		if err := c.finish(); err != nil {
			return err
		}
	}
	if c.f == nil {
		if err := c.open(); err != nil {
			return err
		}
	}
	c.write(c.lenb[:binary.PutUvarint(c.lenb[:], uint64(len(k)))])
	c.write(k)
	c.write(c.lenb[:binary.PutUvarint(c.lenb[:], uint64(len(v)))])
	c.write(v)
	c.n += size
	return nil
}

// write feeds the chunk file and its hash; a file error is reported by
// Flush in finish (bufio keeps the first one).
func (c *chunker) write(b []byte) {
	c.hash.Write(b)
	_, _ = c.w.Write(b)
}

func (c *chunker) open() error {
	f, err := os.Create(filepath.Join(c.dir, chunkFile(len(c.sums))))
	if err != nil {
		return err
	}
	c.f, c.n = f, 0
	if c.w == nil {
		c.w = bufio.NewWriterSize(f, 1<<20)
	} else {
		c.w.Reset(f)
	}
	c.hash.Reset()
	return nil
}

func (c *chunker) finish() error {
	err := errors.Join(c.w.Flush(), c.f.Sync(), c.f.Close())
	c.f = nil
	if err != nil {
		return fmt.Errorf("snapshot: write chunk %d: %w", len(c.sums), err)
	}
	var s [32]byte
	c.hash.Sum(s[:0])
	c.sums = append(c.sums, s)
	return nil
}

// close finishes the last chunk; an empty state is one empty chunk.
func (c *chunker) close() error {
	if c.f == nil && len(c.sums) == 0 {
		if err := c.open(); err != nil {
			return err
		}
	}
	if c.f == nil {
		return nil
	}
	return c.finish()
}

// writeFile writes and fsyncs a file.
func writeFile(path string, b []byte) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	_, werr := f.Write(b)
	return errors.Join(werr, f.Sync(), f.Close())
}

// publish fsyncs tmp, renames it to final and fsyncs the parent.
func publish(tmp, final string) error {
	if err := syncDir(tmp); err != nil {
		return err
	}
	if _, err := os.Stat(final); err == nil {
		return fmt.Errorf("%w: %s", ErrExists, final)
	}
	if err := os.Rename(tmp, final); err != nil {
		return err
	}
	return syncDir(filepath.Dir(final))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}
