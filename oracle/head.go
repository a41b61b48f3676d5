package oracle

import (
	"context"
	"time"
)

// head reads the EVM head, retrying until it answers.
func (o *Oracle) head(ctx context.Context) (uint64, error) {
	var head uint64
	err := o.retryTimed(ctx, &o.evm, "read the EVM head", func(ctx context.Context) (err error) {
		head, err = o.src.Head(ctx)
		return err
	})
	if err == nil {
		o.cfg.Metrics.head(o.cfg.EvmChainID, head, o.lastDone)
		o.watchHead(head)
	}
	return head, err
}

// watchHead notes a head that has not moved for HeadStill, and its moving
// again.
func (o *Oracle) watchHead(head uint64) {
	now := time.Now()
	if o.seenHeadAt.IsZero() || head != o.seenHead {
		if o.states["still"] == "still" {
			o.note("still", "ok", "oracle gas: EVM head moving again: %d (it stayed at %d for %s)", head, o.seenHead, now.Sub(o.seenHeadAt).Round(time.Second))
		}
		o.seenHead, o.seenHeadAt = head, now
		return
	}
	if now.Sub(o.seenHeadAt) >= o.cfg.HeadStill {
		o.note("still", "still", "oracle gas: EVM head still at %d after %s: a halted or paused chain, a dev chain that mines only on demand, or an endpoint stuck on an old block", head, o.cfg.HeadStill)
	}
}

// waitConfirmed waits until the window's last block is Confirmations deep
// and returns the head it saw. A head below the window (an endpoint still
// syncing, a dev chain that was reset) gets one line, and one when it
// reaches the window.
func (o *Oracle) waitConfirmed(ctx context.Context, w Window) (uint64, error) {
	for {
		head, err := o.head(ctx)
		if err != nil {
			return 0, err
		}
		if head+1 < w.First {
			o.note("head", "behind", "oracle gas: EVM head %d is below %s, the next window to report (%s): waiting for the endpoint to reach it (is it still syncing, or a chain that was reset?)", head, w, o.from)
		} else {
			o.note("head", "ok", "oracle gas: EVM head %d reached %s: reporting again", head, w)
		}
		if head >= w.Last() && head-w.Last() >= o.cfg.Confirmations {
			return head, nil
		}
		if err := sleep(ctx, o.cfg.Poll); err != nil {
			return 0, err
		}
	}
}
