// Package budget bounds the work of one block: the Limits (bytes the
// block's transactions may write, the end of block's settlement and truth
// limits, one transaction alone) and the Meter that every step of block
// execution asks before it spends. Work a step cannot do within the budget
// is carried to the next block by the step itself; nothing a block does can
// take its writes past badger's transaction limit, so Commit cannot fail.
//
//	lim := budget.DefaultLimits()
//	m := budget.NewMeter(lim, blockOverlay) // blockOverlay.Size() = bytes written so far
//	if !m.TxFits(txOverlay.Size()) { /* reject with code 40 */ }
//	for m.SettlementOpen(settled) { /* settle one more submission */ }
//
// The limits are consensus rules: every node of a chain must run the same
// ones (the defaults; only tests set others, through app.Config).
package budget
