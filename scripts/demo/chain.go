package main

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	rpchttp "github.com/cometbft/cometbft/rpc/client/http"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// chain is a node's RPC and the chain's id.
type chain struct {
	rpc *rpchttp.HTTP
	id  string
}

// connect waits until the node at addr has committed a block, then returns
// a client for it.
func connect(ctx context.Context, addr string) (*chain, error) {
	c, err := rpchttp.New(addr, "/websocket")
	if err != nil {
		return nil, fmt.Errorf("node %s: %w", addr, err)
	}
	for {
		st, err := c.Status(ctx)
		if err == nil && st.SyncInfo.LatestBlockHeight >= 1 {
			return &chain{rpc: c, id: st.NodeInfo.Network}, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("node %s: no block committed yet (last error: %v)", addr, err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// query runs an ABCI query and returns the JSON answer.
func (c *chain) query(ctx context.Context, path string) (json.RawMessage, error) {
	res, err := c.rpc.ABCIQuery(ctx, path, nil)
	if err != nil {
		return nil, fmt.Errorf("query %s: %w", path, err)
	}
	if res.Response.Code != 0 {
		return nil, fmt.Errorf("query %s: code %d: %s", path, res.Response.Code, res.Response.Log)
	}
	return res.Response.Value, nil
}

// nextNonce asks the app for the account's next nonce (0 for a new account).
func (c *chain) nextNonce(ctx context.Context, pub []byte) (uint64, error) {
	bz, err := c.query(ctx, "account/"+hex.EncodeToString(pub))
	if err != nil {
		return 0, err
	}
	var acc struct {
		NextNonce *uint64 `json:"next_nonce"`
	}
	if err := json.Unmarshal(bz, &acc); err != nil || acc.NextNonce == nil {
		return 0, fmt.Errorf("account query: no next_nonce in %s", bz)
	}
	return *acc.NextNonce, nil
}

// height is the node's last committed height.
func (c *chain) height(ctx context.Context) (int64, error) {
	st, err := c.rpc.Status(ctx)
	if err != nil {
		return 0, err
	}
	return st.SyncInfo.LatestBlockHeight, nil
}

// waitHeight waits until height h is committed.
func (c *chain) waitHeight(ctx context.Context, h int64) error {
	for {
		cur, err := c.height(ctx)
		if err == nil && cur >= h {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for height %d: %w", h, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// actor is one key that sends transactions. The app's CheckTx accepts an
// account's next nonces in order, so an actor may have several transactions
// in the mempool at once.
type actor struct {
	name  string
	key   ed25519.PrivateKey
	nonce uint64
	c     *chain
}

func newActor(ctx context.Context, c *chain, name string, key ed25519.PrivateKey) (*actor, error) {
	a := &actor{name: name, key: key, c: c}
	n, err := c.nextNonce(ctx, a.pub())
	if err != nil {
		return nil, err
	}
	a.nonce = n
	return a, nil
}

func (a *actor) pub() ed25519.PublicKey { return a.key.Public().(ed25519.PublicKey) }

// broadcast signs msg at the actor's next nonce and hands it to the mempool
// (broadcast_tx_sync); a transaction refused by CheckTx is an error.
func (a *actor) broadcast(ctx context.Context, what string, msg *subnetv1.Msg) ([]byte, error) {
	tx, err := wire.SignTx(a.c.id, a.key, a.nonce, msg)
	if err != nil {
		return nil, err
	}
	res, err := a.c.rpc.BroadcastTxSync(ctx, tx)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", a.name, what, err)
	}
	if res.Code != 0 {
		return nil, fmt.Errorf("%s: %s: refused: code %d: %s", a.name, what, res.Code, res.Log)
	}
	a.nonce++
	return res.Hash, nil
}

// send broadcasts msgs in order and waits until each is committed; a
// transaction that failed in its block is an error naming the actor.
func (a *actor) send(ctx context.Context, what string, msgs ...*subnetv1.Msg) ([]*abcitypes.ExecTxResult, error) {
	hashes := make([][]byte, len(msgs))
	for i, m := range msgs {
		h, err := a.broadcast(ctx, what, m)
		if err != nil {
			return nil, err
		}
		hashes[i] = h
	}
	out := make([]*abcitypes.ExecTxResult, len(msgs))
	for i, h := range hashes {
		res, err := a.c.waitTx(ctx, h)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", a.name, what, err)
		}
		out[i] = res
	}
	return out, nil
}

// waitTx polls the node's tx index until the transaction is committed.
func (c *chain) waitTx(ctx context.Context, hash []byte) (*abcitypes.ExecTxResult, error) {
	for {
		res, err := c.rpc.Tx(ctx, hash, false)
		if err == nil {
			if res.TxResult.Code != 0 {
				return nil, fmt.Errorf("failed in block %d: code %d: %s", res.Height, res.TxResult.Code, res.TxResult.Log)
			}
			return &res.TxResult, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("tx %X not committed: %w", hash, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// attr returns the value of attribute key of the first event of type typ.
func attr(res *abcitypes.ExecTxResult, typ, key string) (string, error) {
	for _, e := range res.Events {
		if e.Type != typ {
			continue
		}
		for _, a := range e.Attributes {
			if a.Key == key {
				return a.Value, nil
			}
		}
	}
	return "", fmt.Errorf("no %s.%s in the result's events", typ, key)
}

// attrU64 is attr parsed as an unsigned integer.
func attrU64(res *abcitypes.ExecTxResult, typ, key string) (uint64, error) {
	v, err := attr(res, typ, key)
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s.%s = %q: %w", typ, key, v, err)
	}
	return n, nil
}
