package budget

// Sizer reports the bytes a block has written so far (the block overlay).
type Sizer interface{ Size() int }

// Meter measures one block's work against its Limits. Every step of block
// execution asks it before it spends: transactions, settlements, truth
// closes. It holds no state of its own beyond the limits and the block's
// writes, so it can be rebuilt at any point with the same answers.
type Meter struct {
	lim   Limits
	block Sizer
}

// NewMeter meters the block whose writes block counts.
func NewMeter(lim Limits, block Sizer) *Meter { return &Meter{lim: lim, block: block} }

// Limits returns the meter's limits.
func (m *Meter) Limits() Limits { return m.lim }

// Written is the bytes the block has written so far.
func (m *Meter) Written() int { return m.block.Size() }

// TxAlone reports whether a transaction that writes txBytes could be
// included in some block at all (CheckTx).
func (m *Meter) TxAlone(txBytes int) bool { return txBytes <= m.lim.TxWrites }

// TxFits reports whether a transaction that writes txBytes still fits the
// block's transaction budget.
func (m *Meter) TxFits(txBytes int) bool { return m.Written()+txBytes <= m.lim.BlockWrites }

// SettlementOpen reports whether the end of block may settle one more due
// submission, settled being how many it settled in this block: always the
// first, then while the block has written at most SettleWrites.
func (m *Meter) SettlementOpen(settled int) bool {
	return settled == 0 || m.Written() <= m.lim.SettleWrites
}

// TruthFits reports whether a deadline truth close writing closeBytes
// leaves the block within TruthWrites.
func (m *Meter) TruthFits(closeBytes int) bool { return m.Written()+closeBytes <= m.lim.TruthWrites }
