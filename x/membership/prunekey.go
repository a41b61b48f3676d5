package membership

import "encoding/binary"

// PruneKeySize is the size of a PruneKey.
const PruneKeySize = 8 + 8 + 4

// PruneKey encodes a candidate so that the byte order of keys is
// PruneOrder: weight (8 bytes big-endian), registration height (8 bytes
// big-endian with the sign bit flipped, so that the order of int64 is
// kept), uid (4 bytes big-endian). The app keeps an index of these keys,
// rewrites a miner's key when its epoch weight or owner changes, and takes
// the first non-immune entry (ChooseOrdered).
func PruneKey(weight uint64, registeredHeight int64, uid uint32) []byte {
	k := make([]byte, 0, PruneKeySize)
	k = binary.BigEndian.AppendUint64(k, weight)
	k = binary.BigEndian.AppendUint64(k, uint64(registeredHeight)^(1<<63))
	return binary.BigEndian.AppendUint32(k, uid)
}

// Key is the candidate's PruneKey.
func (c Candidate) Key() []byte { return PruneKey(c.Weight, c.RegisteredHeight, c.UID) }

// DecodePruneKey is the inverse of PruneKey; a key of the wrong size is an
// *InputError.
func DecodePruneKey(k []byte) (Candidate, error) {
	if len(k) != PruneKeySize {
		return Candidate{}, &InputError{Field: "prune_key", Value: len(k), Rule: "must be 20 bytes"}
	}
	h := binary.BigEndian.Uint64(k[8:16]) ^ (1 << 63)
	return Candidate{
		Weight:           binary.BigEndian.Uint64(k[:8]),
		RegisteredHeight: int64(h),
		UID:              binary.BigEndian.Uint32(k[16:]),
	}, nil
}
