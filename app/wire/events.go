package wire

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"
)

// Event types emitted in FinalizeBlock results (docs/queries.md lists their attributes).
const (
	EventMinerRegistered     = "miner_registered"
	EventDifficultyAdjusted  = "difficulty_adjusted" // the registration difficulty at an adjustment_interval-th height
	EventMinerReplaced       = "miner_replaced"      // a registration took a uid from its owner (before miner_registered)
	EventMinerDeregistered   = "miner_deregistered"  // a miner freed its uid
	EventMinerServed         = "miner_served"        // a miner announced where its daemon serves revealed artifacts
	EventTaskPosted          = "task_posted"
	EventSubmissionAdded     = "submission_received" // a commit: the submission exists, its payload not yet
	EventSubmissionRevealed  = "submission_revealed"
	EventSubmissionDuplicate = "submission_duplicate"
	EventReportReceived      = "report_received"
	EventReportEntry         = "report_entry" // one entry of a report batch: its index, submission, code and code name
	EventCommitEntry         = "commit_entry" // one entry of a commit batch: its index, target, code and code name
	EventRevealEntry         = "reveal_entry" // one entry of a reveal batch: its index, target, code and code name
	EventTruthEntry          = "truth_entry"  // one entry of a truth batch: its index, EVM block, code and code name
	EventTruthReceived       = "truth_received"
	EventSubmissionScored    = "submission_scored"
	EventSubmissionExpired   = "submission_expired"
	EventSubmissionContested = "submission_contested" // reported at its deadline, but a median was not bracketed: unscored
	EventWindowUpdated       = "window_updated"
	EventGasTruthFinal       = "gas_truth_final"     // the EVM block's truth is final: its reveal window opens the next block
	EventGasTruthContested   = "gas_truth_contested" // the round's deadline came with a median not bracketed: the block does not close
	EventGasWindowClosed     = "gas_window_closed"
	EventGasChainPaused      = "gas_chain_paused"  // a pause of an EVM chain came into force: its open predictions ended unscored, its open rounds dropped
	EventGasChainResumed     = "gas_chain_resumed" // a resume of an EVM chain comes into force next block: the chain is closed up to the window before resume_block
	EventEpochWeights        = "epoch_weights"
	EventProposalSubmitted   = "proposal_submitted" // a validator or params proposal (its proposer's approval included)
	EventProposalApproved    = "proposal_approved"  // a validator approved a proposal (not yet decided)
	EventProposalPassed      = "proposal_passed"    // approvals passed 2/3 of the power in force: changes queued or upgrade scheduled
	EventProposalExpired     = "proposal_expired"   // the expiry passed without 2/3
	EventValidatorUpdate     = "validator_update"   // one validator update sent to CometBFT (in force 2 blocks later)
	EventValidatorChange     = "validator_change"   // what the queue did with one approved change (applied, partial, dropped)
	EventMisbehaviour        = "misbehaviour"       // evidence CometBFT gave the block, and whether it slashed
	EventParamsActivated     = "params_activated"   // an upgrade's params are in force from this height
	EventMirrorAttested      = "mirror_attested"    // a validator's vote on the parent's metagraph at a parent block
	EventMirrorFinal         = "mirror_final"       // a metagraph snapshot became final (before its mirror_uid_reset events)
	EventMirrorUIDReset      = "mirror_uid_reset"
	EventMirrorBound         = "mirror_bound"  // a tx key bound to a parent uid
	EventStateRetired        = "state_retired" // what the end of block's retention deleted (docs/retention.md)
)

// IndexedKeys are the event attributes CometBFT's tx and block indexers
// index (what /tx_search and /block_search can find by): the ones that
// name a thing — a submission, task, uid, proposal, EVM block, validator,
// epoch or key. Descriptive attributes (status, track, windows, counts)
// are still in every event but not indexed: each indexed attribute is one
// more index write per transaction on every node, and at load those writes
// were 7% of a node's CPU (docs/performance.md). Whether an
// attribute is indexed is no part of any hash (CometBFT's results hash
// covers a result's code and data only).
var IndexedKeys = map[string]bool{
	"submission_id": true, "task_id": true, "uid": true, "proposal_id": true, "evm_chain_id": true,
	"evm_block": true, "validator": true, "epoch": true, "tx_key": true, "report_key": true,
	"pub_key": true, "pubkey": true, "old_pubkey": true, "new_pubkey": true, "old_hotkey": true, "new_hotkey": true,
}

// Event builds an event from key, value pairs; IndexedKeys are indexed.
func Event(typ string, kv ...string) abcitypes.Event {
	ev := abcitypes.Event{Type: typ}
	for i := 0; i+1 < len(kv); i += 2 {
		ev.Attributes = append(ev.Attributes, abcitypes.EventAttribute{Key: kv[i], Value: kv[i+1], Index: IndexedKeys[kv[i]]})
	}
	return ev
}
