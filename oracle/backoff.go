package oracle

import (
	"context"
	"math/rand/v2"
	"time"
)

// backoff is the wait between retries of one failing step: it starts at
// Config.BackoffMin and doubles up to Config.BackoffMax; each wait is drawn
// uniformly from [d/2, d] (jitter), so that oracles that lost the same
// endpoint at the same moment do not call it again in step.
type backoff struct{ cur, max time.Duration }

func (o *Oracle) backoff() *backoff { return &backoff{cur: o.cfg.BackoffMin, max: o.cfg.BackoffMax} }

// next is the wait before the next attempt; the one after is twice as
// long, up to max.
func (b *backoff) next() time.Duration {
	d := b.cur
	b.cur = min(2*b.cur, b.max)
	if half := d / 2; half > 0 {
		return half + rand.N(half+1)
	}
	return d
}

// wait sleeps the next delay.
func (b *backoff) wait(ctx context.Context) error { return sleep(ctx, b.next()) }

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
