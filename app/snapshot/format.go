package snapshot

import (
	"encoding/binary"
	"fmt"

	"github.com/scoringsubnet/validatord/app/store"
)

// FormatV1 is the only snapshot format: the committed state, without the
// meta record, as a sorted stream of length-prefixed entries.
const FormatV1 uint32 = 1

// DefaultChunkSize is the chunk size of Create when Options.ChunkSize is 0.
const DefaultChunkSize = 10 << 20

// MaxEntrySize bounds one encoded entry. CometBFT refuses chunk messages
// over 16e6 bytes (statesync chunkMsgSize); a 1 KB margin is left for the
// message envelope. An entry is never split, so a larger one could not be
// transferred: Create fails instead of writing an unsyncable snapshot.
const MaxEntrySize = 16_000_000 - 1024

// MaxKeySize is badger's key limit: a longer key cannot be in the state.
const MaxKeySize = 65000

// MaxChunks bounds the chunk count of a metadata (32 bytes each: 2 MiB,
// under CometBFT's 4e6-byte snapshot message; 640 GiB of 10 MiB chunks).
const MaxChunks = 1 << 16

// EntrySize is the encoded size of an entry.
func EntrySize(k, v []byte) int {
	return uvarintLen(uint64(len(k))) + len(k) + uvarintLen(uint64(len(v))) + len(v)
}

// AppendEntry appends the encoding of (k, v):
// uvarint len(k) ‖ k ‖ uvarint len(v) ‖ v.
func AppendEntry(dst, k, v []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(k)))
	dst = append(dst, k...)
	dst = binary.AppendUvarint(dst, uint64(len(v)))
	return append(dst, v...)
}

// DecodeEntry reads the entry at the head of b. The key and value alias b.
// It refuses a truncated entry, a non-minimal or overflowing length, an
// empty or oversized key and a key outside the hashed set (the meta, the
// record trees' nodes); every refusal wraps ErrMalformed or ErrMetaKey.
func DecodeEntry(b []byte) (k, v, rest []byte, err error) {
	k, rest, err = decodeField(b, "key")
	if err != nil {
		return nil, nil, b, err
	}
	switch {
	case len(k) == 0:
		return nil, nil, b, fmt.Errorf("%w: empty key", ErrMalformed)
	case len(k) > MaxKeySize:
		return nil, nil, b, fmt.Errorf("%w: key of %d bytes, limit %d", ErrMalformed, len(k), MaxKeySize)
	case !store.Hashed(k):
		return nil, nil, b, fmt.Errorf("%w: %x", ErrMetaKey, k)
	}
	v, rest, err = decodeField(rest, "value")
	if err != nil {
		return nil, nil, b, err
	}
	return k, v, rest, nil
}

// decodeField reads uvarint n ‖ n bytes.
func decodeField(b []byte, what string) (field, rest []byte, err error) {
	n, m := binary.Uvarint(b)
	switch {
	case m == 0:
		return nil, b, fmt.Errorf("%w: truncated %s length", ErrMalformed, what)
	case m < 0:
		return nil, b, fmt.Errorf("%w: %s length overflows", ErrMalformed, what)
	case m != uvarintLen(n):
		return nil, b, fmt.Errorf("%w: non-minimal %s length", ErrMalformed, what)
	case n > uint64(len(b)-m):
		return nil, b, fmt.Errorf("%w: %s of %d bytes, %d left", ErrMalformed, what, n, len(b)-m)
	}
	end := m + int(n)
	return b[m:end:end], b[end:], nil
}

func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}
