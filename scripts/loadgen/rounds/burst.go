package rounds

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"time"

	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// burster sends a key's transactions in bursts: all of them into the mempool one after
// another (the app takes an account's next nonces in order), then waits for their blocks.
type burster struct {
	name  string
	s     *client.Signer
	node  client.Node // the signer's node: it answers WaitTx
	limit *limiter
	rec   *recorder
	wait  time.Duration // how long a burst's blocks are waited for, once all is sent
	log   io.Writer
}

// burstOutcome is what one burst came to.
type burstOutcome struct {
	accepted, committed, refused, unconfirmed int
	// stopped: the burst ended early on a refusal with the stop code.
	stopped bool
}

// send broadcasts msgs in order (a sequence, so that a flood can read the chain as it goes);
// a refusal is counted by its code and the next message goes
// out, except a refusal with code stop (0: none), which ends the burst (e.g. 43: the
// validator's open tasks are at the cap). A send with no answer ends it too. Then it waits,
// in nonce order, for each accepted transaction's block: the first one not seen by the end
// of b.wait ends the wait, since none after it can be included before it (it was dropped,
// or evicted when the block before made it invalid; the nonce is read again).
func (b *burster) send(ctx context.Context, kind string, msgs iter.Seq[*subnetv1.Msg], stop uint32) burstOutcome {
	b.s.BeforeBroadcast = func(ctx context.Context) error {
		if err := b.limit.wait(ctx); err != nil {
			return err
		}
		b.rec.sent(kind)
		return nil
	}
	var out burstOutcome
	var hashes []string
	for m := range msgs {
		res, err := b.s.Send(ctx, m)
		var te *client.TxError
		if errors.As(err, &te) {
			b.rec.rejected(kind, te.Code)
			out.refused++
			if out.stopped = te.Code == stop; out.stopped {
				break
			}
			continue
		}
		if err != nil {
			b.logf("%s: %s: %v", b.name, kind, err)
			break
		}
		hashes = append(hashes, res.Hash)
	}
	out.accepted = len(hashes)
	b.await(ctx, kind, hashes, &out)
	return out
}

// await waits for the blocks of hashes, in order, until b.wait has passed.
func (b *burster) await(ctx context.Context, kind string, hashes []string, out *burstOutcome) {
	deadline := time.Now().Add(b.wait)
	for i, h := range hashes {
		res, err := b.node.WaitTx(ctx, h, max(time.Until(deadline), time.Millisecond))
		var te *client.TxError
		switch {
		case err == nil:
			out.committed++
			if werr := b.rec.committed(Record{Kind: kind, Sender: b.name, Hash: res.Hash, Height: res.Height}); werr != nil {
				b.logf("%s: write record: %v", b.name, werr)
			}
		case errors.As(err, &te):
			b.rec.rejected(kind, te.Code)
			out.refused++
		default:
			out.unconfirmed = len(hashes) - i
			for range out.unconfirmed {
				b.rec.uncertain()
			}
			b.s.Resync()
			return
		}
	}
}

func (b *burster) logf(format string, args ...any) {
	if b.log != nil {
		fmt.Fprintf(b.log, "loadgen: "+format+"\n", args...)
	}
}
