// Package appquery reads the app's committed state in-process, through the
// same ABCI Query that CometBFT's /abci_query serves, into the typed answers
// of app/wire. The metrics observer and the leaderboard page use it.
//
//	lb, err := appquery.Get[wire.LeaderboardView](ctx, application, "leaderboard/workflow")
package appquery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/wire"
)

// Querier is what appquery needs of the app: its ABCI Query.
type Querier interface {
	Query(context.Context, *abcitypes.RequestQuery) (*abcitypes.ResponseQuery, error)
}

// ErrNotFound is a query answered with code 2 (wire.QueryNotFound).
var ErrNotFound = errors.New("not found")

// Error is a query answered with another code than 0 or 2.
type Error struct {
	Path string
	Code uint32
	Log  string
}

func (e *Error) Error() string { return fmt.Sprintf("query %s: code %d: %s", e.Path, e.Code, e.Log) }

// Raw is the JSON answer of path and the committed height it is of.
func Raw(ctx context.Context, q Querier, path string) (json.RawMessage, int64, error) {
	resp, err := q.Query(ctx, &abcitypes.RequestQuery{Path: path})
	if err != nil {
		return nil, 0, fmt.Errorf("query %s: %w", path, err)
	}
	switch resp.Code {
	case wire.QueryOK:
		return resp.Value, resp.Height, nil
	case wire.QueryNotFound:
		return nil, resp.Height, fmt.Errorf("query %s: %w: %s", path, ErrNotFound, resp.Log)
	}
	return nil, resp.Height, &Error{Path: path, Code: resp.Code, Log: resp.Log}
}

// Prove asks the app for the record under key in the provable store
// name with its Merkle proof (RequestQuery.Prove) as of height (0: the
// app's latest provable height). A record the app does not have wraps
// ErrNotFound.
func Prove(ctx context.Context, q Querier, name string, key []byte, height int64) (*abcitypes.ResponseQuery, error) {
	path := wire.StoreQueryPath(name)
	resp, err := q.Query(ctx, &abcitypes.RequestQuery{Path: path, Data: key, Height: height, Prove: true})
	if err != nil {
		return nil, fmt.Errorf("query %s %x: %w", path, key, err)
	}
	switch resp.Code {
	case wire.QueryOK:
		return resp, nil
	case wire.QueryNotFound:
		return nil, fmt.Errorf("query %s %x: %w: %s", path, key, ErrNotFound, resp.Log)
	}
	return nil, &Error{Path: path, Code: resp.Code, Log: resp.Log}
}

// Get decodes the answer of path into a V.
func Get[V any](ctx context.Context, q Querier, path string) (*V, error) {
	bz, _, err := Raw(ctx, q, path)
	if err != nil {
		return nil, err
	}
	v := new(V)
	if err := json.Unmarshal(bz, v); err != nil {
		return nil, fmt.Errorf("query %s: decode: %w", path, err)
	}
	return v, nil
}

// Tracks names the tracks in force, in the chain's order (the params' tracks).
func Tracks(ctx context.Context, q Querier) ([]string, error) {
	p, err := Get[wire.ParamsView](ctx, q, "params")
	if err != nil {
		return nil, err
	}
	var st struct {
		Tracks []struct {
			Name string `json:"name"`
		} `json:"tracks"`
	}
	if err := json.Unmarshal(p.AppState, &st); err != nil {
		return nil, fmt.Errorf("query params: app_state: %w", err)
	}
	names := make([]string, len(st.Tracks))
	for i, t := range st.Tracks {
		names[i] = t.Name
	}
	return names, nil
}
