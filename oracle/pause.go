package oracle

import (
	"context"
	"errors"
	"fmt"

	"github.com/scoringsubnet/validatord/app/wire"
)

// errPaused: the chain refused a truth because governance paused the EVM
// chain (code 80), or found it paused while the EVM endpoint failed. Run
// then waits for a resume (waitResumed) and starts again from the chain's
// next window.
var errPaused = errors.New("the EVM chain is paused by governance")

// waitResumed waits while governance keeps the EVM chain paused
// (chain.gas_paused: the chain takes no truth and owes none), reading the
// chain's state every Poll (a node that fails is retried with the backoff
// and logged as its state changes). One line when the pause is seen, one
// when the chain resumes. It returns the chain's view once the chain is
// no longer paused: a resume has closed it up to the window before its
// resume block, so its next window is where the oracle restarts.
func (o *Oracle) waitResumed(ctx context.Context, gc *wire.GasChainView) (*wire.GasChainView, error) {
	if !gc.Paused {
		return gc, nil
	}
	o.note("pause", "paused", "oracle gas: EVM chain %d is paused by governance (chain.gas_paused): the chain takes no truth for it and owes none; waiting for a params proposal to resume it, reading the chain every %s",
		o.cfg.EvmChainID, o.cfg.Poll)
	for gc.Paused {
		if err := sleep(ctx, o.cfg.Poll); err != nil {
			return nil, err
		}
		if err := o.retry(ctx, &o.node, "read the chain's state of the paused EVM chain", func() (err error) {
			gc, err = o.gasChain(ctx)
			return err
		}); err != nil {
			return nil, err
		}
	}
	at := ""
	if gc.ResumeBlock != nil {
		at = fmt.Sprintf(" at block %d", *gc.ResumeBlock)
	}
	o.note("pause", "ok", "oracle gas: EVM chain %d resumed%s: reporting again after the chain's last closed window", o.cfg.EvmChainID, at)
	return gc, nil
}

// nextOf is the chain's next window after its last closed one, else
// fallback (a chain never anchored).
func (o *Oracle) nextOf(gc *wire.GasChainView, fallback uint64) uint64 {
	if gc.LastClosedBlock == nil {
		return fallback
	}
	return *gc.LastClosedBlock + max(gc.WindowBlocks, 1)
}

// pausedNow reports whether the chain says the EVM chain is paused, in
// one query (a failure says no: the caller goes on as before).
func (o *Oracle) pausedNow(ctx context.Context) bool {
	gc, err := o.gasChain(ctx)
	return err == nil && gc.Paused
}

// afterPause waits for the resume of a paused chain and returns the window
// to report next: the chain's next one, or next when the chain has closed
// nothing.
func (o *Oracle) afterPause(ctx context.Context, next uint64) (uint64, error) {
	var gc *wire.GasChainView
	if err := o.retry(ctx, &o.node, "read the chain's state of the EVM chain", func() (err error) {
		gc, err = o.gasChain(ctx)
		return err
	}); err != nil {
		return 0, err
	}
	gc, err := o.waitResumed(ctx, gc)
	if err != nil {
		return 0, err
	}
	return o.nextOf(gc, next), nil
}
