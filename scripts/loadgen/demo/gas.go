package demo

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// gasRounds drives the gas track. The validator first anchors the EVM chain
// with the truth of the block before the first predicted one (a chain takes
// commits only once a block of it is closed, and then only within
// max_prediction_ahead blocks of the last closed one). Then, one round per
// max_prediction_ahead blocks, every miner commits to its predictions of the
// round's blocks; once all commits are included, the validator reports their
// truths (EVM blocks "mined" 60 s of chain time later, 12 s apart, never
// before the last closed block's timestamp); once each truth is final
// (truth/<chain>/<block>), its reveal window opens in the next block and the
// miners reveal. After the last round it waits for the last window's end,
// where the agents are closed. It returns miner 0's first prediction.
func gasRounds(ctx context.Context, out io.Writer, p plan, val *actor, miners []*actor) (*commitment, error) {
	if p.gasBlocks == 0 {
		return nil, nil
	}
	c := val.c
	last, err := chainTime(ctx, c)
	if err != nil {
		return nil, err
	}
	if _, err := val.send(ctx, "anchor truth", truthMsg(p.gasChain, -1, last)); err != nil {
		return nil, err
	}
	var example *commitment
	var closeAt int64
	rounds := 0
	for from := 0; from < p.gasBlocks; from += p.gasAhead {
		to := min(from+p.gasAhead, p.gasBlocks)
		byMiner := make([][]*commitment, len(miners))
		jobs := make([]func() error, len(miners))
		for i, m := range miners {
			jobs[i] = func() error {
				var payloads []*subnetv1.MsgSubmit
				for b := from; b < to; b++ {
					payloads = append(payloads, gasPayload(p.gasChain, i, b))
				}
				cs, err := commit(ctx, m, payloads)
				byMiner[i] = cs
				return err
			}
		}
		if err := parallel(jobs); err != nil {
			return nil, err
		}
		now, err := chainTime(ctx, c)
		if err != nil {
			return nil, err
		}
		evmTime := max(now+60, last+12)
		var msgs []*subnetv1.Msg
		for b := from; b < to; b++ {
			last = evmTime + int64(12*(b-from))
			msgs = append(msgs, truthMsg(p.gasChain, b, last))
		}
		res, err := val.send(ctx, "truth", msgs...)
		if err != nil {
			return nil, err
		}
		w, err := revealWindow(ctx, c, p.gasChain, from, to)
		if err != nil {
			return nil, err
		}
		if err := c.waitPast(ctx, w.from-1); err != nil {
			return nil, err
		}
		jobs = make([]func() error, len(miners))
		for i, m := range miners {
			jobs[i] = func() error { return reveal(ctx, m, byMiner[i]) }
		}
		if err := parallel(jobs); err != nil {
			return nil, err
		}
		if rounds == 0 {
			example = byMiner[0][0]
			fmt.Fprintf(out, "gas round 1: miners committed to EVM blocks %d-%d at height %d; the truths were final at height %d; miners revealed at height %d (reveal window %d-%d; the agents close at its end)\n",
				gasFirstBlock+from, gasFirstBlock+to-1, example.commitHeight, res[len(res)-1].Height, example.revealHeight, w.from, w.until)
		}
		closeAt = max(closeAt, w.until)
		rounds++
	}
	if err := c.waitPast(ctx, closeAt+1); err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "miners committed and revealed %d gas predictions in %d rounds of up to %d EVM blocks; validator reported %d gas truths (the first anchors EVM chain %d)\n",
		len(miners)*p.gasBlocks, rounds, p.gasAhead, p.gasBlocks+1, p.gasChain)
	return example, nil
}

// window is a reveal window: the heights [from, until].
type window struct{ from, until int64 }

// revealWindow waits until the truths of the demo's EVM blocks from..to-1 are
// final and returns the heights at which all of their commits can be revealed.
func revealWindow(ctx context.Context, c *chain, chainID uint64, from, to int) (window, error) {
	var w window
	for b := from; b < to; b++ {
		var v wire.TruthRoundView
		path := fmt.Sprintf("truth/%d/%d", chainID, gasFirstBlock+b)
		for {
			if err := c.QueryInto(ctx, path, &v); err != nil {
				return w, err
			}
			if v.Status == "final" && v.RevealFrom != nil && v.RevealUntil != nil {
				break
			}
			if v.Status != "pending" {
				return w, fmt.Errorf("%s: truth round %s", path, v.Status)
			}
			select {
			case <-ctx.Done():
				return w, ctx.Err()
			case <-time.After(100 * time.Millisecond):
			}
		}
		w.from = max(w.from, *v.RevealFrom)
		w.until = minNonZero(w.until, *v.RevealUntil)
	}
	if w.from > w.until {
		return w, fmt.Errorf("the reveal windows of EVM blocks %d-%d do not overlap", gasFirstBlock+from, gasFirstBlock+to-1)
	}
	return w, nil
}

// chainTime is the block time (unix seconds) of the latest committed block.
func chainTime(ctx context.Context, c *chain) (int64, error) {
	st, err := c.NodeStatus(ctx)
	if err != nil {
		return 0, err
	}
	return st.Time.Unix(), nil
}
