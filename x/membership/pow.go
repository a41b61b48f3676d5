package membership

import (
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"hash"
	"math/bits"
)

// DomainTag opens every seal's preimage (its NUL included), so that a seal
// can never be read as a hash of any other structure of the chain (the
// commitments' tag is "validatord/commit/v1\x00", the tx sign domain
// "validatord/tx/v3\x00").
const DomainTag = "validatord/register/v1\x00"

// SealSize is the size of a seal in bytes.
const SealSize = sha256.Size

// Seal is the proof-of-work hash of a registration: SHA-256 of
//
//	DomainTag ‖ len(chainID) ‖ chainID ‖ len(sender) ‖ sender ‖ len(blockHash) ‖ blockHash ‖ nonce
//
// where each len and the nonce are 8 bytes big-endian. Binding the chain
// id, the sender's key and a recent block hash means that work done for one
// chain, for one key, or before that block existed is worth nothing for any
// other.
func Seal(chainID string, sender, blockHash []byte, nonce uint64) [SealSize]byte {
	pre := binary.BigEndian.AppendUint64(prefix(chainID, sender, blockHash), nonce)
	return sha256.Sum256(pre)
}

// prefix is the preimage without its nonce.
func prefix(chainID string, sender, blockHash []byte) []byte {
	b := make([]byte, 0, len(DomainTag)+3*8+len(chainID)+len(sender)+len(blockHash)+8)
	b = append(b, DomainTag...)
	b = appendField(b, []byte(chainID))
	b = appendField(b, sender)
	return appendField(b, blockHash)
}

func appendField(b, field []byte) []byte {
	b = binary.BigEndian.AppendUint64(b, uint64(len(field)))
	return append(b, field...)
}

// Meets reports whether seal, read as a big-endian 256-bit integer, times
// difficulty is at most 2^256 − 1. A random seal meets it with probability
// about 1/difficulty, so the expected work is difficulty hashes. Every seal
// meets difficulty 0 and 1.
func Meets(seal [SealSize]byte, difficulty uint64) bool {
	// Multiply limb by limb from the least significant: the product fits in
	// 256 bits iff nothing carries out of the most significant limb.
	var carry uint64
	for i := 3; i >= 0; i-- {
		hi, lo := bits.Mul64(binary.BigEndian.Uint64(seal[8*i:]), difficulty)
		_, c := bits.Add64(lo, carry, 0)
		carry = hi + c // hi ≤ 2^64 − 2, so this never wraps
	}
	return carry == 0
}

// Solve searches maxTries nonces from startNonce (wrapping past 2^64 − 1)
// for one whose seal meets difficulty; ok is false if none does. It is for
// clients and tests: the chain only calls Seal and Meets. Each try is
// independent, so a client that moves to a newer block hash loses no
// progress: it calls Solve in slices and looks for a new block in between.
func Solve(chainID string, sender, blockHash []byte, difficulty, startNonce, maxTries uint64) (nonce uint64, ok bool) {
	s := newSealer(chainID, sender, blockHash)
	for i := uint64(0); i < maxTries; i++ {
		nonce = startNonce + i
		if Meets(s.seal(nonce), difficulty) {
			return nonce, true
		}
	}
	return 0, false
}

// sealer computes Seal for many nonces of one prefix: the prefix's whole
// 64-byte blocks are absorbed once and the hash state is restored for each
// nonce, as an optimising miner would do. Its output equals Seal's.
type sealer struct {
	mid   []byte
	h     hash.Hash
	u     encoding.BinaryUnmarshaler
	nonce [8]byte
	out   [SealSize]byte
}

func newSealer(chainID string, sender, blockHash []byte) *sealer {
	base := sha256.New()
	base.Write(prefix(chainID, sender, blockHash))
	mid, err := base.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		panic("membership: the sha256 state cannot be saved: " + err.Error())
	}
	h := sha256.New()
	return &sealer{mid: mid, h: h, u: h.(encoding.BinaryUnmarshaler)}
}

func (s *sealer) seal(nonce uint64) [SealSize]byte {
	if err := s.u.UnmarshalBinary(s.mid); err != nil {
		panic("membership: the sha256 state cannot be restored: " + err.Error())
	}
	binary.BigEndian.PutUint64(s.nonce[:], nonce)
	s.h.Write(s.nonce[:])
	s.h.Sum(s.out[:0])
	return s.out
}
