package app

import (
	"context"
	"crypto/ed25519"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/scoringsubnet/validatord/app/sigverify"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/x/budget"
)

// TestSigCache: verify never fills the cache; a remembered tx hash is a
// hit; a bad signature always fails; the cache starts over when full.
func TestSigCache(t *testing.T) {
	s := newSigner("cache")
	body := []byte("body")
	sig := signAt(testChainID, s.key, s.pub(), 0, msgRegister())
	d, _ := wire.DecodeTx(sig)
	good, bad := d.Tx.Signature, make([]byte, 64)
	c := newSigCache()
	h := txHash([]byte("tx-1"))
	if !c.verify(h, s.pub(), d.Tx.Body, good) || len(c.seen) != 0 {
		t.Fatal("a verification must not fill the cache")
	}
	if c.verify(h, s.pub(), body, bad) {
		t.Fatal("a bad signature verified")
	}
	c.remember(h)
	if !c.verify(h, nil, nil, nil) {
		t.Fatal("a remembered tx hash was not a hit")
	}
	for i := 0; i < sigCacheSize; i++ {
		c.seen[txHash([]byte{byte(i), byte(i >> 8), byte(i >> 16)})] = struct{}{}
	}
	c.remember(txHash([]byte("tx-2")))
	if len(c.seen) != 1 {
		t.Fatalf("full cache holds %d entries after an insert, want 1 (started over)", len(c.seen))
	}
}

// TestCheckTxRemembersOnlyAcceptedTxs: a tx CheckTx refuses — for its
// signature, a field, or a budget checked after the signature — never
// enters the signature cache; an accepted one does.
func TestCheckTxRemembersOnlyAcceptedTxs(t *testing.T) {
	n := newNodeLimits(t, "", testGenesis(1), budget.Limits{BlockWrites: 200, TxWrites: 200})
	m := newSigner("miner-a")
	big := m.next(msgRegister()) // writes more than 200 bytes: block_full after its signature verified
	if chk, _ := n.app.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: big}); chk.Code != wire.CodeBlockFull {
		t.Fatalf("CheckTx: code %d (%s), want block_full", chk.Code, chk.Log)
	}
	if len(n.app.sigs.seen) != 0 {
		t.Fatal("a tx refused after its signature was verified entered the signature cache")
	}
	n2 := newNode(t, "", testGenesis(1))
	ok := newSigner("miner-b").next(msgRegister())
	if chk, _ := n2.app.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: ok}); chk.Code != wire.CodeOK {
		t.Fatalf("CheckTx: code %d (%s)", chk.Code, chk.Log)
	}
	if _, hit := n2.app.sigs.seen[txHash(ok)]; !hit || len(n2.app.sigs.seen) != 1 {
		t.Fatal("an accepted tx is not in the signature cache")
	}
}

// BenchmarkVerify: the cost of the signature check every tx pays when it
// is checked alone (CheckTx): ZIP-215 through app/sigverify, the key already
// expanded (a key seen before), and crypto/ed25519 beside it.
func BenchmarkVerify(b *testing.B) {
	s := newSigner("bench")
	body := make([]byte, 150)
	sig := ed25519.Sign(s.key, wire.SignBytes(body))
	it := sigverify.Item{PubKey: s.pub(), Msg: wire.SignBytes(body), Sig: sig}
	sigverify.Valid(it)
	sigverify.Valid(it)
	b.Run("zip215", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if !sigverify.Valid(sigverify.Item{PubKey: s.pub(), Msg: wire.SignBytes(body), Sig: sig}) {
				b.Fatal("verify")
			}
		}
	})
	b.Run("crypto-ed25519", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if !ed25519.Verify(s.pub(), wire.SignBytes(body), sig) {
				b.Fatal("verify")
			}
		}
	})
}
