package rounds

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
)

// pool is a client of every node; a call goes to the next node in turn and, when that
// node does not answer, to the following ones. It is the client.Node of the actors'
// signers, so the load survives nodes being killed.
type pool struct {
	addrs   []string
	clients []*client.Client
	next    atomic.Uint64
}

func newPool(addrs []string) (*pool, error) {
	p := &pool{addrs: addrs}
	for _, a := range addrs {
		c, err := client.Dial(a)
		if err != nil {
			return nil, err
		}
		p.clients = append(p.clients, c)
	}
	return p, nil
}

// do runs f against the nodes in turn until one answers; the error is the last node's.
func (p *pool) do(ctx context.Context, f func(c *client.Client) error) error {
	return p.doFrom(ctx, p.next.Add(1), f)
}

// doFrom is do starting at node start (modulo the number of nodes).
func (p *pool) doFrom(ctx context.Context, start uint64, f func(c *client.Client) error) error {
	var errs []error
	for i := range p.clients {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		j := int((start + uint64(i)) % uint64(len(p.clients)))
		err := f(p.clients[j])
		if err == nil {
			return nil
		}
		errs = append(errs, fmt.Errorf("%s: %w", p.addrs[j], err))
	}
	return errors.Join(errs...)
}

// NextNonce asks a live node for the account's next nonce (0 for an unknown account).
func (p *pool) NextNonce(ctx context.Context, pub ed25519.PublicKey) (uint64, error) {
	var n uint64
	err := p.do(ctx, func(c *client.Client) error {
		var err error
		n, err = c.NextNonce(ctx, pub)
		var qe *client.QueryError
		if errors.As(err, &qe) && qe.Code == wire.QueryNotFound {
			n, err = 0, nil // a chain not initialised yet: no account has sent anything
		}
		return err
	})
	return n, err
}

// CommittedNonce asks a live node for the account's committed next nonce (client.Tracker:
// with Height, what lets the actors' signers find and resend their lost transactions).
func (p *pool) CommittedNonce(ctx context.Context, pub ed25519.PublicKey) (uint64, error) {
	var n uint64
	err := p.do(ctx, func(c *client.Client) error {
		var err error
		n, err = c.CommittedNonce(ctx, pub)
		var qe *client.QueryError
		if errors.As(err, &qe) && qe.Code == wire.QueryNotFound {
			n, err = 0, nil
		}
		return err
	})
	return n, err
}

// answered calls f on the nodes in turn with a per-node timeout; a *client.TxError is an
// answer (the app refused the transaction), not a node that failed.
func (p *pool) answered(ctx context.Context, per time.Duration, f func(ctx context.Context, c *client.Client) (client.TxResult, error)) (client.TxResult, error) {
	return p.answeredFrom(ctx, p.next.Add(1), per, f)
}

// answeredFrom is answered starting at node start.
func (p *pool) answeredFrom(ctx context.Context, start uint64, per time.Duration, f func(ctx context.Context, c *client.Client) (client.TxResult, error)) (client.TxResult, error) {
	var res client.TxResult
	var verdict error
	err := p.doFrom(ctx, start, func(c *client.Client) error {
		cctx, cancel := context.WithTimeout(ctx, per)
		defer cancel()
		r, err := f(cctx, c)
		var te *client.TxError
		if err != nil && !errors.As(err, &te) {
			return err
		}
		res, verdict = r, err
		return nil
	})
	if err != nil {
		return client.TxResult{}, err
	}
	return res, verdict
}

// Broadcast sends tx with broadcast_tx_sync to the first node that answers.
func (p *pool) Broadcast(ctx context.Context, tx []byte) (client.TxResult, error) {
	return p.answered(ctx, 5*time.Second, func(ctx context.Context, c *client.Client) (client.TxResult, error) {
		return c.Broadcast(ctx, tx)
	})
}

// WaitTx polls the nodes' /tx until one returns the transaction, for at most timeout.
func (p *pool) WaitTx(ctx context.Context, hash string, timeout time.Duration) (client.TxResult, error) {
	return client.PollTx(ctx, hash, timeout, 200*time.Millisecond, func(ctx context.Context, hash string) (client.TxResult, error) {
		return p.answered(ctx, 2*time.Second, func(ctx context.Context, c *client.Client) (client.TxResult, error) {
			return c.Tx(ctx, hash)
		})
	})
}

// Height is the last committed height of a live node.
func (p *pool) Height(ctx context.Context) (int64, error) {
	var h int64
	err := p.do(ctx, func(c *client.Client) error {
		st, err := c.NodeStatus(ctx)
		h = st.Height
		return err
	})
	return h, err
}

// pinned is the pool as a client.Node that broadcasts to one node first (the next ones only
// when it does not answer). A key that keeps several transactions in the mempool at once
// must: a node that has not yet seen nonce n refuses n+1 as a gap (code 8).
type pinned struct {
	*pool
	home uint64
}

// Broadcast sends tx with broadcast_tx_sync to the pinned node, or the next one that answers.
func (p pinned) Broadcast(ctx context.Context, tx []byte) (client.TxResult, error) {
	return p.answeredFrom(ctx, p.home, 5*time.Second, func(ctx context.Context, c *client.Client) (client.TxResult, error) {
		return c.Broadcast(ctx, tx)
	})
}

// query asks the nodes in turn for path and decodes the first answer into v. A node that has
// nothing there (it may lag behind the others) passes the question on; found is false when
// every node that answered had nothing.
func (p *pool) query(ctx context.Context, path string, v any) (found bool, err error) {
	notFound := false
	err = p.do(ctx, func(c *client.Client) error {
		err := c.QueryInto(ctx, path, v)
		var qe *client.QueryError
		if errors.As(err, &qe) && qe.Code == wire.QueryNotFound {
			notFound = true
		}
		return err
	})
	switch {
	case err == nil:
		return true, nil
	case notFound && ctx.Err() == nil:
		return false, nil
	}
	return false, err
}

// Registration asks the nodes in turn what a registration pays (client.RegistrationSource).
func (p *pool) Registration(ctx context.Context) (*wire.RegistrationView, error) {
	v := &wire.RegistrationView{}
	if _, err := p.query(ctx, "registration", v); err != nil {
		return nil, err
	}
	return v, nil
}
