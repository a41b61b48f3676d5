package oracle

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// A backlog of windows — the oracle catching up after a pause, a restart,
// a node that was down, or a quiet EVM chain whose empty windows it reads
// faster than one truth a block — goes to the chain in batches: the truths
// of up to Config.BatchWindows confirmed windows in one MsgTruthBatch,
// whose entries the chain checks and applies one by one exactly as single
// truths (docs/commit-reveal.md §13). One transaction then carries what
// took one per window, and per validator: a quiet chain's 300 empty
// windows are 5 transactions at 64 a batch, not 300 blocks of one truth.

// DefaultBatchWindows is `validatord oracle gas`'s --batch-windows
// default: 64 truths are about 2.5 KB, far below the default max_tx_bytes
// (16 KiB), and a fourth of wire.MaxBatch.
const DefaultBatchWindows = 64

// txEnvelopeBytes bounds what a signed transaction adds to its message:
// the signature (64 bytes), the sender key (32), the nonce, a chain id of
// at most 50 characters (CometBFT's limit) and their field tags.
const txEnvelopeBytes = 256

// ready is how many windows from w on, w included, are confirmed at head,
// at most Config.BatchWindows (w itself is).
func (o *Oracle) ready(head uint64, w Window) int {
	if o.cfg.BatchWindows <= 1 || head < o.cfg.Confirmations || head-o.cfg.Confirmations < w.Last() {
		return 1
	}
	top := head - o.cfg.Confirmations // the last confirmed block
	return int(min((top-w.First+1)/w.K, uint64(o.cfg.BatchWindows)))
}

// windows reads the n confirmed windows from w on and reports them in one
// batch (one window alone as a single truth), then rechecks the open
// truths; it returns the next window's first block. A window whose first
// block is not the child of the last block read before it (a reorg while
// reading) ends the batch: the next call reads it again.
func (o *Oracle) windows(ctx context.Context, w Window, n int, head uint64) (uint64, error) {
	var truths []Truth
	var blocks [][]Block
	for i := range n {
		t, bs, err := o.readWindow(ctx, Window{First: w.First + uint64(i)*w.K, K: w.K})
		if err != nil {
			return 0, err
		}
		if i == 0 {
			o.checkReorg(ctx, bs)
		} else if prev := blocks[i-1]; bs[0].ParentHash != prev[len(prev)-1].Hash {
			break
		}
		truths, blocks = append(truths, t), append(blocks, bs)
	}
	truths = o.fit(truths)
	if len(truths) == 1 {
		return o.one(ctx, truths[0], blocks[0], head)
	}
	reports, after, err := o.reportBatch(ctx, truths)
	for i, r := range reports {
		r.Head = head
		o.reported1(r, blocks[i])
	}
	if err != nil {
		return 0, err
	}
	return after, o.recheck(ctx)
}

// fit keeps the first truths whose batch, signed, fits the chain's
// max_tx_bytes (the default's before the params were read).
func (o *Oracle) fit(truths []Truth) []Truth {
	limit := o.maxTxBytes
	if limit <= 0 {
		limit = genesis.DefaultChainParams().MaxTxBytes
	}
	size := int64(txEnvelopeBytes + 8) // with the batch's own tags and length
	for i, t := range truths {
		// an entry: its bytes, its tag and a length of at most 2 bytes
		if size += int64(o.truthMsg(t).GetTruth().Size() + 3); size > limit && i > 0 {
			return truths[:i]
		}
	}
	return truths
}

// reportBatch sends the truths of two or more consecutive windows in one
// MsgTruthBatch until the chain answers (a failed send is retried after a
// backoff, as a single truth's is) and returns the reports of the windows
// its answer decides, in order, and the first block of the window to report
// next. When the chain refused every entry, the first window goes on as a
// single truth (its refusal decides it, or it waits for the chain) and the
// next call batches the windows after it again.
func (o *Oracle) reportBatch(ctx context.Context, truths []Truth) ([]Report, uint64, error) {
	msgs := make([]*subnetv1.Msg, len(truths))
	for i, t := range truths {
		msgs[i] = o.truthMsg(t)
	}
	msg, err := client.TruthBatch(msgs...)
	if err != nil {
		// consecutive windows, at most wire.MaxBatch of them: never
		return nil, 0, fmt.Errorf("%w: truth batch: %v", ErrFatal, err)
	}
	what := fmt.Sprintf("%s to %s (%d windows in one transaction)", truths[0].Window, truths[len(truths)-1].Window, len(truths))
	b := o.backoff()
	for attempts := 1; ; attempts++ {
		res, err := o.send(ctx, msg)
		var te *client.TxError
		switch {
		case err == nil:
			o.ok(&o.node)
			o.note("chain", "ok", "oracle gas: %s: the chain took the batch (send attempt %d)", what, attempts)
			return o.entries(ctx, truths, res, attempts)
		case ctx.Err() != nil:
			return nil, 0, ctx.Err()
		case !errors.As(err, &te):
			o.fail(&o.node, fmt.Sprintf("send the truths of %s (attempt %d)", what, attempts), err)
		default:
			o.ok(&o.node)
			r, after, err := o.report(ctx, truths[0])
			r.Attempts += attempts
			if err != nil {
				return nil, 0, err
			}
			return []Report{r}, after, nil
		}
		if err := b.wait(ctx); err != nil {
			return nil, 0, err
		}
	}
}

// entries maps a batch's truth_entry events onto its windows, in order,
// each as the single truth's answer would be (sent at the batch's height,
// or refusal). An entry the chain has not caught up with yet ends the
// list: its window and those after it are offered again by the next call
// (an entry after it that the chain took then reads as already reported),
// and so does a window whose entry has no event in the answer.
func (o *Oracle) entries(ctx context.Context, truths []Truth, res client.TxResult, attempts int) ([]Report, uint64, error) {
	got := truthEntries(res.Events)
	var out []Report
	next := truths[0].Window.First
	for i, t := range truths {
		e, ok := got[i]
		if !ok {
			break
		}
		r := Report{Truth: t, Attempts: attempts, Outcome: Sent, Height: res.Height}
		if e.code != wire.CodeOK {
			var err error
			r.Height = 0
			if r.Outcome, r.Log, err = o.refusal(ctx, t.Window, e.code, e.log); err != nil {
				return out, 0, err
			}
			if r.Outcome == "" {
				o.note("chain", wire.CodeName(e.code), "oracle gas: %s: not yet (code %d, %s): %s; retrying quietly until the chain takes it", t.Window, e.code, wire.CodeName(e.code), e.log)
				break
			}
		}
		out = append(out, r)
		next = max(next, o.nextAfter(ctx, t.Window, r.Outcome))
	}
	return out, next, nil
}

// truthEntry is one truth_entry event: the entry's code and, when refused,
// the chain's log.
type truthEntry struct {
	code uint32
	log  string
}

// truthEntries are a batch's truth_entry events by entry index.
func truthEntries(evs []client.Event) map[int]truthEntry {
	out := map[int]truthEntry{}
	for _, e := range evs {
		if e.Type != wire.EventTruthEntry {
			continue
		}
		idx, code, log := -1, -1, ""
		for _, a := range e.Attributes {
			switch a.Key {
			case "index":
				idx, _ = strconv.Atoi(a.Value)
			case "code":
				code, _ = strconv.Atoi(a.Value)
			case "log":
				log = a.Value
			}
		}
		if idx >= 0 && code >= 0 {
			out[idx] = truthEntry{code: uint32(code), log: log}
		}
	}
	return out
}
