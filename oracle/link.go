package oracle

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// link is the health of one endpoint (the EVM endpoint, or the node the
// truths go to) as the log and the metrics see it: one line when it goes
// down, one when the kind of failure changes, one when it answers again;
// never one per attempt.
type link struct {
	name     string
	metric   string // the endpoint label of the metrics
	down     bool
	kind     ErrKind
	since    time.Time
	failures int
}

// fail records a failed call of what and logs when the state changed.
func (o *Oracle) fail(l *link, what string, err error) {
	kind := Kind(err)
	o.cfg.Metrics.rpcError(o.cfg.EvmChainID, l.metric, kind)
	l.failures++
	if l.down && l.kind == kind {
		return
	}
	if !l.down {
		l.since = time.Now()
	}
	l.down, l.kind = true, kind
	o.cfg.Metrics.up(o.cfg.EvmChainID, l.metric, false)
	o.cfg.Logf("oracle gas: %s down (%s): %s: %s; retrying with a backoff up to %s, quietly until its state changes",
		l.name, kind, what, oneLine(err), o.cfg.BackoffMax)
}

// ok records a call that answered and logs the recovery of an endpoint
// that was down.
func (o *Oracle) ok(l *link) {
	o.cfg.Metrics.up(o.cfg.EvmChainID, l.metric, true)
	if !l.down {
		return
	}
	o.cfg.Logf("oracle gas: %s up again after %d failed calls in %s", l.name, l.failures, time.Since(l.since).Round(time.Millisecond))
	l.down, l.kind, l.failures = false, "", 0
}

// note logs line when the state of topic changes; a topic's first state
// is logged only when it is not "ok" (all is well needs no line).
func (o *Oracle) note(topic, state string, line string, args ...any) {
	prev, seen := o.states[topic]
	o.states[topic] = state
	if (seen && prev == state) || (!seen && state == "ok") {
		return
	}
	o.cfg.Logf(line, args...)
}

func oneLine(err error) string {
	return strings.Join(strings.Fields(fmt.Sprint(err)), " ")
}

// retry runs f until it succeeds, ctx ends or it returns an ErrFatal,
// waiting a growing backoff between attempts. Failures and the recovery of
// l are logged as changes of its state, not per attempt. A recovery of the
// EVM endpoint checks its chain id again once it is known (an endpoint
// restarted on another chain is a wrong_chain failure, not a source of
// truths).
func (o *Oracle) retry(ctx context.Context, l *link, what string, f func() error) error {
	b := o.backoff()
	for {
		err := f()
		if err == nil && l == &o.evm && l.down && o.cfg.EvmChainID != 0 {
			err = o.sameChain(ctx)
		}
		if err == nil {
			o.ok(l)
			return nil
		}
		if errors.Is(err, ErrFatal) {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		o.fail(l, what, err)
		if l == &o.evm && o.running && o.pausedNow(ctx) {
			// an EVM chain whose endpoints are gone is what governance
			// pauses: its blocks are owed no more
			return errPaused
		}
		if err := b.wait(ctx); err != nil {
			return err
		}
	}
}

// retryTimed is retry of one call, each attempt within the RPC timeout.
func (o *Oracle) retryTimed(ctx context.Context, l *link, what string, f func(context.Context) error) error {
	return o.retry(ctx, l, what, func() error { return o.timed(ctx, f) })
}

// timed runs one call within the RPC timeout.
func (o *Oracle) timed(ctx context.Context, f func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, o.cfg.RPCTimeout)
	defer cancel()
	return f(ctx)
}
