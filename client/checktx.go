package client

import (
	"context"
	"fmt"
)

// CheckTx asks the node's app whether it would accept tx into its mempool
// now (CometBFT's /check_tx): nothing is added to the mempool or broadcast,
// nothing changes. A refusal is a *TxError, returned with the result.
func (c *Client) CheckTx(ctx context.Context, tx []byte) (TxResult, error) {
	res, err := c.rpc.CheckTx(ctx, tx)
	if err != nil {
		return TxResult{}, fmt.Errorf("node %s: check_tx: %w", c.addr, err)
	}
	out := named(TxResult{Code: res.Code, Codespace: res.Codespace, Log: res.Log, Hash: TxHash(tx)})
	return out, txError(out)
}
