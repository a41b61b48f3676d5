package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	rpchttp "github.com/cometbft/cometbft/rpc/client/http"
)

// QueryError is a query that the app answered with a non-zero code.
type QueryError struct {
	Path string
	Code uint32
	Log  string
}

func (e *QueryError) Error() string {
	return fmt.Sprintf("query %s: code %d: %s", e.Path, e.Code, e.Log)
}

// rpcClient talks to one node's CometBFT RPC.
type rpcClient struct {
	addr string
	c    *rpchttp.HTTP
}

// dialRPC makes a client for addr (tcp://host:port or http://host:port).
// Nothing is sent until the first call.
func dialRPC(addr string) (*rpcClient, error) {
	if !strings.Contains(addr, "://") {
		return nil, fmt.Errorf("--node: %q, want an address with its scheme, e.g. tcp://%s", addr, addr)
	}
	c, err := rpchttp.New(addr, "/websocket")
	if err != nil {
		return nil, fmt.Errorf("node %s: %w", addr, err)
	}
	return &rpcClient{addr: addr, c: c}, nil
}

// query runs an ABCI query through /abci_query and returns the app's answer.
func (r *rpcClient) query(ctx context.Context, path string) ([]byte, error) {
	res, err := r.c.ABCIQuery(ctx, path, nil)
	if err != nil {
		return nil, oneLine(fmt.Errorf("node %s: %w", r.addr, err))
	}
	if res.Response.Code != 0 {
		return nil, &QueryError{Path: path, Code: res.Response.Code, Log: strings.TrimSpace(res.Response.Log)}
	}
	return res.Response.Value, nil
}

// chainID asks the node for its chain id.
func (r *rpcClient) chainID(ctx context.Context) (string, error) {
	st, err := r.c.Status(ctx)
	if err != nil {
		return "", oneLine(fmt.Errorf("node %s: %w", r.addr, err))
	}
	return st.NodeInfo.Network, nil
}

// nextNonce asks the app for the account's next nonce (0 for a new account).
func (r *rpcClient) nextNonce(ctx context.Context, pub []byte) (uint64, error) {
	path := "account/" + hex.EncodeToString(pub)
	bz, err := r.query(ctx, path)
	if err != nil {
		return 0, err
	}
	var acc struct {
		NextNonce *uint64 `json:"next_nonce"`
	}
	if err := json.Unmarshal(bz, &acc); err != nil || acc.NextNonce == nil {
		return 0, fmt.Errorf("query %s: no next_nonce in %s", path, bz)
	}
	return *acc.NextNonce, nil
}

// latestHeight asks the node for its last committed height.
func (r *rpcClient) latestHeight(ctx context.Context) (int64, error) {
	st, err := r.c.Status(ctx)
	if err != nil {
		return 0, oneLine(fmt.Errorf("node %s: %w", r.addr, err))
	}
	return st.SyncInfo.LatestBlockHeight, nil
}

// txResult is what tx prints: the outcome of CheckTx, or of the block when
// the command waited for the commit.
type txResult struct {
	Code      uint32    `json:"code"`
	Codespace string    `json:"codespace,omitempty"`
	Log       string    `json:"log"`
	Hash      string    `json:"hash"`
	Height    int64     `json:"height,omitempty"`
	Events    []txEvent `json:"events,omitempty"`
}

// txEvent is an ABCI event with its attributes in emitted order.
type txEvent struct {
	Type       string        `json:"type"`
	Attributes []txAttribute `json:"attributes"`
}

type txAttribute struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Attr returns the value of the first attribute key of the first event typ.
func (r txResult) Attr(typ, key string) (string, bool) {
	for _, e := range r.Events {
		if e.Type != typ {
			continue
		}
		for _, a := range e.Attributes {
			if a.Key == key {
				return a.Value, true
			}
		}
	}
	return "", false
}

// broadcast sends tx with broadcast_tx_sync, or with broadcast_tx_commit
// when wait is set (then the result is the block's).
func (r *rpcClient) broadcast(ctx context.Context, tx []byte, wait bool) (txResult, error) {
	if !wait {
		res, err := r.c.BroadcastTxSync(ctx, tx)
		if err != nil {
			return txResult{}, oneLine(fmt.Errorf("node %s: broadcast: %w", r.addr, err))
		}
		return txResult{Code: res.Code, Codespace: res.Codespace, Log: res.Log, Hash: res.Hash.String()}, nil
	}
	res, err := r.c.BroadcastTxCommit(ctx, tx)
	if err != nil {
		return txResult{}, oneLine(fmt.Errorf("node %s: broadcast: %w", r.addr, err))
	}
	if res.CheckTx.Code != 0 {
		return txResult{Code: res.CheckTx.Code, Codespace: res.CheckTx.Codespace, Log: res.CheckTx.Log, Hash: res.Hash.String()}, nil
	}
	out := txResult{Code: res.TxResult.Code, Codespace: res.TxResult.Codespace, Log: res.TxResult.Log, Hash: res.Hash.String(), Height: res.Height}
	out.Events = convertEvents(res.TxResult.Events)
	return out, nil
}

func convertEvents(evs []abcitypes.Event) []txEvent {
	out := make([]txEvent, 0, len(evs))
	for _, e := range evs {
		te := txEvent{Type: e.Type, Attributes: make([]txAttribute, 0, len(e.Attributes))}
		for _, a := range e.Attributes {
			te.Attributes = append(te.Attributes, txAttribute{Key: a.Key, Value: a.Value})
		}
		out = append(out, te)
	}
	return out
}

// prettyJSON re-indents a JSON answer; a non-JSON answer is an error.
func prettyJSON(bz []byte) ([]byte, error) {
	var v json.RawMessage
	if err := json.Unmarshal(bz, &v); err != nil {
		return nil, fmt.Errorf("answer is not JSON (%d bytes, %s...)", len(bz), hex.EncodeToString(bz[:min(len(bz), 16)]))
	}
	return json.MarshalIndent(v, "", "  ")
}
