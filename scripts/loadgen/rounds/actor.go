package rounds

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"sync"
	"time"

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

// actor is one signing key; it sends one transaction at a time (a miner's round and its
// revealer take turns). Its signer keeps the nonce and re-reads it from the chain when unsure
// of it.
type actor struct {
	name    string
	key     ed25519.PrivateKey
	s       *client.Signer
	limit   *limiter
	rec     *recorder
	timeout time.Duration

	mu sync.Mutex // held through one send and its wait
}

func newActor(name string, node client.Node, chainID string, key ed25519.PrivateKey, limit *limiter, rec *recorder, timeout time.Duration) *actor {
	s := client.NewSigner(node, chainID, key)
	s.LostAfter = rec.lostAfter
	s.OnRecover = rec.recovered
	return &actor{name: name, key: key, s: s, limit: limit, rec: rec, timeout: timeout}
}

// rejection is a transaction the app refused, with its code; it wraps errRejected.
type rejection struct {
	code uint32
	msg  string
}

func (r *rejection) Error() string { return fmt.Sprintf("%v: code %d: %s", errRejected, r.code, r.msg) }
func (r *rejection) Unwrap() error { return errRejected }

// refusedWith is the code of a rejection, and whether err is one.
func refusedWith(err error) (uint32, bool) {
	var rej *rejection
	if errors.As(err, &rej) {
		return rej.code, true
	}
	return 0, false
}

// send signs msg, broadcasts it to a live node and waits until a node returns it from /tx.
// Every broadcast (a retry after a nonce error too) waits for the rate limiter.
func (a *actor) send(ctx context.Context, kind string, msg *subnetv1.Msg) (client.TxResult, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.s.BeforeBroadcast = func(ctx context.Context) error {
		if err := a.limit.wait(ctx); err != nil {
			return err
		}
		a.rec.sent(kind)
		return nil
	}
	res, err := a.s.SendWait(ctx, msg, a.timeout)
	var te *client.TxError
	switch {
	case err == nil:
		return res, nil
	case errors.As(err, &te):
		a.rec.rejected(kind, te.Code)
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
