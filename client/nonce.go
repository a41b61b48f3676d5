package client

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"strings"

	"github.com/scoringsubnet/validatord/app/wire"
)

// PendingAccount is the key's nonces as the node's CheckTx sees them
// ("account/<pubkey hex>/pending"): the committed one and the next one
// once the key's transactions in the node's mempool are counted.
func (c *Client) PendingAccount(ctx context.Context, pub ed25519.PublicKey) (*wire.PendingAccountView, error) {
	return query[wire.PendingAccountView](ctx, c, "account/"+hex.EncodeToString(pub)+"/pending")
}

// pendingNonce is the pending query's nonce; a node too old to know the
// query (bad request: unknown path) answers with the committed one.
func (c *Client) pendingNonce(ctx context.Context, pub ed25519.PublicKey) (uint64, error) {
	v, err := c.PendingAccount(ctx, pub)
	var qe *QueryError
	if errors.As(err, &qe) && qe.Code == wire.QueryBadRequest && strings.Contains(qe.Log, "unknown query path") {
		return c.CommittedNonce(ctx, pub)
	}
	if err != nil {
		return 0, err
	}
	return v.PendingNonce, nil
}

// CommittedNonce is the account's next nonce in the last committed state
// (0 for a new key): what the chain has taken, without the mempool.
func (c *Client) CommittedNonce(ctx context.Context, pub ed25519.PublicKey) (uint64, error) {
	acc, err := c.Account(ctx, pub)
	if err != nil {
		return 0, err
	}
	return acc.NextNonce, nil
}

// Height is the app's last committed height (the status query).
func (c *Client) Height(ctx context.Context) (int64, error) {
	st, err := c.Status(ctx)
	if err != nil {
		return 0, err
	}
	return st.Height, nil
}
