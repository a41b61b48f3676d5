package app

import (
	"encoding/hex"
	"encoding/json"
	"strings"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/query"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
)

// pendingPath says whether path is "account/<hex>/pending" and gives the
// key's hex.
func pendingPath(path string) (string, bool) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if len(parts) != 3 || parts[0] != "account" || parts[2] != "pending" {
		return "", false
	}
	return parts[1], true
}

// queryPending answers "account/<hex>/pending" from CheckTx's state, under
// the check lock: the committed nonce and the one after the key's
// transactions this node's mempool holds (CheckTx counts each it accepts;
// Commit resets the state to the committed one and CometBFT's recheck of
// the mempool counts those still there again, so between a Commit and the
// end of its recheck the answer may be below the mempool's). It is not
// one of the committed-state queries of queryRoutes: it reads no
// committed view and takes no height.
func (a *App) queryPending(req *abcitypes.RequestQuery) (*abcitypes.ResponseQuery, bool) {
	key, ok := pendingPath(req.Path)
	if !ok {
		return nil, false
	}
	resp := &abcitypes.ResponseQuery{Codespace: wire.Codespace}
	v, qerr := a.pendingAccount(key, req.Height)
	if qerr != nil {
		resp.Code, resp.Log = qerr.Code, qerr.Msg
		return resp, true
	}
	bz, err := json.Marshal(v)
	if err != nil {
		resp.Code, resp.Log = wire.QueryInternal, err.Error()
		return resp, true
	}
	resp.Value, resp.Height = bz, v.Height
	return resp, true
}

func (a *App) pendingAccount(key string, height int64) (*wire.PendingAccountView, *query.Error) {
	pub, err := hex.DecodeString(key)
	if err != nil || len(pub) != 32 {
		return nil, query.BadRequest("account %q is not a hex 32-byte ed25519 public key", key)
	}
	a.checkMu.Lock()
	defer a.checkMu.Unlock()
	switch {
	case a.chain == nil || a.check == nil:
		return nil, query.NotFound("the chain is not initialised yet")
	case height > 0 && height != a.height:
		return nil, query.BadRequest("the pending state is the mempool's on top of the last committed height %d; it has no height %d", a.height, height)
	}
	b, _ := a.base()
	committed := store.State{O: store.NewOverlay(b)}.Account(pub).NextNonce
	pending := store.State{O: a.check}.Account(pub).NextNonce
	return &wire.PendingAccountView{Height: a.height, NextNonce: committed, Pending: pending - min(pending, committed),
		PendingNonce: max(pending, committed), Pubkey: key}, nil
}
