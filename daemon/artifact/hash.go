package artifact

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// HashSize is the length in bytes of an artifact hash.
const HashSize = sha256.Size

// Hash returns the sha256 of b: the artifact hash the chain records.
func Hash(b []byte) []byte {
	h := sha256.Sum256(b)
	return h[:]
}

// HashError reports a hash that is not HashSize bytes long.
type HashError struct {
	Len int
}

func (e *HashError) Error() string {
	return fmt.Sprintf("artifact: hash is %d bytes, want %d", e.Len, HashSize)
}

// checkHash returns the lowercase hex of hash, or a *HashError.
func checkHash(hash []byte) (string, error) {
	if len(hash) != HashSize {
		return "", &HashError{Len: len(hash)}
	}
	return hex.EncodeToString(hash), nil
}

// parseHex decodes a 64-character lowercase hex hash; ok is false otherwise.
func parseHex(s string) ([]byte, bool) {
	if len(s) != 2*HashSize {
		return nil, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return nil, false
		}
	}
	b, err := hex.DecodeString(s)
	return b, err == nil
}
