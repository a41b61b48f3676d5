package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/scoringsubnet/validatord/app/governance"
	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/query"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"

	abcitypes "github.com/cometbft/cometbft/abci/types"
)

// Query answers JSON views of the committed state (the wire.…View types). Paths are listed in
// docs/queries.md; "/" prefixes are ignored, so "/submission/7" and
// "submission/7" are the same. It never panics, and it does not take the
// lock block execution holds: it reads the last committed state through a
// badger read transaction of its own (before the first block, InitChain's
// writes), so a flood of queries never delays consensus.
func (a *App) Query(_ context.Context, req *abcitypes.RequestQuery) (resp *abcitypes.ResponseQuery, err error) {
	a.closeMu.RLock()
	defer a.closeMu.RUnlock()
	resp = &abcitypes.ResponseQuery{Codespace: wire.Codespace}
	if a.db == nil {
		resp.Code, resp.Log = wire.QueryInternal, "the app is closed"
		return resp, nil
	}
	if strings.Trim(req.Path, "/") == "simulate" { // the pending state, not a committed view (simulate.go)
		return a.answerSimulate(resp, req.Data), nil
	}
	if name, ok := wire.ParseStoreQueryPath(req.Path); ok { // raw records with their proofs (query_store.go)
		return a.answerStore(resp, req, name), nil
	}
	if p, ok := a.queryPending(req); ok {
		return p, nil
	}
	view, done, qerr := a.viewAt(req.Height)
	if qerr != nil {
		resp.Code, resp.Log = qerr.Code, qerr.Msg
		return resp, nil
	}
	defer done()
	resp.Height = view.Height
	defer func() {
		if r := recover(); r != nil {
			resp.Code, resp.Log, resp.Value = wire.QueryInternal, fmt.Sprintf("query %q failed: %v", req.Path, r), nil
		}
	}()
	v, qerr := view.Answer(req.Path)
	if qerr != nil {
		resp.Code, resp.Log = qerr.Code, qerr.Msg
		return resp, nil
	}
	bz, jerr := json.Marshal(v)
	if jerr != nil {
		resp.Code, resp.Log = wire.QueryInternal, jerr.Error()
		return resp, nil
	}
	resp.Value = bz
	return resp, nil
}

// committed is what queries need of the last commit, swapped atomically by
// InitChain and Commit: the chain, and before the first block InitChain's
// writes (over an empty state), which never change once made.
type committed struct {
	chain   *kernel.Chain
	genesis *store.Overlay
	height  int64
	appHash []byte
	landed  <-chan struct{} // pipelined: closed once this height's write is readable in badger
}

// committedView opens a read-only view of the last committed state; done
// releases it.
func (a *App) committedView() (*query.View, func()) {
	c := a.view.Load()
	if c == nil {
		return &query.View{St: store.State{O: store.NewOverlay(store.Empty{})}, Track: trackUnit}, func() {}
	}
	if c.genesis != nil {
		return &query.View{Chain: c.chain, Height: c.height, AppHash: c.appHash, St: store.State{O: store.NewOverlay(c.genesis)}, Track: trackUnit}, func() {}
	}
	version := uint64(store.Latest)
	if c.landed != nil {
		// Pipelined: the block's write may still be landing, entry by
		// entry. Read the view's own version once it has landed (a later
		// block may be landing by then).
		<-c.landed
		version = uint64(c.height)
	}
	txn := a.db.NewTransactionAt(version, false)
	snap := &store.Snapshot{Txn: txn}
	q := &query.View{Chain: c.chain, Height: c.height, AppHash: c.appHash, St: store.State{O: store.NewOverlay(*snap)}, Snap: snap, Track: trackUnit}
	meta := &subnetv1.Meta{}
	if q.St.Load(store.KeyMeta, meta) { // the version this transaction reads, whatever Commit did since
		q.Height, q.AppHash = meta.Height, meta.AppHash
	}
	return q, txn.Discard
}

// viewAt is the view of the state as of height h (RequestQuery.Height; 0:
// the last committed). A height above the last committed one, or older
// than the versions this node keeps (Config.KeepVersions), is refused with
// a message naming what to do instead.
func (a *App) viewAt(h int64) (*query.View, func(), *query.Error) {
	q, done := a.committedView()
	if h <= 0 || h == q.Height || q.Chain == nil {
		return q, done, nil
	}
	latest := q.Height
	done()
	if h > latest {
		return nil, nil, query.BadRequest("height %d is not committed yet (latest %d)", h, latest)
	}
	if oldest := a.oldestKept(latest); h < oldest {
		return nil, nil, query.NotFound("height %d is older than the state versions this node keeps (heights %d to %d; keep_versions %d): "+
			"run `validatord export --height %d` over a block store, or ask an archive node (keep_versions 0)", h, oldest, latest, a.keepVersions, h)
	}
	txn := a.db.NewTransactionAt(uint64(h), false)
	snap := &store.Snapshot{Txn: txn}
	st := store.State{O: store.NewOverlay(*snap)}
	meta := &subnetv1.Meta{}
	if !st.Load(store.KeyMeta, meta) || meta.Height != h {
		txn.Discard()
		return nil, nil, query.NotFound("height %d: no state version stored (the store holds heights from %d)", h, a.firstHeight.Load())
	}
	chainID, _ := st.O.Get(store.KeyChainID)
	chain, err := governance.LoadChain(st, string(chainID), h+1)
	if err != nil {
		txn.Discard()
		return nil, nil, query.Internal("height %d: %v", h, err)
	}
	return &query.View{Chain: chain, Height: h, AppHash: meta.AppHash, St: st, Snap: snap, Track: trackUnit}, txn.Discard, nil
}

// publish makes the committed position visible to queries.
func (a *App) publish() {
	c := &committed{chain: a.chain, height: a.height, appHash: a.appHash, landed: a.durable.landed()}
	if a.genesis != nil {
		c.genesis = store.NewOverlay(store.Empty{})
		a.genesis.MergeInto(c.genesis)
	}
	a.view.Store(c)
}
