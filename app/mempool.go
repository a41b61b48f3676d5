package app

// nextHeight is the height of the next block, which CheckTx validates
// against: the committed height + 1, or InitChain's initial height before
// the first commit (CometBFT may start a chain above height 1).
func (a *App) nextHeight() int64 {
	if a.height == 0 && a.initialHeight > 1 {
		return a.initialHeight
	}
	return a.height + 1
}

// mempoolTxBudget bounds the writes of one transaction in CheckTx: a
// transaction that alone writes more than a block may can never be included
// (FinalizeBlock would reject it with code 40 in every block), so the
// mempool refuses it with the same code. It is the block budget; the check
// state spans many blocks' worth of transactions, so it is applied per
// transaction, not to the check state's total. A variable only so that a
// test can provoke it; nothing else changes it.
var mempoolTxBudget = blockWriteBudget
