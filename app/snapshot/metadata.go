package snapshot

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
)

// metaMagic opens every encoded Metadata.
var metaMagic = []byte("VDSS")

// maxChainID bounds the chain id in a metadata (CometBFT allows 50 bytes).
const maxChainID = 256

// Metadata is the header of a snapshot and the list of its chunks' hashes.
// Its encoding (Encode) is Snapshot.Metadata; Snapshot.Hash is its SHA-256.
type Metadata struct {
	Format  uint32 // FormatV1
	ChainID string
	Height  uint64
	// Time is the committed block's time (unix seconds). It is not in the
	// hashed state: the app uses it only for CheckTx until its next block.
	Time    int64
	AppHash []byte     // 32 bytes: SHA-256 of the state's lanes
	Entries uint64     // entries in the stream
	Size    uint64     // bytes of the stream: the sum of the chunk lengths
	Chunks  [][32]byte // SHA-256 of every chunk, in order
}

// Encode is the canonical encoding:
//
//	"VDSS" ‖ uvarint format ‖ uvarint len(chain id) ‖ chain id ‖
//	uvarint height ‖ varint time ‖ uvarint len(app hash) ‖ app hash ‖
//	uvarint entries ‖ uvarint size ‖ uvarint chunks ‖ chunks × 32 bytes
func (m Metadata) Encode() []byte {
	out := append([]byte(nil), metaMagic...)
	out = binary.AppendUvarint(out, uint64(m.Format))
	out = appendBytes(out, []byte(m.ChainID))
	out = binary.AppendUvarint(out, m.Height)
	out = binary.AppendVarint(out, m.Time)
	out = appendBytes(out, m.AppHash)
	out = binary.AppendUvarint(out, m.Entries)
	out = binary.AppendUvarint(out, m.Size)
	out = binary.AppendUvarint(out, uint64(len(m.Chunks)))
	for _, h := range m.Chunks {
		out = append(out, h[:]...)
	}
	return out
}

// Hash is SHA-256 of the encoding: the snapshot's Hash.
func (m Metadata) Hash() []byte {
	h := sha256.Sum256(m.Encode())
	return h[:]
}

// DecodeMetadata decodes and validates a metadata. Only the canonical
// encoding is accepted (it must re-encode to the same bytes), so one
// snapshot has one hash. An unknown format wraps ErrFormat; anything else
// wrong wraps ErrMetadata.
func DecodeMetadata(bz []byte) (Metadata, error) {
	var m Metadata
	if !bytes.HasPrefix(bz, metaMagic) {
		return m, fmt.Errorf("%w: no magic", ErrMetadata)
	}
	r := reader{b: bz[len(metaMagic):]}
	format := r.uvarint()
	if r.err == nil && format != uint64(FormatV1) {
		return m, fmt.Errorf("%w: %d", ErrFormat, format)
	}
	m.Format = FormatV1
	m.ChainID = string(r.bytes(maxChainID))
	m.Height = r.uvarint()
	m.Time = r.varint()
	m.AppHash = r.bytes(sha256.Size)
	m.Entries = r.uvarint()
	m.Size = r.uvarint()
	n := r.uvarint()
	if r.err == nil && (n == 0 || n > MaxChunks || n*32 != uint64(len(r.b))) {
		return m, fmt.Errorf("%w: %d chunks in %d bytes", ErrMetadata, n, len(r.b))
	}
	if r.err != nil {
		return m, fmt.Errorf("%w: %v", ErrMetadata, r.err)
	}
	m.Chunks = make([][32]byte, n)
	for i := range m.Chunks {
		copy(m.Chunks[i][:], r.b[32*i:])
	}
	if err := m.validate(); err != nil {
		return m, err
	}
	if !bytes.Equal(m.Encode(), bz) {
		return m, fmt.Errorf("%w: not canonical", ErrMetadata)
	}
	return m, nil
}

// validate checks the fields' own bounds.
func (m Metadata) validate() error {
	switch {
	case len(m.AppHash) != sha256.Size:
		return fmt.Errorf("%w: app hash of %d bytes", ErrMetadata, len(m.AppHash))
	case m.Height == 0:
		return fmt.Errorf("%w: height 0", ErrMetadata)
	case m.Entries > m.Size:
		return fmt.Errorf("%w: %d entries in %d bytes", ErrMetadata, m.Entries, m.Size)
	}
	return nil
}

func appendBytes(dst, b []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(b)))
	return append(dst, b...)
}

// reader decodes metadata fields; the first error sticks.
type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = fmt.Errorf("bad uvarint")
		return 0
	}
	r.b = r.b[n:]
	return x
}

func (r *reader) varint() int64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = fmt.Errorf("bad varint")
		return 0
	}
	r.b = r.b[n:]
	return x
}

func (r *reader) bytes(limit int) []byte {
	n := r.uvarint()
	if r.err != nil {
		return nil
	}
	if n > uint64(limit) || n > uint64(len(r.b)) {
		r.err = fmt.Errorf("field of %d bytes (limit %d, %d left)", n, limit, len(r.b))
		return nil
	}
	out := append([]byte(nil), r.b[:n]...)
	r.b = r.b[n:]
	return out
}
