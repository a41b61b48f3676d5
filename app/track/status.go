package track

// Statuses of submissions and truth rounds, as stored and queried.
const (
	StatusPending  = "pending"  // waiting for reports (or for the EVM block's truth)
	StatusScored   = "scored"   // final, with a score receipt
	StatusExpired  = "expired"  // the deadline came with at most chain.deadline_quorum of the power reported
	StatusFailed   = "failed"   // final, but the formula rejected the aggregated inputs (receipt says why)
	StatusLate     = "late"     // gas: included at or after the EVM block's timestamp; stored, not scored
	StatusUnscored = "unscored" // gas: its EVM block was skipped by a truth for a later block
	StatusFinal    = "final"    // truth round aggregated
	StatusCounted  = "counted"  // gas: the prediction entered the agent's memory
)
