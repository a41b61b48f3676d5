package client

import (
	"context"
	"fmt"
)

// BlockTxHashes are the hashes (as TxResult.Hash) of the transactions of
// the block at height, in block order: a watcher that matches every block
// against the transactions it sent learns their fate with one call a
// block rather than one /tx a transaction.
func (c *Client) BlockTxHashes(ctx context.Context, height int64) ([]string, error) {
	b, err := c.rpc.Block(ctx, &height)
	if err != nil {
		return nil, c.wrap(err)
	}
	if b.Block == nil {
		return nil, fmt.Errorf("node %s: no block at height %d", c.addr, height)
	}
	out := make([]string, len(b.Block.Txs))
	for i, tx := range b.Block.Txs {
		out[i] = TxHash(tx)
	}
	return out, nil
}
