package app

import (
	"errors"
	"fmt"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/commitment"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// answerStore answers /store/<name>/key: the record under the key
// req.Data in a provable store, as its raw bytes (the gogoproto encoding of
// the state), with its proof against the app hash when req.Prove is set.
// CometBFT's light client checks that proof against the header at
// Height+1, so a proven query without a height is answered at the last
// committed height − 1, whose next header is committed and signed already
// (or at the last committed one when the store holds no version before it).
func (a *App) answerStore(resp *abcitypes.ResponseQuery, req *abcitypes.RequestQuery, name string) *abcitypes.ResponseQuery {
	h := req.Height
	if h <= 0 && req.Prove {
		if c := a.view.Load(); c != nil && c.genesis == nil && c.height-1 >= max(a.firstHeight.Load(), 1) {
			h = c.height - 1
		}
	}
	view, done, qerr := a.viewAt(h)
	if qerr != nil {
		resp.Code, resp.Log = qerr.Code, qerr.Msg
		return resp
	}
	defer done()
	defer func() {
		if r := recover(); r != nil {
			resp.Code, resp.Log, resp.Value, resp.ProofOps = wire.QueryInternal, fmt.Sprintf("query %q failed: %v", req.Path, r), nil, nil
		}
	}()
	meta := &subnetv1.Meta{}
	if view.Snap == nil || !view.St.Load(store.KeyMeta, meta) {
		resp.Code, resp.Log = wire.QueryNotFound, "no block is committed yet: a record is provable from the first block's state on"
		return resp
	}
	lanes, err := store.DecodeLanes(meta.Lanes)
	if err != nil {
		resp.Code, resp.Log = wire.QueryInternal, err.Error()
		return resp
	}
	value, ops, err := commitment.Prove(view.St.O, lanes.Sum(), name, req.Data)
	switch {
	case errors.Is(err, commitment.ErrNotFound):
		resp.Code, resp.Log = wire.QueryNotFound, err.Error()
		return resp
	case err != nil:
		resp.Code, resp.Log = wire.QueryBadRequest, err.Error()
		return resp
	}
	if req.Prove {
		// The node's own check of what it signs off: a proof that does not
		// verify against the app hash it committed is a broken store.
		if err := wire.VerifyProof(meta.AppHash, name, req.Data, value, ops); err != nil {
			resp.Code, resp.Log = wire.QueryInternal, err.Error()
			return resp
		}
		resp.ProofOps = ops
	}
	resp.Key, resp.Value, resp.Height = append([]byte(nil), req.Data...), value, meta.Height
	return resp
}
