package main

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	rpchttp "github.com/cometbft/cometbft/rpc/client/http"
)

// pool is the RPC clients of every node; a call goes to the next node in turn and, when that
// node does not answer, to the following ones.
type pool struct {
	addrs   []string
	clients []*rpchttp.HTTP
	next    atomic.Uint64
}

func newPool(addrs []string) (*pool, error) {
	p := &pool{addrs: addrs}
	for _, a := range addrs {
		c, err := rpchttp.New(a, "/websocket")
		if err != nil {
			return nil, fmt.Errorf("node %s: %w", a, err)
		}
		p.clients = append(p.clients, c)
	}
	return p, nil
}

// do runs f against the nodes in turn until one answers; the error is the last node's.
func (p *pool) do(ctx context.Context, f func(c *rpchttp.HTTP) error) error {
	start := p.next.Add(1)
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
