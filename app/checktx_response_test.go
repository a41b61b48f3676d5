package app

import (
	"context"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/wire"
)

// TestCheckTxNonceRefusalCarriesNextNonce: CheckTx's nonce refusals carry the
// sender's next nonce, counting its transactions in the mempool, in Data
// (wire.EncodeNextNonce), and so do CheckTxDry's and the simulate query's;
// the log text stays as it was; an accepted tx carries no Data.
func TestCheckTxNonceRefusalCarriesNextNonce(t *testing.T) {
	n := newNode(t, "", testGenesis(1))
	a := newMiner("miner-a", 1)
	ctx := context.Background()
	check := func(tx []byte) *abcitypes.ResponseCheckTx {
		resp, err := n.app.CheckTx(ctx, &abcitypes.RequestCheckTx{Tx: tx})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	reg := a.tx(t, msgRegister())
	if r := check(reg); r.Code != wire.CodeOK || r.Data != nil {
		t.Fatalf("register: code %d data %x, want 0 and none", r.Code, r.Data)
	}
	a.nonce = 5
	future := a.tx(t, msgRegister())
	for _, c := range []struct {
		name string
		tx   []byte
		code uint32
		log  string
	}{
		{"replay", reg, wire.CodeNonceUsed, "nonce_used: nonce = 0 already used (next nonce 1)"},
		{"gap", future, wire.CodeNonceFuture, "nonce_future: nonce = 5, next nonce is 1"},
	} {
		r := check(c.tx)
		if r.Code != c.code || r.Log != c.log {
			t.Fatalf("%s: code %d log %q, want %d %q", c.name, r.Code, r.Log, c.code, c.log)
		}
		if next, ok := wire.DecodeNextNonce(r.Data); !ok || next != 1 {
			t.Errorf("%s: data %x: next nonce %d, %v; want 1", c.name, r.Data, next, ok)
		}
		dry, err := n.app.CheckTxDry(ctx, &abcitypes.RequestCheckTx{Tx: c.tx})
		if err != nil {
			t.Fatal(err)
		}
		if next, ok := wire.DecodeNextNonce(dry.Data); dry.Code != c.code || !ok || next != 1 {
			t.Errorf("%s: dry check: code %d data %x", c.name, dry.Code, dry.Data)
		}
		if _, v := simulateQuery(t, n, c.tx); v.Code != c.code || v.Log != c.log {
			t.Errorf("%s: simulate: %+v", c.name, v)
		} else if next, ok := wire.DecodeNextNonce(v.Data); !ok || next != 1 {
			t.Errorf("%s: simulate: data %x", c.name, v.Data)
		}
	}
}
