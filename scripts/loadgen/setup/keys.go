package setup

import (
	"crypto/ed25519"
	"crypto/sha256"
)

// Key is the ed25519 key whose seed is the SHA-256 of text: the same text, the same key (and
// so the same miners on a second run).
func Key(text string) ed25519.PrivateKey {
	s := sha256.Sum256([]byte(text))
	return ed25519.NewKeyFromSeed(s[:])
}
