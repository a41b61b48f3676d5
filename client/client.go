package client

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cometbft/cometbft/crypto/tmhash"
	rpchttp "github.com/cometbft/cometbft/rpc/client/http"

	"github.com/scoringsubnet/validatord/app/wire"
)

// Client talks to one node's CometBFT RPC. It is safe for concurrent use.
type Client struct {
	addr string
	rpc  *rpchttp.HTTP
}

// Dial makes a client for addr (tcp://host:port or http://host:port); an
// address without its scheme is an *AddrError. Nothing is sent until the
// first call.
func Dial(addr string) (*Client, error) {
	if !strings.Contains(addr, "://") {
		return nil, &AddrError{Addr: addr}
	}
	c, err := rpchttp.New(addr, "/websocket")
	if err != nil {
		return nil, fmt.Errorf("node %s: %w", addr, err)
	}
	return &Client{addr: addr, rpc: c}, nil
}

// Addr is the node's address as given to Dial.
func (c *Client) Addr() string { return c.addr }

// wrap names the node in err; a call that reached no node is a
// *NodeUnreachableError, which names it already.
func (c *Client) wrap(err error) error {
	if u := Unreachable(c.addr, err); u != nil {
		return u
	}
	return fmt.Errorf("node %s: %w", c.addr, err)
}

// NodeStatus is what CometBFT's /status says of the chain.
type NodeStatus struct {
	ChainID string
	// Height and Time are those of the last committed block.
	Height int64
	Time   time.Time
}

// NodeStatus asks the node for its chain id and last committed block.
func (c *Client) NodeStatus(ctx context.Context) (NodeStatus, error) {
	st, err := c.rpc.Status(ctx)
	if err != nil {
		return NodeStatus{}, c.wrap(err)
	}
	return NodeStatus{ChainID: st.NodeInfo.Network, Height: st.SyncInfo.LatestBlockHeight, Time: st.SyncInfo.LatestBlockTime}, nil
}

// WaitHeight polls the node every poll until it has committed height h.
func (c *Client) WaitHeight(ctx context.Context, h int64, poll time.Duration) (NodeStatus, error) {
	for {
		st, err := c.NodeStatus(ctx)
		if err == nil && st.Height >= h {
			return st, nil
		}
		select {
		case <-ctx.Done():
			return NodeStatus{}, fmt.Errorf("node %s: waiting for height %d: %w (last error: %v)", c.addr, h, ctx.Err(), err)
		case <-time.After(poll):
		}
	}
}

// WaitAppHeight polls the app's status query every poll until the app has
// committed height h: its state then holds everything of block h, and
// CheckTx judges new transactions at h+1. (The node's /status, WaitHeight,
// may already show a block the app has not executed.)
func (c *Client) WaitAppHeight(ctx context.Context, h int64, poll time.Duration) (*wire.StatusView, error) {
	for {
		st, err := c.Status(ctx)
		if err == nil && st.Height >= h {
			return st, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("node %s: waiting for the app at height %d: %w (last error: %v)", c.addr, h, ctx.Err(), err)
		case <-time.After(poll):
		}
	}
}

// TxHash is the hash that identifies a transaction's bytes (hex, as in TxResult.Hash).
func TxHash(tx []byte) string { return strings.ToUpper(hex.EncodeToString(tmhash.Sum(tx))) }

// Broadcast hands tx to the mempool (broadcast_tx_sync) and returns CheckTx's
// result; a refusal is a *TxError, returned with the result.
func (c *Client) Broadcast(ctx context.Context, tx []byte) (TxResult, error) {
	res, err := c.rpc.BroadcastTxSync(ctx, tx)
	if err != nil {
		return TxResult{}, c.wrap(fmt.Errorf("broadcast: %w", err))
	}
	out := named(TxResult{Code: res.Code, Codespace: res.Codespace, Log: res.Log, Hash: res.Hash.String(), Data: res.Data})
	return out, txError(out)
}

// BroadcastCommit sends tx with broadcast_tx_commit: the result is CheckTx's
// when it refused the transaction, else the block's (height and events). A
// non-zero code is a *TxError, returned with the result.
func (c *Client) BroadcastCommit(ctx context.Context, tx []byte) (TxResult, error) {
	res, err := c.rpc.BroadcastTxCommit(ctx, tx)
	if err != nil {
		return TxResult{}, c.wrap(fmt.Errorf("broadcast: %w", err))
	}
	if res.CheckTx.Code != wire.CodeOK {
		out := named(TxResult{Code: res.CheckTx.Code, Codespace: res.CheckTx.Codespace, Log: res.CheckTx.Log, Hash: res.Hash.String(), Data: res.CheckTx.Data})
		return out, txError(out)
	}
	out := named(TxResult{Code: res.TxResult.Code, Codespace: res.TxResult.Codespace, Log: res.TxResult.Log,
		Hash: res.Hash.String(), Height: res.Height, Events: convertEvents(res.TxResult.Events)})
	return out, txError(out)
}

// Tx looks a committed transaction up by its hash (/tx). An error means not
// found (yet) or no answer, except a *TxError: the transaction was included
// and failed in its block (returned with the result).
func (c *Client) Tx(ctx context.Context, hash string) (TxResult, error) {
	h, err := hex.DecodeString(hash)
	if err != nil {
		return TxResult{}, fmt.Errorf("tx hash %q: not hex", hash)
	}
	res, err := c.rpc.Tx(ctx, h, false)
	if err != nil {
		return TxResult{}, c.wrap(err)
	}
	out := named(TxResult{Code: res.TxResult.Code, Codespace: res.TxResult.Codespace, Log: res.TxResult.Log,
		Hash: res.Hash.String(), Height: res.Height, Events: convertEvents(res.TxResult.Events)})
	return out, txError(out)
}

// WaitTx polls /tx until the transaction is included, for at most timeout.
// A transaction that failed in its block is a *TxError.
func (c *Client) WaitTx(ctx context.Context, hash string, timeout time.Duration) (TxResult, error) {
	return PollTx(ctx, hash, timeout, 100*time.Millisecond, c.Tx)
}

// PollTx calls lookup (a Client's Tx, or one that asks several nodes) every
// poll until it finds the transaction, for at most timeout. A *TxError from
// lookup is an answer: the transaction failed in its block.
func PollTx(ctx context.Context, hash string, timeout, poll time.Duration, lookup func(context.Context, string) (TxResult, error)) (TxResult, error) {
	deadline := time.Now().Add(timeout)
	var last error
	for {
		res, err := lookup(ctx, hash)
		var te *TxError
		if err == nil || errors.As(err, &te) {
			return res, err
		}
		last = err
		if !time.Now().Before(deadline) {
			return TxResult{}, fmt.Errorf("tx %s not committed within %s (last error: %v)", hash, timeout, last)
		}
		select {
		case <-ctx.Done():
			return TxResult{}, fmt.Errorf("tx %s not committed: %w", hash, ctx.Err())
		case <-time.After(poll):
		}
	}
}
