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

// verify checks sig by sender over the body's sign bytes, consulting the
// cache under the tx's hash first.
func (c *sigCache) verify(txHash [32]byte, sender, body, sig []byte) bool {
	if _, ok := c.seen[txHash]; ok {
		return true
	}
	return len(sig) == ed25519.SignatureSize && ed25519.Verify(sender, wire.SignBytes(body), sig)
}

// remember records a transaction that CheckTx accepted whole (signature,
// validity and budget), so that block execution need not verify it again.
func (c *sigCache) remember(txHash [32]byte) {
	if len(c.seen) >= sigCacheSize {
		clear(c.seen)
	}
	c.seen[txHash] = struct{}{}
}

func txHash(raw []byte) [32]byte { return sha256.Sum256(raw) }
