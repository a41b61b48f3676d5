package app

import (
	"crypto/ed25519"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
)

// TestSigCache: a remembered good signature is a hit; a bad signature is
// never remembered and always fails; without remember nothing is stored;
// the cache starts over when full.
func TestSigCache(t *testing.T) {
	s := newSigner("cache")
	body := []byte("body")
	sig := signAt(testChainID, s.key, s.pub(), 0, msgRegister())
	d, _ := wire.DecodeTx(sig)
	good, bad := d.Tx.Signature, make([]byte, 64)
	c := newSigCache()
	h := txHash([]byte("tx-1"))
	if !c.verify(h, s.pub(), d.Tx.Body, good, false) || len(c.seen) != 0 {
		t.Fatal("a block-path verification must not fill the cache")
	}
	if c.verify(h, s.pub(), body, bad, true) || len(c.seen) != 0 {
		t.Fatal("a bad signature verified or was remembered")
	}
	if !c.verify(h, s.pub(), d.Tx.Body, good, true) || len(c.seen) != 1 {
		t.Fatal("a good CheckTx verification was not remembered")
	}
	if !c.verify(h, nil, nil, nil, false) {
		t.Fatal("a remembered tx hash was not a hit")
	}
	for i := 0; i < sigCacheSize; i++ {
		c.seen[txHash([]byte{byte(i), byte(i >> 8), byte(i >> 16)})] = struct{}{}
	}
	c.verify(txHash([]byte("tx-2")), s.pub(), d.Tx.Body, good, true)
	if len(c.seen) != 1 {
		t.Fatalf("full cache holds %d entries after an insert, want 1 (started over)", len(c.seen))
	}
}

// BenchmarkVerify: the cost of the signature check every tx pays.
func BenchmarkVerify(b *testing.B) {
	s := newSigner("bench")
	body := make([]byte, 150)
	sig := ed25519.Sign(s.key, wire.SignBytes(body))
	for i := 0; i < b.N; i++ {
		if !ed25519.Verify(s.pub(), wire.SignBytes(body), sig) {
			b.Fatal("verify")
		}
	}
}
