package wire

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"
)

// Event types emitted in FinalizeBlock results (docs/queries.md lists their attributes).
const (
	EventMinerRegistered   = "miner_registered"
	EventTaskPosted        = "task_posted"
	EventSubmissionAdded   = "submission_received"
	EventReportReceived    = "report_received"
	EventTruthReceived     = "truth_received"
	EventSubmissionScored  = "submission_scored"
	EventSubmissionExpired = "submission_expired"
	EventWindowUpdated     = "window_updated"
	EventGasWindowClosed   = "gas_window_closed"
	EventEpochWeights      = "epoch_weights"
)

// Event builds an event from key, value pairs; every attribute is indexed.
func Event(typ string, kv ...string) abcitypes.Event {
	ev := abcitypes.Event{Type: typ}
	for i := 0; i+1 < len(kv); i += 2 {
		ev.Attributes = append(ev.Attributes, abcitypes.EventAttribute{Key: kv[i], Value: kv[i+1], Index: true})
	}
	return ev
}
