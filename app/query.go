package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/shopspring/decimal"

	abcitypes "github.com/cometbft/cometbft/abci/types"
)

// queryError is a failed query: a code and a message.
type queryError struct {
	code uint32
	msg  string
}

func badRequest(format string, args ...any) *queryError {
	return &queryError{code: wire.QueryBadRequest, msg: fmt.Sprintf(format, args...)}
}

func internalErr(format string, args ...any) *queryError {
	return &queryError{code: wire.QueryInternal, msg: fmt.Sprintf(format, args...)}
}

func notFound(format string, args ...any) *queryError {
	return &queryError{code: wire.QueryNotFound, msg: fmt.Sprintf(format, args...)}
}

type queryHandler func(q *querier, args []string) (any, *queryError)

// answers adapts a handler of one view type to the route table.
func answers[V any](h func(q *querier, args []string) (*V, *queryError)) queryHandler {
	return func(q *querier, args []string) (any, *queryError) {
		v, qerr := h(q, args)
		if qerr != nil {
			return nil, qerr
		}
		return v, nil
	}
}

// queryRoutes maps a path's first segment to its handler and argument count.
var queryRoutes = map[string]struct {
	args int
	h    queryHandler
}{
	"status":       {0, answers((*querier).status)},
	"params":       {0, answers((*querier).params)},
	"validators":   {0, answers((*querier).validators)},
	"proposal":     {1, answers((*querier).proposal)},
	"proposals":    {0, answers((*querier).proposals)},
	"misbehaviour": {1, answers((*querier).misbehaviour)},
	"account":      {1, answers((*querier).account)},
	"miner":        {1, answers((*querier).miner)},
	"registration": {0, answers((*querier).registration)},
	"mirror":       {0, answers((*querier).mirror)},
	"task":         {1, answers((*querier).task)},
	"submission":   {1, answers((*querier).submission)},
	"window":       {1, answers((*querier).window)},
	"baseline":     {1, answers((*querier).baseline)},
	"gas":          {2, answers((*querier).gas)},
	"truth":        {2, answers((*querier).truth)},
	"gaschain":     {1, answers((*querier).gasChain)},
	"leaderboard":  {1, answers((*querier).leaderboard)},
	"epoch":        {1, answers((*querier).epoch)},
	"digest":       {0, answers((*querier).digest)},
	"tasks":        {4, answers((*querier).tasks)},
	"submissions":  {4, answers((*querier).submissions)},
	"metagraph":    {0, answers((*querier).metagraph)},
}

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
	if p, ok := a.queryPending(req); ok {
		return p, nil
	}
	view, done, qerr := a.viewAt(req.Height)
	if qerr != nil {
		resp.Code, resp.Log = qerr.code, qerr.msg
		return resp, nil
	}
	defer done()
	resp.Height = view.height
	defer func() {
		if r := recover(); r != nil {
			resp.Code, resp.Log, resp.Value = wire.QueryInternal, fmt.Sprintf("query %q failed: %v", req.Path, r), nil
		}
	}()
	v, qerr := view.route(req.Path)
	if qerr != nil {
		resp.Code, resp.Log = qerr.code, qerr.msg
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

// querySubRoutes are paths "<first>/<arg>/<last>", keyed "<first>/<last>":
// a view of one item beside the item itself.
var querySubRoutes = map[string]queryHandler{
	"task/results": answers((*querier).taskResults),
}

func (q *querier) route(path string) (any, *queryError) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if h, ok := querySubRoutes[parts[0]+"/"+parts[len(parts)-1]]; ok && len(parts) == 3 {
		if q.chain == nil {
			return nil, notFound("the chain is not initialised yet")
		}
		return h(q, parts[1:2])
	}
	r, ok := queryRoutes[parts[0]]
	if !ok {
		return nil, badRequest("unknown query path %q (see docs/queries.md)", path)
	}
	if len(parts)-1 != r.args {
		return nil, badRequest("query %q takes %d argument(s)", parts[0], r.args)
	}
	if q.chain == nil && parts[0] != "status" {
		return nil, notFound("the chain is not initialised yet")
	}
	return r.h(q, parts[1:])
}

// querier answers one query from a read-only view of the committed state.
type querier struct {
	chain   *kernel.Chain // nil before InitChain
	height  int64
	appHash []byte
	st      store.State
	// snap reads the committed version the view answers from (nil before
	// the first block): the digest query iterates it.
	snap *store.Snapshot
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
func (a *App) committedView() (*querier, func()) {
	c := a.view.Load()
	if c == nil {
		return &querier{st: store.State{O: store.NewOverlay(store.Empty{})}}, func() {}
	}
	if c.genesis != nil {
		return &querier{chain: c.chain, height: c.height, appHash: c.appHash, st: store.State{O: store.NewOverlay(c.genesis)}}, func() {}
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
	q := &querier{chain: c.chain, height: c.height, appHash: c.appHash, st: store.State{O: store.NewOverlay(*snap)}, snap: snap}
	meta := &subnetv1.Meta{}
	if q.st.Load(store.KeyMeta, meta) { // the version this transaction reads, whatever Commit did since
		q.height, q.appHash = meta.Height, meta.AppHash
	}
	return q, txn.Discard
}

// viewAt is the view of the state as of height h (RequestQuery.Height; 0:
// the last committed). A height above the last committed one, or older
// than the versions this node keeps (Config.KeepVersions), is refused with
// a message naming what to do instead.
func (a *App) viewAt(h int64) (*querier, func(), *queryError) {
	q, done := a.committedView()
	if h <= 0 || h == q.height || q.chain == nil {
		return q, done, nil
	}
	latest := q.height
	done()
	if h > latest {
		return nil, nil, badRequest("height %d is not committed yet (latest %d)", h, latest)
	}
	if oldest := a.oldestKept(latest); h < oldest {
		return nil, nil, notFound("height %d is older than the state versions this node keeps (heights %d to %d; keep_versions %d): "+
			"run `validatord export --height %d` over a block store, or ask an archive node (keep_versions 0)", h, oldest, latest, a.keepVersions, h)
	}
	txn := a.db.NewTransactionAt(uint64(h), false)
	snap := &store.Snapshot{Txn: txn}
	st := store.State{O: store.NewOverlay(*snap)}
	meta := &subnetv1.Meta{}
	if !st.Load(store.KeyMeta, meta) || meta.Height != h {
		txn.Discard()
		return nil, nil, notFound("height %d: no state version stored (the store holds heights from %d)", h, a.firstHeight.Load())
	}
	chainID, _ := st.O.Get(store.KeyChainID)
	chain, err := loadChain(st, string(chainID), h+1)
	if err != nil {
		txn.Discard()
		return nil, nil, internalErr("height %d: %v", h, err)
	}
	return &querier{chain: chain, height: h, appHash: meta.AppHash, st: st, snap: snap}, txn.Discard, nil
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

// aggregate is uid's aggregate on the track named name (as epochs see it).
func (q *querier) aggregate(name string, uid uint32) (decimal.Decimal, bool) {
	return trackUnit(name).Aggregate(kernel.Env{Chain: q.chain, St: q.st, Block: &kernel.Block{Height: q.height, Chain: q.chain}}, uid)
}
