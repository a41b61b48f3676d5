package metrics

import (
	"strconv"
	"time"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/wire"
)

// Submission events (the event label of validatord_submissions_total).
const (
	SubReceived  = "received"
	SubScored    = "scored"
	SubExpired   = "expired"
	SubContested = "contested"
	SubDuplicate = "duplicate"
	SubClosed    = "closed"
)

// scoreEvents change a leaderboard or an epoch: the per-uid gauges are read
// again after the block's Commit.
var scoreEvents = map[string]bool{
	wire.EventWindowUpdated: true, wire.EventEpochWeights: true, wire.EventMinerRegistered: true,
	wire.EventMinerDeregistered: true, wire.EventMinerReplaced: true, wire.EventMirrorUIDReset: true,
	wire.EventMirrorFinal: true, wire.EventGasWindowClosed: true,
}

func attr(ev abcitypes.Event, key string) string {
	for _, a := range ev.Attributes {
		if a.Key == key {
			return a.Value
		}
	}
	return ""
}

func attrU64(ev abcitypes.Event, key string) (uint64, bool) {
	v, err := strconv.ParseUint(attr(ev, key), 10, 64)
	return v, err == nil
}

// events counts one list of events (a transaction's or the end of block's).
func (o *observer) events(evs []abcitypes.Event, took time.Duration) {
	for _, ev := range evs {
		if scoreEvents[ev.Type] {
			o.block.scores = true
		}
		switch ev.Type {
		case wire.EventSubmissionAdded:
			o.received(ev)
		case wire.EventSubmissionScored:
			o.settled(ev, attr(ev, "track"), SubScored)
		case wire.EventSubmissionExpired:
			o.settled(ev, "", SubExpired)
		case wire.EventSubmissionContested:
			o.settled(ev, "", SubContested)
		case wire.EventSubmissionDuplicate:
			o.settled(ev, "", SubDuplicate)
		case wire.EventGasWindowClosed:
			o.gasClosed(ev)
		case wire.EventGasTruthFinal:
			block, ok1 := attrU64(ev, "evm_block")
			ts, err := strconv.ParseInt(attr(ev, "timestamp"), 10, 64)
			if chain := attr(ev, "evm_chain_id"); ok1 && err == nil && chain != "" && block >= o.truths[chain].block {
				o.truths[chain] = truthSeen{block: block, timestamp: ts}
			}
		case wire.EventEpochWeights:
			o.m.EpochComputeSeconds.Set(took.Seconds())
		}
	}
}

func (o *observer) received(ev abcitypes.Event) {
	id, ok := attrU64(ev, "submission_id")
	track := attr(ev, "track")
	if !ok || track == "" {
		return
	}
	o.m.Submissions.WithLabelValues(track, SubReceived).Inc()
	p := pendingSub{track: track, evmChain: attr(ev, "evm_chain_id")}
	p.evmBlock, p.hasEVMInfo = attrU64(ev, "evm_block")
	o.pending[id] = p
	o.m.Pending.WithLabelValues(track).Inc()
}

// settled counts a submission's end; one received before this process
// started has its track read after Commit when the event does not say it.
func (o *observer) settled(ev abcitypes.Event, track, what string) {
	id, ok := attrU64(ev, "submission_id")
	if !ok {
		return
	}
	if p, ok := o.pending[id]; ok {
		delete(o.pending, id)
		o.m.Pending.WithLabelValues(p.track).Dec()
		track = p.track
	}
	if track == "" {
		o.block.unresolved = append(o.block.unresolved, id)
		o.block.unresolvedE = append(o.block.unresolvedE, what)
		return
	}
	o.m.Submissions.WithLabelValues(track, what).Inc()
}

// gasClosed ends every pending prediction of the EVM chain up to the closed
// block: the close judges the block's own predictions and leaves the
// earlier ones unscored.
func (o *observer) gasClosed(ev abcitypes.Event) {
	chain := attr(ev, "evm_chain_id")
	block, ok := attrU64(ev, "evm_block")
	if !ok {
		return
	}
	for id, p := range o.pending {
		if p.hasEVMInfo && p.evmChain == chain && p.evmBlock <= block {
			delete(o.pending, id)
			o.m.Pending.WithLabelValues(p.track).Dec()
			o.m.Submissions.WithLabelValues(p.track, SubClosed).Inc()
		}
	}
}
