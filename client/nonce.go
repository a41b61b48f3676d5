package client

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
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

// nonceHint says what to do about a nonce refusal of a nonce the user
// chose (FixNonce), with the node's nonces when it answers.
func (s *Signer) nonceHint(ctx context.Context, te *TxError) string {
	pn, ok := s.node.(interface {
		PendingAccount(context.Context, ed25519.PublicKey) (*wire.PendingAccountView, error)
	})
	if !ok {
		return ""
	}
	v, err := pn.PendingAccount(ctx, s.PubKey())
	if err != nil {
		return ""
	}
	return NonceHint(te.Code, v.NextNonce, v.PendingNonce)
}

// NonceHint says what to do after a nonce refusal (code 7 or 8) given the
// account's committed next nonce and its pending one (counting the key's
// transactions in the node's mempool).
func NonceHint(code uint32, committed, pending uint64) string {
	waiting := ""
	if pending > committed {
		waiting = fmt.Sprintf("; %d earlier transaction(s) of this key are still pending in the mempool (nonces %d to %d)", pending-committed, committed, pending-1)
	}
	return nonceHint(code, pending, waiting)
}

// nonceHint is NonceHint's text, waiting saying what is pending.
func nonceHint(code uint32, pending uint64, waiting string) string {
	switch code {
	case wire.CodeNonceUsed:
		return fmt.Sprintf("the next nonce is %d%s: leave --nonce out (the client then reads the pending nonce from the node), or pass --nonce %d, or send with --wait so that the next transaction starts after this one's block", pending, waiting, pending)
	case wire.CodeNonceFuture:
		return fmt.Sprintf("the next nonce is %d%s: the transactions with the nonces before yours are not in this node's mempool (lost, or sent to another node); send them again, or pass --nonce %d", pending, waiting, pending)
	}
	return ""
}
