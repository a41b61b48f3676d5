package mirror

import (
	"bytes"
	"fmt"
	"math/big"

	"golang.org/x/crypto/blake2b"
)

// BittensorSS58Prefix is the ss58 address prefix of Bittensor, the same 42
// as substrate's generic prefix: hotkeys print as 5….
const BittensorSS58Prefix = 42

// MaxSS58Prefix bounds ss58 prefixes: the two-byte form carries 14 bits.
const MaxSS58Prefix = 1<<14 - 1

// ss58Pre is hashed before the address bytes to make the checksum.
const ss58Pre = "SS58PRE"

// ss58ChecksumSize is the checksum's size for a 32-byte account id.
const ss58ChecksumSize = 2

// base58Alphabet is Bitcoin's, which ss58 uses.
const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// EncodeSS58 returns the ss58 address of a 32-byte account id (a hotkey)
// under prefix: base58 of the prefix (one byte below 64, else two), the key
// and the first two bytes of blake2b-512("SS58PRE" ‖ prefix ‖ key). A
// prefix above MaxSS58Prefix is refused.
func EncodeSS58(prefix uint16, key [HotkeySize]byte) (string, error) {
	if prefix > MaxSS58Prefix {
		return "", &InputError{Field: "ss58_prefix", Value: prefix, Rule: fmt.Sprintf("must be at most %d", MaxSS58Prefix)}
	}
	b := appendPrefix(nil, prefix)
	b = append(b, key[:]...)
	sum := ss58Checksum(b)
	return base58Encode(append(b, sum[:ss58ChecksumSize]...)), nil
}

// DecodeSS58 returns the prefix and the 32-byte account id of an ss58
// address. Only account-id addresses (32 bytes behind a one- or two-byte
// prefix, two checksum bytes) are accepted; a bad character, length,
// prefix byte or checksum is an *InputError.
func DecodeSS58(addr string) (prefix uint16, key [HotkeySize]byte, err error) {
	raw, ok := base58Decode(addr)
	if !ok {
		return 0, key, &InputError{Field: "ss58", Value: addr, Rule: "not base58"}
	}
	prefix, n, ok := readPrefix(raw)
	if !ok || len(raw) != n+HotkeySize+ss58ChecksumSize {
		return 0, key, &InputError{Field: "ss58", Value: addr, Rule: "not an ss58 address of a 32-byte key"}
	}
	body := raw[:n+HotkeySize]
	sum := ss58Checksum(body)
	if !bytes.Equal(sum[:ss58ChecksumSize], raw[n+HotkeySize:]) {
		return 0, key, &InputError{Field: "ss58", Value: addr, Rule: "checksum mismatch"}
	}
	copy(key[:], raw[n:])
	return prefix, key, nil
}

// HotkeyFromSS58 decodes a hotkey address and requires prefix want (use
// BittensorSS58Prefix for Bittensor).
func HotkeyFromSS58(addr string, want uint16) ([HotkeySize]byte, error) {
	prefix, key, err := DecodeSS58(addr)
	if err != nil {
		return key, err
	}
	if prefix != want {
		return [HotkeySize]byte{}, &InputError{Field: "ss58_prefix", Value: prefix, Rule: fmt.Sprintf("want %d", want)}
	}
	return key, nil
}

// appendPrefix appends the ss58 encoding of prefix: one byte below 64;
// else two, the first in [64, 128) holding bits 2..7, the second bits 8..13
// below and bits 0..1 on top.
func appendPrefix(b []byte, prefix uint16) []byte {
	if prefix < 64 {
		return append(b, byte(prefix))
	}
	first := byte((prefix&0b1111_1100)>>2) | 0b0100_0000
	second := byte(prefix>>8) | byte(prefix&0b11)<<6
	return append(b, first, second)
}

// readPrefix reads the prefix at the start of raw and its size; a first
// byte of 128 or more is no prefix.
func readPrefix(raw []byte) (prefix uint16, n int, ok bool) {
	switch {
	case len(raw) >= 1 && raw[0] < 64:
		return uint16(raw[0]), 1, true
	case len(raw) >= 2 && raw[0] < 128:
		low := raw[0]<<2 | raw[1]>>6
		high := uint16(raw[1] & 0b0011_1111)
		p := uint16(low) | high<<8
		if p < 64 { // a two-byte form of a one-byte prefix is not canonical
			return 0, 0, false
		}
		return p, 2, true
	}
	return 0, 0, false
}

func ss58Checksum(b []byte) [blake2b.Size]byte {
	h, _ := blake2b.New512(nil)
	h.Write([]byte(ss58Pre))
	h.Write(b)
	var sum [blake2b.Size]byte
	h.Sum(sum[:0])
	return sum
}

// base58Encode: Bitcoin's base58, one '1' per leading zero byte.
func base58Encode(b []byte) string {
	zeros := 0
	for zeros < len(b) && b[zeros] == 0 {
		zeros++
	}
	n := new(big.Int).SetBytes(b)
	radix, mod := big.NewInt(58), new(big.Int)
	var out []byte
	for n.Sign() > 0 {
		n.DivMod(n, radix, mod)
		out = append(out, base58Alphabet[mod.Int64()])
	}
	for i := 0; i < zeros; i++ {
		out = append(out, base58Alphabet[0])
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return string(out)
}

// base58Decode inverts base58Encode; ok is false on a character outside
// the alphabet. Addresses are short (at most 50 characters here), so the
// big.Int arithmetic is bounded.
func base58Decode(s string) ([]byte, bool) {
	if len(s) == 0 || len(s) > 64 {
		return nil, false
	}
	n, radix := new(big.Int), big.NewInt(58)
	zeros := 0
	for zeros < len(s) && s[zeros] == base58Alphabet[0] {
		zeros++
	}
	for i := 0; i < len(s); i++ {
		d := bytes.IndexByte([]byte(base58Alphabet), s[i])
		if d < 0 {
			return nil, false
		}
		n.Mul(n, radix)
		n.Add(n, big.NewInt(int64(d)))
	}
	return append(make([]byte, zeros), n.Bytes()...), true
}
