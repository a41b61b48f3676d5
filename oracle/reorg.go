package oracle

import (
	"context"
	"fmt"
)

// ReorgMemory bounds the blocks whose hashes the oracle keeps of the
// windows it reported last: enough to say how deep a reorg went past
// --confirmations on any chain whose finality that many blocks cover.
const ReorgMemory = 128

// remember keeps the hashes of the blocks of a window the oracle reported,
// the newest ReorgMemory of them.
func (o *Oracle) remember(blocks []Block) {
	o.reported = append(o.reported, blocks...)
	if n := len(o.reported) - ReorgMemory; n > 0 {
		o.reported = append(o.reported[:0:0], o.reported[n:]...)
	}
}

// checkReorg looks at the first block of a window just read: when the last
// block the oracle reported is its parent by number but not by hash, the
// EVM chain reorganised blocks the oracle had reported (reorged says how
// deep, and the open truths of the replaced blocks are forgotten).
func (o *Oracle) checkReorg(ctx context.Context, blocks []Block) {
	if len(o.reported) == 0 || len(blocks) == 0 {
		return
	}
	last, b := o.reported[len(o.reported)-1], blocks[0]
	if last.Number+1 != b.Number || last.Hash == b.ParentHash {
		return
	}
	if from, ok := o.reorged(ctx); ok {
		o.open = openBefore(o.open, from)
	}
}

// reorged re-reads the reported blocks, newest first, while the endpoint
// answers another hash for them. When any was replaced (a reorg deeper than
// --confirmations, after their truths were sent) it logs one line, counts
// it (deep_reorgs_total), forgets the replaced blocks and returns the first
// of them: the caller never sends their windows' truths again, not even
// when their rounds are dropped. A truth the chain settled is final, and a
// vote already cast cannot be changed; the remedy is a --confirmations that
// covers the EVM chain's finality. A read that fails stops the walk there.
func (o *Oracle) reorged(ctx context.Context) (from uint64, ok bool) {
	kept, replaced := len(o.reported), 0
	var now Block
	for i := kept - 1; i >= 0; i-- {
		var b Block
		err := o.timed(ctx, func(ctx context.Context) (err error) {
			b, err = o.src.Block(ctx, o.reported[i].Number)
			return err
		})
		if err != nil || b.Hash == o.reported[i].Hash {
			break
		}
		if replaced == 0 {
			now = b
		}
		replaced++
	}
	if replaced == 0 {
		return 0, false
	}
	deep := fmt.Sprint(replaced)
	if replaced == kept {
		deep = "at least " + deep // every block kept was replaced
	}
	oldest, newest := o.reported[kept-replaced], o.reported[kept-1]
	o.reported = o.reported[:kept-replaced]
	o.cfg.Metrics.deepReorg(o.cfg.EvmChainID)
	o.cfg.Logf("oracle gas: EVM chain %d reorganised blocks %d-%d (%s of the blocks this oracle reported, more than --confirmations %d deep) after their truths were sent: block %d was %x, is now %x; not sending them again: a truth the chain settled is final; raise --confirmations to the EVM chain's finality depth",
		o.cfg.EvmChainID, oldest.Number, newest.Number, deep, o.cfg.Confirmations, newest.Number, newest.Hash, now.Hash)
	return oldest.Number, true
}

// openBefore keeps the open truths of windows that end before block from.
func openBefore(open []Truth, from uint64) []Truth {
	keep := open[:0]
	for _, t := range open {
		if t.Window.Last() < from {
			keep = append(keep, t)
		}
	}
	return keep
}
