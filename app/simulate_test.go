package app

import (
	"context"
	"encoding/json"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/wire"
)

func simulateQuery(t *testing.T, n *node, tx []byte) (*abcitypes.ResponseQuery, wire.SimulateView) {
	t.Helper()
	resp, err := n.app.Query(context.Background(), &abcitypes.RequestQuery{Path: "simulate", Data: tx})
	if err != nil {
		t.Fatal(err)
	}
	var v wire.SimulateView
	if resp.Code == wire.QueryOK {
		if err := json.Unmarshal(resp.Value, &v); err != nil {
			t.Fatal(err)
		}
	}
	return resp, v
}

// TestSimulateKeepsNothing: the dry run answers what CheckTx would (the
// code, its name, the events), and keeps nothing: the same tx then passes
// CheckTx (a dry run through CometBFT's /check_tx would have made its nonce
// pending, and CheckTx would refuse it as used), the app hash and the check
// state are as before. A bad signature and empty data are answered too.
func TestSimulateKeepsNothing(t *testing.T) {
	n := newNode(t, t.TempDir(), testGenesis(2))
	m := newMiner("sim-miner", 1)
	mustOK(t, n.block(m.tx(t, msgRegister())))
	tx := reporter(0).tx(t, msgWorkflowTask(4, 10, 20))
	hash := n.app.AppHash()
	for i := 0; i < 2; i++ {
		resp, v := simulateQuery(t, n, tx)
		if resp.Code != wire.QueryOK || v.Code != wire.CodeOK || v.Name != "ok" || v.Height != n.height+1 || len(v.Events) == 0 {
			t.Fatalf("simulate %d: %+v %+v", i, resp, v)
		}
	}
	ct, err := n.app.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: tx})
	if err != nil || ct.Code != wire.CodeOK {
		t.Fatalf("CheckTx after two dry runs: %+v %v", ct, err)
	}
	if _, v := simulateQuery(t, n, tx); v.Code != wire.CodeNonceUsed {
		t.Fatalf("simulate after CheckTx took the tx: %+v, want nonce_used", v)
	}
	other := reporter(1).tx(t, msgWorkflowTask(4, 10, 20))
	bad := append([]byte(nil), other...)
	bad[len(bad)-1] ^= 1 // the signature's last byte
	if _, v := simulateQuery(t, n, bad); v.Code != wire.CodeBadSignature || v.Name != "bad_signature" || v.Log == "" {
		t.Fatalf("a bad signature simulated: %+v", v)
	}
	if _, v := simulateQuery(t, n, other[:10]); v.Code == wire.CodeOK || v.Name == "" {
		t.Fatalf("a truncated tx simulated: %+v", v)
	}
	if resp, _ := simulateQuery(t, n, nil); resp.Code != wire.QueryBadRequest {
		t.Fatalf("simulate without data: %+v", resp)
	}
	if string(n.app.AppHash()) != string(hash) {
		t.Fatal("a dry run moved the app hash")
	}
}
