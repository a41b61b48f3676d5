package budget

// Sizer reports the bytes a block has written so far (the block overlay).
type Sizer interface{ Size() int }

// Meter measures one block's work against its Limits. Every step of block
// execution asks it before it spends: each transaction, each item of each
// end-of-block step. Bytes are read from the block overlay; units are
// charged by the steps. It has no clock: the same block charges the same on
// every node.
type Meter struct {
	lim     Limits
	block   Sizer
	txWork  int64
	endWork int64
	starved bool
}

// NewMeter meters the block whose writes block counts.
func NewMeter(lim Limits, block Sizer) *Meter { return &Meter{lim: lim, block: block} }

// Limits returns the meter's limits.
func (m *Meter) Limits() Limits { return m.lim }

// Written is the bytes the block has written so far.
func (m *Meter) Written() int { return m.block.Size() }

// TxWork and EndWork are the units charged so far.
func (m *Meter) TxWork() int64 { return m.txWork }

// EndWork is the units the end of block charged so far.
func (m *Meter) EndWork() int64 { return m.endWork }

// TxAlone reports whether a transaction that writes txBytes could be
// included in some block at all (CheckTx).
func (m *Meter) TxAlone(txBytes int) bool { return txBytes <= m.lim.TxWrites }

// TxWorkAlone reports whether a transaction whose units are known before
// it runs could be paid for by some block at all (CheckTx).
func (m *Meter) TxWorkAlone(units int64) bool { return units <= m.lim.TxWork }

// ChargeTx charges a transaction's units; false (and nothing charged) when
// the block's transaction work is spent.
func (m *Meter) ChargeTx(units int64) bool {
	if m.txWork+units > m.lim.TxWork {
		return false
	}
	m.txWork += units
	return true
}

// TxFits reports whether a transaction that writes txBytes still fits the
// block's transaction budget.
func (m *Meter) TxFits(txBytes int) bool { return m.Written()+txBytes <= m.lim.BlockWrites }

// EndOpen reports whether an end-of-block step may start one more item:
// always its first (done == 0), then while the block is within EndWrites
// and EndWork. A starved meter opens nothing.
func (m *Meter) EndOpen(done int) bool {
	if m.starved {
		return false
	}
	return done == 0 || (m.Written() <= m.lim.EndWrites && m.endWork <= m.lim.EndWork)
}

// Starve closes the end of block to every item, the first included: the
// last line when a block's end would not fit one badger transaction (a
// broken bound, which tests must catch), so that the block still commits
// and its work waits in the queues.
func (m *Meter) Starve() { m.starved = true }

// ChargeEnd charges end-of-block units (always: the step asked EndOpen first).
func (m *Meter) ChargeEnd(units int64) { m.endWork += units }

// EndFits reports whether an item that writes itemBytes keeps the block
// within EndWrites.
func (m *Meter) EndFits(itemBytes int) bool { return m.Written()+itemBytes <= m.lim.EndWrites }

// Looker returns the function a step hands to a due schedule for each
// height it reads: while the step may go on (*done items so far) it charges
// one lookup and says yes; when it may not, it sets *stopped and says no.
func (m *Meter) Looker(done *int, stopped *bool) func() bool {
	return func() bool {
		if !m.EndOpen(*done) {
			*stopped = true
			return false
		}
		m.ChargeEnd(UnitsLookup)
		return true
	}
}
