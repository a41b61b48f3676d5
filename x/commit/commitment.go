package commit

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
)

// DomainTag opens every commitment's preimage (its NUL included), so that a
// commitment can never be read as a hash of any other structure of the chain
// (the tx sign domain is "validatord/tx/v3\x00").
const DomainTag = "validatord/commit/v1\x00"

// Size is the size of a commitment and SaltSize the size of a salt, in bytes.
const (
	Size     = sha256.Size
	SaltSize = 32
)

// Commitment is SHA-256 of
//
//	DomainTag ‖ len(chainID) ‖ chainID ‖ len(sender) ‖ sender ‖ uid ‖ len(payload) ‖ payload ‖ salt
//
// where each len is 8 bytes big-endian, uid is 4 bytes big-endian and the
// salt is 32 bytes. payload is the canonical (gogoproto) encoding of the
// MsgSubmit that the reveal carries.
func Commitment(chainID string, sender []byte, uid uint32, payload []byte, salt [SaltSize]byte) [Size]byte {
	h := sha256.New()
	h.Write([]byte(DomainTag))
	writeField(h, []byte(chainID))
	writeField(h, sender)
	var u [4]byte
	binary.BigEndian.PutUint32(u[:], uid)
	h.Write(u[:])
	writeField(h, payload)
	h.Write(salt[:])
	var out [Size]byte
	h.Sum(out[:0])
	return out
}

type writer interface{ Write([]byte) (int, error) }

func writeField(w writer, b []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(b)))
	w.Write(n[:])
	w.Write(b)
}

// Verify reports whether payload and salt open commitment for this chain id,
// sender and uid: nil if they do, ErrMismatch if not, an *InputError if the
// commitment or the salt has the wrong size. The comparison takes the same
// time wherever the bytes differ.
func Verify(commitment []byte, chainID string, sender []byte, uid uint32, payload, salt []byte) error {
	if len(commitment) != Size {
		return &InputError{Field: "commitment", Value: len(commitment), Rule: "must be 32 bytes"}
	}
	if len(salt) != SaltSize {
		return &InputError{Field: "salt", Value: len(salt), Rule: "must be 32 bytes"}
	}
	want := Commitment(chainID, sender, uid, payload, [SaltSize]byte(salt))
	if subtle.ConstantTimeCompare(want[:], commitment) != 1 {
		return ErrMismatch
	}
	return nil
}
