package oracle

import (
	"context"
	"errors"
	"fmt"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
)

// resume finds the window size and the first window to report: after the
// chain's last closed one (or StartBlock's, when it is later), else
// StartBlock's, else the latest whole confirmed window.
func (o *Oracle) resume(ctx context.Context) (k, next uint64, err error) {
	var gc *wire.GasChainView
	err = o.retry(ctx, &o.node, "read the chain's last closed window", func() error {
		var err error
		gc, err = o.gasChain(ctx)
		var qe *client.QueryError
		if errors.As(err, &qe) {
			return fmt.Errorf("%w: %v", ErrFatal, err)
		}
		return err
	})
	if err != nil {
		return 0, 0, err
	}
	if gc, err = o.waitResumed(ctx, gc); err != nil {
		return 0, 0, err
	}
	k = max(gc.WindowBlocks, 1)
	switch {
	case gc.LastClosedBlock != nil:
		return k, o.afterLastClosed(*gc.LastClosedBlock, k), nil
	case o.cfg.HasStart:
		o.from = fmt.Sprintf("--start-block %d", o.cfg.StartBlock)
		return k, WindowOf(o.cfg.StartBlock, k).First, nil
	}
	head, err := o.head(ctx)
	if err != nil {
		return 0, 0, err
	}
	confirmed := head - min(head, o.cfg.Confirmations)
	w := WindowOf(confirmed, k)
	if w.Last() > confirmed && w.First >= k {
		w.First -= k
	}
	o.from = fmt.Sprintf("the latest confirmed window at EVM head %d", head)
	return k, w.First, nil
}

// afterLastClosed is the first window of a chain that has closed windows
// through block last: the next one, or StartBlock's when it is later (a
// StartBlock at or below last cannot be honoured: the chain refuses truths
// of closed windows, and a line says so).
func (o *Oracle) afterLastClosed(last, k uint64) uint64 {
	next := last + k
	o.from = fmt.Sprintf("the chain has closed EVM chain %d through block %d", o.cfg.EvmChainID, last)
	if !o.cfg.HasStart {
		return next
	}
	start := WindowOf(o.cfg.StartBlock, k).First
	if start <= next {
		if start < next {
			o.cfg.Logf("oracle gas: --start-block %d not used: %s, and takes no truth at or below it; starting at %s", o.cfg.StartBlock, o.from, Window{next, k})
		}
		return next
	}
	o.from = fmt.Sprintf("--start-block %d, past the chain's last closed block %d", o.cfg.StartBlock, last)
	o.cfg.Logf("oracle gas: starting at --start-block %d: the windows between the chain's last closed block %d and it are left to other validators' oracles", o.cfg.StartBlock, last)
	return start
}

// gasChain queries the chain's view of the EVM chain, within the RPC
// timeout.
func (o *Oracle) gasChain(ctx context.Context) (gc *wire.GasChainView, err error) {
	err = o.timed(ctx, func(ctx context.Context) error {
		gc, err = o.chain.GasChain(ctx, o.cfg.EvmChainID)
		return err
	})
	return gc, err
}
