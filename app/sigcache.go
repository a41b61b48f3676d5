package app

import (
	"crypto/sha256"
	"sync"

	"github.com/scoringsubnet/validatord/app/sigverify"
	"github.com/scoringsubnet/validatord/app/wire"
)

// sigCacheSize bounds the verified-signature cache; when full it starts over.
const sigCacheSize = 100_000

// sigCache remembers the transactions (by SHA-256 of their bytes) whose
// signature CheckTx verified, so that block execution does not verify them
// again. A signature's validity is a pure function of the bytes, so a hit
// gives exactly the answer a verification would: the cache changes speed,
// never a result. Only successful verifications are remembered. CheckTx
// writes it while block execution reads it, hence its own lock.
type sigCache struct {
	mu   sync.Mutex
	seen map[[32]byte]struct{}
}

func newSigCache() *sigCache { return &sigCache{seen: make(map[[32]byte]struct{})} }

// verify checks sig by sender over the body's sign bytes, consulting the
// cache under the tx's hash first.
func (c *sigCache) verify(txHash [32]byte, sender, body, sig []byte) bool {
	if c.known(txHash) {
		return true
	}
	return sigverify.Valid(sigverify.Item{PubKey: sender, Msg: wire.SignBytes(body), Sig: sig})
}

// known reports whether CheckTx verified the transaction whose hash this is.
func (c *sigCache) known(txHash [32]byte) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.seen[txHash]
	return ok
}

// remember records a transaction that CheckTx accepted whole (signature,
// validity and budget), so that block execution need not verify it again.
func (c *sigCache) remember(txHash [32]byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.seen) >= sigCacheSize {
		clear(c.seen)
	}
	c.seen[txHash] = struct{}{}
}

func txHash(raw []byte) [32]byte { return sha256.Sum256(raw) }
