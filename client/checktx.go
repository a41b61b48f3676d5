package client

import (
	"context"

	"github.com/scoringsubnet/validatord/app/wire"
)

// DryRun asks the node's app whether it would accept tx into its mempool
// now, keeping nothing (Simulate: the app's "simulate" query, against the
// pending state). Nothing is added to the mempool or broadcast, and the
// key's pending nonce does not move, so the same bytes can be broadcast
// right after. A refusal is a *TxError, returned with the result.
func (c *Client) DryRun(ctx context.Context, tx []byte) (TxResult, error) {
	v, err := c.Simulate(ctx, tx)
	if err != nil {
		return TxResult{}, err
	}
	out := named(TxResult{Code: v.Code, Codespace: wire.Codespace, Log: v.Log, Hash: TxHash(tx), Data: v.Data})
	return out, txError(out)
}
