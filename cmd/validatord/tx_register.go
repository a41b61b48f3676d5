package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/scoringsubnet/validatord/client"
)

// defineRegisterMiner is `tx register-miner`: it finds the registration's
// proof of work against the node's newest block hash
// (client.RegisterWork), printing a progress line to stderr, then signs and
// sends the registration and prints its result.
func defineRegisterMiner(*flag.FlagSet) txFlow {
	return func(ctx context.Context, open func() (*txSession, error), wait bool) (any, error) {
		s, err := open()
		if err != nil {
			return nil, err
		}
		msg, err := client.RegisterWork(ctx, s.node, s.chainID, s.pub, workProgress(s.stderr))
		if err != nil {
			return nil, err
		}
		return s.send(ctx, msg, wait)
	}
}

// workProgress prints one line per slice of the search to w (nil: none).
func workProgress(w io.Writer) func(client.WorkProgress) {
	if w == nil {
		return nil
	}
	return func(p client.WorkProgress) {
		fmt.Fprintf(w, "register-miner: %d tries (difficulty %d: %d expected), bound to block %d\n", p.Tries, p.Difficulty, p.Difficulty, p.WorkHeight)
	}
}
