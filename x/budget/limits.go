package budget

import "fmt"

// MaxTxnBytes is the most one badger transaction holds with the app's
// memtable of 128 MiB: badger refuses a transaction above 15% of it.
const MaxTxnBytes = 128 << 20 * 15 / 100

// Limits bounds one block's writes, counted as key + value + 100 bytes per
// written entry (docs/codes.md, "Block bound").
type Limits struct {
	// BlockWrites bounds what the block's transactions write; a transaction
	// past it is rejected with code 40 (block_full).
	BlockWrites int
	// SettleWrites: the end of block stops settling due submissions once
	// the block has written this much, and carries the rest to the next
	// height (at least one settlement per block, so it always progresses).
	SettleWrites int
	// TruthWrites: a truth round settled at its deadline must leave the
	// block below this, else the round expires and its EVM block stays open.
	TruthWrites int
	// TxWrites bounds one transaction alone (CheckTx): a transaction that
	// writes more can never be included, so the mempool refuses it.
	TxWrites int
}

// DefaultLimits are the chain's limits: 8 MiB of transactions, settlements
// up to 12 MiB, deadline truth closes up to 16 MiB, all inside badger's
// 19.2 MiB transaction.
func DefaultLimits() Limits {
	return Limits{BlockWrites: 8 << 20, SettleWrites: 12 << 20, TruthWrites: 16 << 20, TxWrites: 8 << 20}
}

// OrDefault replaces every zero field by its default.
func (l Limits) OrDefault() Limits {
	d := DefaultLimits()
	if l.BlockWrites == 0 {
		l.BlockWrites = d.BlockWrites
	}
	if l.SettleWrites == 0 {
		l.SettleWrites = d.SettleWrites
	}
	if l.TruthWrites == 0 {
		l.TruthWrites = d.TruthWrites
	}
	if l.TxWrites == 0 {
		l.TxWrites = d.TxWrites
	}
	return l
}

// GasCloseBytes is what one EVM block close may write: half the block's
// transaction budget (a closing truth fits every block whose other
// transactions wrote less than that) and no more than the room between the
// settlement and truth limits (a close at its deadline fits after the
// settlements). genesis bounds every chain's largest close by it.
func (l Limits) GasCloseBytes() int {
	return min(l.BlockWrites/2, l.TruthWrites-l.SettleWrites)
}

// LimitError names the limit and why it is refused.
type LimitError struct {
	Field  string
	Value  int
	Reason string
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("limits: %s = %d: %s", e.Field, e.Value, e.Reason)
}

// Validate checks that every limit is positive and fits one badger
// transaction, and that one transaction alone may not write more than a
// block. (The end of block's overshoot past SettleWrites is one submission
// record; docs/codes.md, "Block bound", gives the arithmetic for the
// defaults.)
func (l Limits) Validate() error {
	for _, f := range []struct {
		name string
		v    int
	}{{"block_writes", l.BlockWrites}, {"settle_writes", l.SettleWrites}, {"truth_writes", l.TruthWrites}, {"tx_writes", l.TxWrites}} {
		if f.v <= 0 {
			return &LimitError{f.name, f.v, "must be positive"}
		}
		if f.v > MaxTxnBytes {
			return &LimitError{f.name, f.v, fmt.Sprintf("must fit one badger transaction (%d bytes)", MaxTxnBytes)}
		}
	}
	if l.TxWrites > l.BlockWrites {
		return &LimitError{"tx_writes", l.TxWrites, fmt.Sprintf("must be at most block_writes %d", l.BlockWrites)}
	}
	return nil
}
