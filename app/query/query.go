package query

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/shopspring/decimal"
)

// Error is a failed query: a code (wire.Query…) and a message.
type Error struct {
	Code uint32
	Msg  string
}

// BadRequest, Internal and NotFound make the errors of their codes.
func BadRequest(format string, args ...any) *Error {
	return &Error{Code: wire.QueryBadRequest, Msg: fmt.Sprintf(format, args...)}
}

func Internal(format string, args ...any) *Error {
	return &Error{Code: wire.QueryInternal, Msg: fmt.Sprintf(format, args...)}
}

func NotFound(format string, args ...any) *Error {
	return &Error{Code: wire.QueryNotFound, Msg: fmt.Sprintf(format, args...)}
}

type queryHandler func(q *View, args []string) (any, *Error)

// answers adapts a handler of one view type to the route table.
func answers[V any](h func(q *View, args []string) (*V, *Error)) queryHandler {
	return func(q *View, args []string) (any, *Error) {
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
	"status":       {0, answers((*View).status)},
	"params":       {0, answers((*View).params)},
	"validators":   {0, answers((*View).validators)},
	"proposal":     {1, answers((*View).proposal)},
	"proposals":    {0, answers((*View).proposals)},
	"misbehaviour": {1, answers((*View).misbehaviour)},
	"account":      {1, answers((*View).account)},
	"miner":        {1, answers((*View).miner)},
	"registration": {0, answers((*View).registration)},
	"counts":       {0, answers((*View).counts)},
	"mirror":       {0, answers((*View).mirrorView)},
	"task":         {1, answers((*View).task)},
	"submission":   {1, answers((*View).submission)},
	"window":       {1, answers((*View).window)},
	"baseline":     {1, answers((*View).baseline)},
	"gas":          {2, answers((*View).gas)},
	"truth":        {2, answers((*View).truth)},
	"gaschain":     {1, answers((*View).gasChain)},
	"leaderboard":  {1, answers((*View).leaderboard)},
	"epoch":        {1, answers((*View).epoch)},
	"digest":       {0, answers((*View).digest)},
	"tasks":        {4, answers((*View).tasks)},
	"submissions":  {4, answers((*View).submissions)},
	"metagraph":    {0, answers((*View).metagraph)},
}

// querySubRoutes are paths "<first>/<arg>/<last>", keyed "<first>/<last>":
// a view of one item beside the item itself.
var querySubRoutes = map[string]queryHandler{
	"task/results": answers((*View).taskResults),
}

// Answer answers the query path ("/" prefixes ignored, docs/queries.md)
// from the view. It may panic on a state that breaks an invariant; the
// ABCI Query method recovers.
func (q *View) Answer(path string) (any, *Error) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if h, ok := querySubRoutes[parts[0]+"/"+parts[len(parts)-1]]; ok && len(parts) == 3 {
		if q.Chain == nil {
			return nil, NotFound("the chain is not initialised yet")
		}
		return h(q, parts[1:2])
	}
	r, ok := queryRoutes[parts[0]]
	if !ok {
		return nil, BadRequest("unknown query path %q (see docs/queries.md)", path)
	}
	if len(parts)-1 != r.args {
		return nil, BadRequest("query %q takes %d argument(s)", parts[0], r.args)
	}
	if q.Chain == nil && parts[0] != "status" {
		return nil, NotFound("the chain is not initialised yet")
	}
	return r.h(q, parts[1:])
}

// View answers queries from a read-only view of the committed state at
// one height.
type View struct {
	Chain   *kernel.Chain // the rules in force at Height+1; nil before InitChain
	Height  int64
	AppHash []byte
	St      store.State
	// Snap reads the committed version the view answers from (nil before
	// the first block): the digest query iterates it.
	Snap *store.Snapshot
	// Track is the unit of a genesis track name, as the shell's epochs use
	// it: the leaderboards and metagraph show the aggregates epochs see.
	Track func(name string) kernel.Track
}

// aggregate is uid's aggregate on the track named name (as epochs see it).
func (q *View) aggregate(name string, uid uint32) (decimal.Decimal, bool) {
	return q.Track(name).Aggregate(kernel.Env{Chain: q.Chain, St: q.St, Block: &kernel.Block{Height: q.Height, Chain: q.Chain}}, uid)
}

// GenesisHash is the stored genesis hash (nil before InitChain, and on a
// chain initialised by a version that did not store it).
func (q *View) GenesisHash() []byte {
	h, ok := q.St.O.Get(store.KeyGenesisHash)
	if !ok {
		return nil
	}
	return append([]byte(nil), h...)
}

// FirstWords are the first segments of the paths the view answers, sorted.
// The App answers "simulate" and "account/<pubkey hex>/pending" itself.
func FirstWords() []string {
	return slices.Sorted(maps.Keys(queryRoutes))
}
