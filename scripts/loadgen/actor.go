package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Outcomes of one send that are not a committed transaction.
var (
	// errRejected: CheckTx or the block refused the transaction (the app said why).
	errRejected = errors.New("rejected")
	// errUncertain: no node confirmed the transaction in time; it may still be committed.
	errUncertain = errors.New("not confirmed in time")
)

// actor is one signing key; it sends one transaction at a time. Its signer keeps the
// nonce and re-reads it from the chain when unsure of it.
type actor struct {
	name string
	s    *client.Signer
	g    *generator
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

// send signs msg, broadcasts it to a live node and waits until a node returns it from /tx.
// Every broadcast (a retry after a nonce error too) waits for the rate limiter.
func (a *actor) send(ctx context.Context, kind string, msg *subnetv1.Msg) (client.TxResult, error) {
	a.s.BeforeBroadcast = func(ctx context.Context) error {
		if err := a.g.limit.wait(ctx); err != nil {
			return err
		}
		a.g.rec.sent(kind)
		return nil
	}
	res, err := a.s.SendWait(ctx, msg, a.g.o.timeout)
	var te *client.TxError
	switch {
	case err == nil:
		return res, nil
	case errors.As(err, &te):
		a.g.rec.rejected(kind, te.Code)
		rej := &rejection{code: te.Code, msg: te.Log}
		if te.Result.Height > 0 {
			return client.TxResult{}, fmt.Errorf("%s: %s: in block %d: %w", a.name, kind, te.Result.Height, rej)
		}
		return client.TxResult{}, fmt.Errorf("%s: %s: %w", a.name, kind, rej)
	case ctx.Err() != nil:
		return client.TxResult{}, ctx.Err()
	default:
		return client.TxResult{}, fmt.Errorf("%s: %s: %w: %v", a.name, kind, errUncertain, err)
	}
}
