package kernel

import (
	"github.com/scoringsubnet/validatord/app/store"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Statuses of submissions and truth rounds, as stored and queried.
const (
	StatusCommitted  = "committed"  // a commit waiting for its reveal (docs/commit-reveal.md)
	StatusPending    = "pending"    // revealed, waiting for reports (or for the EVM block's close)
	StatusScored     = "scored"     // final, with a score receipt
	StatusExpired    = "expired"    // the deadline came with at most chain.deadline_quorum of the power reported
	StatusContested  = "contested"  // the deadline quorum reported, but a median was not bracketed by 1/3 of the power on each side: unscored
	StatusFailed     = "failed"     // final, but the formula rejected the aggregated inputs (receipt says why)
	StatusLate       = "late"       // gas: committed less than commit_margin_seconds before the EVM block's timestamp; stored, not scored
	StatusUnscored   = "unscored"   // gas: its EVM block was skipped by a truth for a later block
	StatusFinal      = "final"      // truth round aggregated
	StatusCounted    = "counted"    // gas: the prediction entered the agent's memory
	StatusUnrevealed = "unrevealed" // the reveal window closed without a valid reveal: counts as no submission
	StatusDuplicate  = "duplicate"  // another miner's earlier commit revealed the same artifact: score 0
)

// SetStatus moves sub to status. A submission that leaves StatusCommitted
// (revealed, or closed unrevealed, late, failed or unscored by the chain)
// leaves its track's count of commits awaiting their reveal
// (store.TrackAwaitingReveal; NewSubmission adds to it). Every change of a
// status that may be StatusCommitted goes through here, so the count is the
// number of committed submissions of the track.
func SetStatus(st store.State, sub *subnetv1.Submission, status string) {
	if sub.Status == StatusCommitted && status != StatusCommitted {
		st.DecU64(store.KeyTrackCount(store.TrackAwaitingReveal, sub.Track))
	}
	sub.Status = status
}
