package app

import (
	"context"
	"encoding/hex"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/wire"
)

// TestQueryPendingNonce: "account/<hex>/pending" counts the key's
// transactions CheckTx took after the committed nonce; the committed
// "account/<hex>" does not. After a Commit the check state starts again
// from the committed one (the included transaction counts as committed),
// and a recheck counts the one still in the mempool again. A malformed
// key, or a height other than the committed one, is a bad request.
func TestQueryPendingNonce(t *testing.T) {
	n := newNode(t, "", testGenesis(1))
	r := reporter(0)
	key := hex.EncodeToString(r.pub())
	path := "account/" + key + "/pending"
	want := func(step string, next, pending, pendingNonce float64) {
		t.Helper()
		got, code := n.query(path)
		if code != wire.QueryOK || got["next_nonce"] != next || got["pending"] != pending || got["pending_nonce"] != pendingNonce || got["pubkey"] != key {
			t.Fatalf("%s: %s = %v (code %d), want next_nonce %v, pending %v, pending_nonce %v", step, path, got, code, next, pending, pendingNonce)
		}
	}
	check := func(tx []byte, typ abcitypes.CheckTxType) {
		t.Helper()
		res, _ := n.app.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: tx, Type: typ})
		if res.Code != wire.CodeOK {
			t.Fatalf("CheckTx: code %d %s", res.Code, res.Log)
		}
	}
	want("nothing sent", 0, 0, 0)
	tx0, tx1 := r.tx(t, msgWorkflowTask(4, 3, 3)), r.tx(t, msgWorkflowTask(4, 3, 3))
	check(tx0, abcitypes.CheckTxType_New)
	check(tx1, abcitypes.CheckTxType_New)
	want("two in the mempool", 0, 2, 2)
	if acc, _ := n.query("account/" + key); acc["next_nonce"] != float64(0) {
		t.Fatalf("committed account = %v, want next_nonce 0", acc)
	}
	mustOK(t, n.block(tx0))
	want("after the block of the first, before the recheck", 1, 0, 1)
	check(tx1, abcitypes.CheckTxType_Recheck)
	want("after the recheck", 1, 1, 2)

	for _, bad := range []string{"account/zz/pending", "account/" + key[:10] + "/pending"} {
		if got, code := n.query(bad); code != wire.QueryBadRequest {
			t.Errorf("%s: code %d %v, want %d", bad, code, got, wire.QueryBadRequest)
		}
	}
	resp, err := n.app.Query(context.Background(), &abcitypes.RequestQuery{Path: path, Height: 1000})
	if err != nil || resp.Code != wire.QueryBadRequest {
		t.Fatalf("pending at height 1000: %v %+v, want code %d", err, resp, wire.QueryBadRequest)
	}
}
