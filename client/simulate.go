package client

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	rpcclient "github.com/cometbft/cometbft/rpc/client"

	"github.com/scoringsubnet/validatord/app/wire"
)

// Simulate asks the node what CheckTx would answer for a signed transaction
// now, keeping nothing (the app's "simulate" query): the dry run of
// `validatord tx --dry-run`. Unlike CometBFT's /check_tx it leaves the
// node's pending nonces alone, so the same bytes can be broadcast after it.
func (c *Client) Simulate(ctx context.Context, tx []byte) (*wire.SimulateView, error) {
	res, err := c.rpc.ABCIQueryWithOptions(ctx, "simulate", tx, rpcclient.ABCIQueryOptions{})
	if err != nil {
		return nil, c.wrap(err)
	}
	if res.Response.Code != wire.QueryOK {
		return nil, &QueryError{Path: "simulate", Code: res.Response.Code, Name: wire.QueryCodeName(res.Response.Code),
			Log: strings.TrimSpace(res.Response.Log)}
	}
	v := &wire.SimulateView{}
	if err := json.Unmarshal(res.Response.Value, v); err != nil {
		return nil, fmt.Errorf("simulate: %w", err)
	}
	return v, nil
}
