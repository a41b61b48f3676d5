package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/cometbft/cometbft/crypto/tmhash"
	rpchttp "github.com/cometbft/cometbft/rpc/client/http"
	ctypes "github.com/cometbft/cometbft/rpc/core/types"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Outcomes of one send that are not a committed transaction.
var (
	// errRejected: CheckTx or the block refused the transaction (the app said why).
	errRejected = errors.New("rejected")
	// errUncertain: no node confirmed the transaction in time; it may still be committed.
	errUncertain = errors.New("not confirmed in time")
)

// actor is one signing key; it sends one transaction at a time (the app accepts only the
// account's next nonce) and learns its nonce from the chain when unsure of it.
type actor struct {
	name   string
	key    ed25519.PrivateKey
	nonce  uint64
	synced bool
	g      *generator
	// registered: a miner known to hold a uid.
	registered bool
}

// rejection is a transaction the app refused, with its code; it wraps errRejected.
type rejection struct {
	code uint32
	msg  string
}

func (r *rejection) Error() string { return fmt.Sprintf("%v: code %d: %s", errRejected, r.code, r.msg) }
func (r *rejection) Unwrap() error { return errRejected }

func (a *actor) pub() ed25519.PublicKey { return a.key.Public().(ed25519.PublicKey) }

// send signs msg, broadcasts it to a live node and waits until a node returns it from /tx.
// A nonce refused as used or future makes the actor re-read its nonce and try again.
func (a *actor) send(ctx context.Context, kind string, msg *subnetv1.Msg) (*ctypes.ResultTx, error) {
	for attempt := 0; attempt < 3; attempt++ {
		if !a.synced {
			n, err := a.g.nextNonce(ctx, a.pub())
			if err != nil {
				return nil, fmt.Errorf("%s: %w: nonce: %v", a.name, errUncertain, err)
			}
			a.nonce, a.synced = n, true
		}
		if err := a.g.limit.wait(ctx); err != nil {
			return nil, err
		}
		tx, err := wire.SignTx(a.g.net.chainID, a.key, a.nonce, msg)
		if err != nil {
			return nil, err
		}
		a.g.rec.sent(kind)
		code, log, err := a.g.broadcast(ctx, tx)
		if err != nil {
			a.synced = false
			return nil, fmt.Errorf("%s: %s: %w: %v", a.name, kind, errUncertain, err)
		}
		if code == wire.CodeNonceUsed || code == wire.CodeNonceFuture {
			a.synced = false
			continue
		}
		if code != 0 {
			a.g.rec.rejected(kind, code)
			return nil, fmt.Errorf("%s: %s: %w", a.name, kind, &rejection{code: code, msg: log})
		}
		res, err := a.g.waitTx(ctx, tmhash.Sum(tx))
		if err != nil {
			a.synced = false
			return nil, fmt.Errorf("%s: %s: %w: %v", a.name, kind, errUncertain, err)
		}
		a.nonce++
		if res.TxResult.Code != 0 {
			a.g.rec.rejected(kind, res.TxResult.Code)
			return nil, fmt.Errorf("%s: %s: in block %d: %w", a.name, kind, res.Height, &rejection{code: res.TxResult.Code, msg: res.TxResult.Log})
		}
		return res, nil
	}
	return nil, fmt.Errorf("%s: %s: %w: nonce kept changing", a.name, kind, errUncertain)
}

// broadcast sends tx with broadcast_tx_sync to the first node that answers.
func (g *generator) broadcast(ctx context.Context, tx []byte) (uint32, string, error) {
	var code uint32
	var log string
	err := g.pool.do(ctx, func(c *rpchttp.HTTP) error {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		res, err := c.BroadcastTxSync(cctx, tx)
		if err != nil {
			return err
		}
		code, log = res.Code, res.Log
		return nil
	})
	return code, log, err
}

// waitTx polls the nodes' /tx until one returns the transaction, for at most the
// configured timeout.
func (g *generator) waitTx(ctx context.Context, hash []byte) (*ctypes.ResultTx, error) {
	deadline := time.Now().Add(g.o.timeout)
	for time.Now().Before(deadline) {
		var res *ctypes.ResultTx
		err := g.pool.do(ctx, func(c *rpchttp.HTTP) error {
			cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			defer cancel()
			r, err := c.Tx(cctx, hash, false)
			res = r
			return err
		})
		if err == nil && res != nil {
			return res, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return nil, fmt.Errorf("tx %X not found on any node within %s", hash, g.o.timeout)
}

// attrU64 returns the unsigned integer attribute key of the first event typ.
func attrU64(res *abcitypes.ExecTxResult, typ, key string) (uint64, error) {
	for _, e := range res.Events {
		if e.Type != typ {
			continue
		}
		for _, a := range e.Attributes {
			if a.Key == key {
				return strconv.ParseUint(a.Value, 10, 64)
			}
		}
	}
	return 0, fmt.Errorf("no %s.%s in the result's events", typ, key)
}
