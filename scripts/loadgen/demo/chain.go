package demo

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"time"

	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// txTimeout bounds the wait for one transaction's block.
const txTimeout = time.Minute

// chain is a node's RPC and the chain's id.
type chain struct {
	*client.Client
	id string
}

// connect waits until the node at addr has committed a block, then returns
// a client for it.
func connect(ctx context.Context, addr string) (*chain, error) {
	c, err := client.Dial(addr)
	if err != nil {
		return nil, err
	}
	st, err := c.WaitHeight(ctx, 1, 200*time.Millisecond)
	if err != nil {
		return nil, err
	}
	return &chain{Client: c, id: st.ChainID}, nil
}

// actor is one key that sends transactions; its Signer keeps the nonce, so
// an actor may have several transactions in the mempool at once. A miner's
// uid is set once it is registered (a commitment binds it).
type actor struct {
	name string
	s    *client.Signer
	c    *chain
	uid  uint32
}

func newActor(c *chain, name string, key ed25519.PrivateKey) *actor {
	return &actor{name: name, s: client.NewSigner(c, c.id, key), c: c}
}

// broadcast hands msg to the mempool; a transaction refused by CheckTx is an
// error. It returns the transaction's hash.
func (a *actor) broadcast(ctx context.Context, what string, msg *subnetv1.Msg) (string, error) {
	res, err := a.s.Send(ctx, msg)
	if err != nil {
		return "", fmt.Errorf("%s: %s: %w", a.name, what, err)
	}
	return res.Hash, nil
}

// wait waits until the transaction is committed; a transaction that failed
// in its block is an error naming the actor.
func (a *actor) wait(ctx context.Context, what, hash string) (client.TxResult, error) {
	res, err := a.c.WaitTx(ctx, hash, txTimeout)
	if err != nil {
		return client.TxResult{}, fmt.Errorf("%s: %s: %w", a.name, what, err)
	}
	return res, nil
}

// height is the node's last committed height.
func (c *chain) height(ctx context.Context) (int64, error) {
	st, err := c.NodeStatus(ctx)
	if err != nil {
		return 0, err
	}
	return st.Height, nil
}

// waitPast waits until height h is committed, so that a transaction sent
// next lands in a later block.
func (c *chain) waitPast(ctx context.Context, h int64) error {
	_, err := c.WaitHeight(ctx, h, 100*time.Millisecond)
	return err
}

// send broadcasts msgs in order and waits until each is committed.
func (a *actor) send(ctx context.Context, what string, msgs ...*subnetv1.Msg) ([]client.TxResult, error) {
	hashes := make([]string, len(msgs))
	for i, m := range msgs {
		h, err := a.broadcast(ctx, what, m)
		if err != nil {
			return nil, err
		}
		hashes[i] = h
	}
	out := make([]client.TxResult, len(msgs))
	for i, h := range hashes {
		res, err := a.wait(ctx, what, h)
		if err != nil {
			return nil, err
		}
		out[i] = res
	}
	return out, nil
}
