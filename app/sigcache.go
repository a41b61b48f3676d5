package app

import (
	"crypto/ed25519"
	"crypto/sha256"

	"github.com/scoringsubnet/validatord/app/wire"
)

// sigCacheSize bounds the verified-signature cache; when full it starts over.
const sigCacheSize = 100_000

// sigCache remembers the transactions (by SHA-256 of their bytes) whose
// signature CheckTx verified, so that block execution does not verify them
// again. A signature's validity is a pure function of the bytes, so a hit
// gives exactly the answer a verification would: the cache changes speed,
// never a result. Only successful verifications are remembered.
type sigCache struct{ seen map[[32]byte]struct{} }

func newSigCache() *sigCache { return &sigCache{seen: make(map[[32]byte]struct{})} }

// verify checks sig by sender over the body's sign bytes, consulting and
// (when remember is set) filling the cache under the tx's hash.
func (c *sigCache) verify(txHash [32]byte, sender, body, sig []byte, remember bool) bool {
	if _, ok := c.seen[txHash]; ok {
		return true
	}
	if len(sig) != ed25519.SignatureSize || !ed25519.Verify(sender, wire.SignBytes(body), sig) {
		return false
	}
	if remember {
		if len(c.seen) >= sigCacheSize {
			clear(c.seen)
		}
		c.seen[txHash] = struct{}{}
	}
	return true
}

func txHash(raw []byte) [32]byte { return sha256.Sum256(raw) }
