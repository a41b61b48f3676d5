package app

// Statuses of submissions and truth rounds, as stored and queried.
const (
	statusPending  = "pending"  // waiting for reports (or for the EVM block's truth)
	statusScored   = "scored"   // final, with a score receipt
	statusExpired  = "expired"  // the deadline came with at most 1/3 of the power reported
	statusFailed   = "failed"   // final, but the formula rejected the aggregated inputs (receipt says why)
	statusLate     = "late"     // gas: included at or after the EVM block's timestamp; stored, not scored
	statusUnscored = "unscored" // gas: its EVM block was skipped by a truth for a later block
	statusFinal    = "final"    // truth round aggregated
	statusCounted  = "counted"  // gas: the prediction entered the agent's memory
)
