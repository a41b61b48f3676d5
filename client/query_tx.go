package client

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/scoringsubnet/validatord/app/wire"
)

// TxInfo is a committed transaction as `validatord query tx` shows it: its
// result (code with its name, log, events), its decoded envelope (sender,
// nonce, chain id, the message as JSON) and what it created.
type TxInfo struct {
	// Hash is CometBFT's: upper-case hex.
	Hash     string `json:"hash"`
	Height   int64  `json:"height"`
	Code     uint32 `json:"code"`
	CodeName string `json:"code_name"`
	Log      string `json:"log"`
	ChainID  string `json:"chain_id"`
	// Sender is the signing key, lower-case hex (app-level bytes).
	Sender string `json:"sender"`
	Nonce  uint64 `json:"nonce"`
	// Msg is the message, {"<kind>": {...}} as in tx.proto's Msg oneof,
	// its bytes in lower-case hex.
	Msg     json.RawMessage `json:"msg"`
	Events  []Event         `json:"events"`
	Created Created         `json:"created"`
}

// Created are the ids a transaction's events say it created (nil where it
// created none of that kind).
type Created struct {
	SubmissionID *uint64 `json:"submission_id"`
	TaskID       *uint64 `json:"task_id"`
	UID          *uint64 `json:"uid"`
	ProposalID   *uint64 `json:"proposal_id"`
}

// TxInfo looks a committed transaction up by its hash (/tx; hex of either
// case) and decodes it. A transaction that failed in its block is an
// answer, not an error: its Code and CodeName say why.
func (c *Client) TxInfo(ctx context.Context, hash string) (*TxInfo, error) {
	h, err := hex.DecodeString(strings.TrimPrefix(strings.TrimPrefix(hash, "0x"), "0X"))
	if err != nil || len(h) != 32 {
		return nil, fmt.Errorf("tx hash %q: want 64 hex digits (as `validatord tx` prints it)", hash)
	}
	res, err := c.rpc.Tx(ctx, h, false)
	if err != nil {
		return nil, c.wrap(err)
	}
	out := &TxInfo{Hash: strings.ToUpper(hex.EncodeToString(h)), Height: res.Height, Code: res.TxResult.Code,
		CodeName: wire.CodeName(res.TxResult.Code), Log: res.TxResult.Log, Events: convertEvents(res.TxResult.Events)}
	d, terr := wire.DecodeTx(res.Tx)
	if terr != nil {
		return nil, fmt.Errorf("tx %s: %w", out.Hash, terr)
	}
	out.ChainID, out.Sender, out.Nonce = d.Body.ChainId, hex.EncodeToString(d.Body.Sender), d.Body.Nonce
	if d.Body.Msg != nil {
		if out.Msg, err = wire.MessageJSON(d.Body.Msg); err != nil {
			return nil, fmt.Errorf("tx %s: message: %w", out.Hash, err)
		}
	}
	out.Created = createdBy(TxResult{Events: out.Events})
	return out, nil
}

// createdBy reads the ids a result's events carry.
func createdBy(r TxResult) Created {
	id := func(typ, key string) *uint64 {
		v, ok := r.Attr(typ, key)
		if !ok {
			return nil
		}
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return nil
		}
		return &n
	}
	return Created{SubmissionID: id(wire.EventSubmissionAdded, "submission_id"), TaskID: id(wire.EventTaskPosted, "task_id"),
		UID: id(wire.EventMinerRegistered, "uid"), ProposalID: id(wire.EventProposalSubmitted, "proposal_id")}
}
