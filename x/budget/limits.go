package budget

import "fmt"

// MaxTxnBytes is the most one badger transaction holds with the app's
// memtable of 128 MiB: badger refuses a transaction above 15% of it.
const MaxTxnBytes = 128 << 20 * 15 / 100

// Limits bounds one block's work: bytes written, counted as key + value +
// 100 bytes per written entry, and units of work (1 unit ≈ 1 µs of one core
// of the reference machine; units.go lists what each operation costs).
// docs/codes.md, "Block bound", gives the arithmetic.
type Limits struct {
	// BlockWrites bounds what the block's transactions write; a transaction
	// past it is rejected with code 40 (block_full).
	BlockWrites int
	// EndWrites: an end-of-block step starts no new item of work once the
	// block has written this much (its first item excepted, so every step
	// always progresses) and carries the rest to the next block.
	EndWrites int
	// TxWrites bounds one transaction alone (CheckTx): a transaction that
	// writes more can never be included, so the mempool refuses it.
	TxWrites int
	// TxWork bounds the units of work of the block's transactions; a
	// transaction past it is rejected with code 40, before its signature is
	// verified.
	TxWork int64
	// EndWork bounds the units of work of the end of block, like EndWrites.
	EndWork int64
	// CommitWrites is the last line: what one block may write at all, one
	// badger transaction (MaxTxnBytes). A block whose end would pass it runs
	// its end of block starved (Meter.Starve); the limits above keep every
	// reachable block far below it, and tests check that it never runs.
	CommitWrites int
}

// DefaultLimits are the chain's limits: 8 MiB and 600,000 units of
// transactions, then an end of block up to 12 MiB and 400,000 units, all
// inside badger's 19.2 MiB transaction and about 1 s of one core.
func DefaultLimits() Limits {
	return Limits{BlockWrites: 8 << 20, EndWrites: 12 << 20, TxWrites: 8 << 20, TxWork: 600_000, EndWork: 400_000,
		CommitWrites: MaxTxnBytes}
}

// OrDefault replaces every zero field by its default.
func (l Limits) OrDefault() Limits {
	d := DefaultLimits()
	if l.BlockWrites == 0 {
		l.BlockWrites = d.BlockWrites
	}
	if l.EndWrites == 0 {
		l.EndWrites = d.EndWrites
	}
	if l.TxWrites == 0 {
		l.TxWrites = d.TxWrites
	}
	if l.TxWork == 0 {
		l.TxWork = d.TxWork
	}
	if l.EndWork == 0 {
		l.EndWork = d.EndWork
	}
	if l.CommitWrites == 0 {
		l.CommitWrites = d.CommitWrites
	}
	return l
}

// GasCloseBytes is what one EVM block close may write: no more than the end
// of block adds to a full block, so that a close, which runs only as the
// first item of the end of block (at the end of its reveal window), always
// fits. genesis bounds every chain's largest close by it.
func (l Limits) GasCloseBytes() int {
	return l.EndWrites - l.BlockWrites
}

// LimitError names the limit and why it is refused.
type LimitError struct {
	Field  string
	Value  int64
	Reason string
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("limits: %s = %d: %s", e.Field, e.Value, e.Reason)
}

// Validate checks that every limit is positive, that the byte limits fit
// one badger transaction, and that one transaction alone may not write more
// than a block.
func (l Limits) Validate() error {
	for _, f := range []struct {
		name string
		v    int64
	}{{"block_writes", int64(l.BlockWrites)}, {"end_writes", int64(l.EndWrites)}, {"tx_writes", int64(l.TxWrites)},
		{"tx_work", l.TxWork}, {"end_work", l.EndWork}, {"commit_writes", int64(l.CommitWrites)}} {
		if f.v <= 0 {
			return &LimitError{f.name, f.v, "must be positive"}
		}
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"block_writes", l.BlockWrites}, {"end_writes", l.EndWrites}, {"commit_writes", l.CommitWrites}} {
		if f.v > MaxTxnBytes {
			return &LimitError{f.name, int64(f.v), fmt.Sprintf("must fit one badger transaction (%d bytes)", MaxTxnBytes)}
		}
	}
	if l.TxWrites > l.BlockWrites {
		return &LimitError{"tx_writes", int64(l.TxWrites), fmt.Sprintf("must be at most block_writes %d", l.BlockWrites)}
	}
	return nil
}
