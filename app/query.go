package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/track"
	"github.com/scoringsubnet/validatord/app/wire"
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
	"status":      {0, answers((*querier).status)},
	"params":      {0, answers((*querier).params)},
	"validators":  {0, answers((*querier).validators)},
	"account":     {1, answers((*querier).account)},
	"miner":       {1, answers((*querier).miner)},
	"task":        {1, answers((*querier).task)},
	"submission":  {1, answers((*querier).submission)},
	"window":      {1, answers((*querier).window)},
	"baseline":    {1, answers((*querier).baseline)},
	"gas":         {2, answers((*querier).gas)},
	"leaderboard": {1, answers((*querier).leaderboard)},
	"epoch":       {1, answers((*querier).epoch)},
}

// Query answers JSON views of the committed state (the wire.…View types). Paths are listed in
// docs/queries.md; "/" prefixes are ignored, so "/submission/7" and
// "submission/7" are the same. It never panics.
func (a *App) Query(_ context.Context, req *abcitypes.RequestQuery) (resp *abcitypes.ResponseQuery, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	resp = &abcitypes.ResponseQuery{Height: a.height, Codespace: wire.Codespace}
	defer func() {
		if r := recover(); r != nil {
			resp.Code, resp.Log, resp.Value = wire.QueryInternal, fmt.Sprintf("query %q failed: %v", req.Path, r), nil
		}
	}()
	v, qerr := a.route(req.Path)
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

func (a *App) route(path string) (any, *queryError) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	r, ok := queryRoutes[parts[0]]
	if !ok {
		return nil, badRequest("unknown query path %q (see docs/queries.md)", path)
	}
	if len(parts)-1 != r.args {
		return nil, badRequest("query %q takes %d argument(s)", parts[0], r.args)
	}
	if a.chain == nil && parts[0] != "status" {
		return nil, notFound("the chain is not initialised yet")
	}
	b, _ := a.base()
	q := &querier{a: a, st: store.State{O: store.NewOverlay(b)}}
	return r.h(q, parts[1:])
}

// querier answers one query from a read-only view.
type querier struct {
	a  *App
	st store.State
}

// aggregate is uid's aggregate on the track named name (as epochs see it).
func (q *querier) aggregate(name string, uid uint32) (decimal.Decimal, bool) {
	return trackUnit(name).Aggregate(track.Env{Chain: q.a.chain, St: q.st, Block: &track.Block{Height: q.a.height}}, uid)
}
