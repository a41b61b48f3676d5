package mirror

import (
	"crypto/sha256"
	"encoding/binary"
)

// HotkeySize is the size of a parent-chain hotkey: an sr25519 public key
// (a compressed Ristretto point), the 32 bytes an ss58 address encodes.
const HotkeySize = 32

// Entry is one uid of the parent chain's metagraph at a parent block.
type Entry struct {
	// UID is the parent chain's uid (a u16 there); it must be below
	// Params.MaxEntries.
	UID uint32
	// Hotkey is the sr25519 public key registered on the uid.
	Hotkey [HotkeySize]byte
	// RegisteredBlock is the parent block at which the hotkey registered on
	// the uid (Bittensor's block_at_registration).
	RegisteredBlock uint64
}

// Snapshot is the metagraph of the subnet on the parent chain at
// ParentBlock, entries sorted by uid.
type Snapshot struct {
	ParentBlock uint64
	Entries     []Entry
}

// SnapshotTag starts every snapshot encoding; DigestTag starts the bytes a
// digest hashes. Both end in NUL, which no other tag of the chain contains
// before its end, so no encoding of another kind can be read as either.
const (
	SnapshotTag = "validatord/mirror/snapshot/v1\x00"
	DigestTag   = "validatord/mirror/snapshot-digest/v1\x00"
)

// entrySize is the encoded size of one Entry: uid (4), hotkey (32),
// registration block (8).
const entrySize = 4 + HotkeySize + 8

// headerSize is the tag, the parent block (8) and the entry count (4).
const headerSize = len(SnapshotTag) + 8 + 4

// EncodedSize is the size of Encode's output for a snapshot of n entries;
// the wiring bounds a transaction carrying a snapshot with
// EncodedSize(MaxEntries).
func EncodedSize(n int) int { return headerSize + n*entrySize }

// Encode returns the canonical bytes of s: SnapshotTag, the parent block
// (8 bytes, big-endian), the number of entries (4 bytes, big-endian), then
// each entry as uid (4), hotkey (32), registration block (8), big-endian.
// Every entry has the same size, so the count is the only length prefix
// needed. The bytes are canonical only for a snapshot that passes Validate.
func (s Snapshot) Encode() []byte {
	b := make([]byte, 0, EncodedSize(len(s.Entries)))
	b = append(b, SnapshotTag...)
	b = binary.BigEndian.AppendUint64(b, s.ParentBlock)
	b = binary.BigEndian.AppendUint32(b, uint32(len(s.Entries)))
	for _, e := range s.Entries {
		b = binary.BigEndian.AppendUint32(b, e.UID)
		b = append(b, e.Hotkey[:]...)
		b = binary.BigEndian.AppendUint64(b, e.RegisteredBlock)
	}
	return b
}

// Digest is SHA-256 over DigestTag and Encode(s): what validators attest.
// Validate s first: an invalid snapshot has a digest, but not one that any
// honest validator attests.
func (s Snapshot) Digest() [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte(DigestTag))
	h.Write(s.Encode())
	var d [sha256.Size]byte
	h.Sum(d[:0])
	return d
}

// Validate checks s against p: at most MaxEntries entries, uids strictly
// increasing (sorted, no duplicates) and below MaxEntries, no registration
// after the parent block. The first entry that breaks a rule is named in a
// *SnapshotError.
func (s Snapshot) Validate(p Params) error {
	if uint64(len(s.Entries)) > uint64(p.MaxEntries) {
		return &SnapshotError{Index: -1, Err: ErrTooManyEntries}
	}
	for i, e := range s.Entries {
		if err := s.checkEntry(i, e, p); err != nil {
			return &SnapshotError{Index: i, UID: e.UID, Err: err}
		}
	}
	return nil
}

// checkEntry checks entry i against its predecessor and the parameters.
func (s Snapshot) checkEntry(i int, e Entry, p Params) error {
	switch {
	case e.UID >= p.MaxEntries:
		return ErrUIDOutOfRange
	case i > 0 && e.UID == s.Entries[i-1].UID:
		return ErrDuplicateUID
	case i > 0 && e.UID < s.Entries[i-1].UID:
		return ErrUnsorted
	case e.RegisteredBlock > s.ParentBlock:
		return ErrRegisteredAfterParent
	}
	return nil
}

// Decode reads a snapshot from its encoding and validates it against p. It
// accepts exactly the bytes that Encode produces for a valid snapshot:
// Decode(b) succeeds only if Encode of the result is b. The count is checked
// against MaxEntries and the length before anything is allocated, so a
// hostile count costs nothing.
func Decode(b []byte, p Params) (Snapshot, error) {
	if len(b) < headerSize || string(b[:len(SnapshotTag)]) != SnapshotTag {
		return Snapshot{}, &SnapshotError{Index: -1, Err: ErrMalformed}
	}
	rest := b[len(SnapshotTag):]
	s := Snapshot{ParentBlock: binary.BigEndian.Uint64(rest)}
	n := binary.BigEndian.Uint32(rest[8:])
	if uint64(n) > uint64(p.MaxEntries) {
		return Snapshot{}, &SnapshotError{Index: -1, Err: ErrTooManyEntries}
	}
	rest = rest[12:]
	if uint64(len(rest)) != uint64(n)*entrySize {
		return Snapshot{}, &SnapshotError{Index: -1, Err: ErrMalformed}
	}
	s.Entries = make([]Entry, n)
	for i := range s.Entries {
		e := &s.Entries[i]
		e.UID = binary.BigEndian.Uint32(rest)
		copy(e.Hotkey[:], rest[4:4+HotkeySize])
		e.RegisteredBlock = binary.BigEndian.Uint64(rest[4+HotkeySize:])
		rest = rest[entrySize:]
	}
	if err := s.Validate(p); err != nil {
		return Snapshot{}, err
	}
	return s, nil
}

// Lookup returns the entry of uid in a validated snapshot (binary search).
func (s Snapshot) Lookup(uid uint32) (Entry, bool) {
	lo, hi := 0, len(s.Entries)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if s.Entries[mid].UID < uid {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(s.Entries) && s.Entries[lo].UID == uid {
		return s.Entries[lo], true
	}
	return Entry{}, false
}
