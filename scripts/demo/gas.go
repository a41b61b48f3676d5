package main

import (
	"context"
	"fmt"
	"io"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// gasRounds drives the gas track. The validator first anchors the EVM chain
// with the truth of the block before the first predicted one (a chain takes
// predictions only once a block of it is closed, and then only within
// max_prediction_ahead blocks of the last closed one). Then, one round per
// max_prediction_ahead blocks, every miner predicts the round's blocks and,
// once all predictions are included, the validator reports their truths:
// EVM blocks "mined" 60 s of chain time later, 12 s apart, never before the
// last closed block's timestamp.
func gasRounds(ctx context.Context, out io.Writer, p plan, val *actor, miners []*actor) error {
	if p.gasBlocks == 0 {
		return nil
	}
	last, err := chainTime(ctx, val.c)
	if err != nil {
		return err
	}
	if _, err := val.send(ctx, "anchor truth", truthMsg(p.gasChain, -1, last)); err != nil {
		return err
	}
	rounds := 0
	for from := 0; from < p.gasBlocks; from += p.gasAhead {
		to := min(from+p.gasAhead, p.gasBlocks)
		jobs := make([]func() error, len(miners))
		for i, m := range miners {
			jobs[i] = func() error {
				var msgs []*subnetv1.Msg
				for b := from; b < to; b++ {
					msgs = append(msgs, gasPredictMsg(p.gasChain, i, b))
				}
				_, err := m.send(ctx, "submit gas", msgs...)
				return err
			}
		}
		if err := parallel(jobs); err != nil {
			return err
		}
		now, err := chainTime(ctx, val.c)
		if err != nil {
			return err
		}
		evmTime := max(now+60, last+12)
		var msgs []*subnetv1.Msg
		for b := from; b < to; b++ {
			last = evmTime + int64(12*(b-from))
			msgs = append(msgs, truthMsg(p.gasChain, b, last))
		}
		if _, err := val.send(ctx, "truth", msgs...); err != nil {
			return err
		}
		rounds++
	}
	fmt.Fprintf(out, "miners sent %d gas predictions in %d rounds of up to %d EVM blocks; validator reported %d gas truths (the first anchors EVM chain %d)\n",
		len(miners)*p.gasBlocks, rounds, p.gasAhead, p.gasBlocks+1, p.gasChain)
	return nil
}

// chainTime is the block time (unix seconds) of the latest committed block.
func chainTime(ctx context.Context, c *chain) (int64, error) {
	st, err := c.NodeStatus(ctx)
	if err != nil {
		return 0, err
	}
	return st.Time.Unix(), nil
}
