package sigverify

import (
	"sync"

	voi "github.com/oasisprotocol/curve25519-voi/primitives/ed25519"
)

// keyGeneration bounds each generation of the expanded-key cache: at most
// 2 × keyGeneration expanded keys (about 10 KB each) are held.
const keyGeneration = 2048

// keyCache holds expanded public keys in two generations: lookups search
// both, inserts go to the current one, and when it is full it becomes the
// old one and the former old one is dropped. A key's first sighting only
// marks it (a nil entry); it is expanded from its second, so one-off keys
// cost no expansion in Valid. The cache changes speed, never a result:
// verifying with an expanded key gives exactly the answer without it.
type keyCache struct {
	mu       sync.Mutex
	cur, old map[[32]byte]*voi.ExpandedPublicKey
}

var keys = &keyCache{cur: map[[32]byte]*voi.ExpandedPublicKey{}, old: map[[32]byte]*voi.ExpandedPublicKey{}}

// get returns the key's expanded form, or nil. A key seen before but not
// expanded is expanded now; a key never seen is only marked.
func (c *keyCache) get(pub []byte) *voi.ExpandedPublicKey {
	var k [32]byte
	copy(k[:], pub)
	c.mu.Lock()
	ek, seen := c.cur[k]
	if !seen {
		ek, seen = c.old[k]
	}
	c.mu.Unlock()
	if ek != nil {
		return ek
	}
	if !seen {
		c.put(k, nil)
		return nil
	}
	ek, err := voi.NewExpandedPublicKey(pub)
	if err != nil {
		return nil
	}
	c.put(k, ek)
	return ek
}

// offer stores a key the caller expanded itself.
func (c *keyCache) offer(pub []byte, ek *voi.ExpandedPublicKey) {
	var k [32]byte
	copy(k[:], pub)
	c.put(k, ek)
}

func (c *keyCache) put(k [32]byte, ek *voi.ExpandedPublicKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.cur[k]; ok && old != nil && ek == nil {
		return // never replace an expanded key by a mark
	}
	if _, ok := c.cur[k]; !ok && len(c.cur) >= keyGeneration {
		c.old, c.cur = c.cur, make(map[[32]byte]*voi.ExpandedPublicKey, keyGeneration)
	}
	c.cur[k] = ek
}

// size reports the entries held (tests).
func (c *keyCache) size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.cur) + len(c.old)
}
