package snapshot

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"
)

// ABCI returns the snapshot as ListSnapshots advertises it.
func (i Info) ABCI() *abcitypes.Snapshot {
	return &abcitypes.Snapshot{Height: i.Height, Format: i.Format, Chunks: i.Chunks, Hash: i.Hash, Metadata: i.Metadata}
}

// DescriptorOf is an offered snapshot as Offer reads it.
func DescriptorOf(s *abcitypes.Snapshot) Descriptor {
	if s == nil {
		return Descriptor{}
	}
	return Descriptor{Height: s.Height, Format: s.Format, Chunks: s.Chunks, Hash: s.Hash, Metadata: s.Metadata}
}

// OfferResponse is the answer to OfferSnapshot for Offer's error.
func OfferResponse(err error) *abcitypes.ResponseOfferSnapshot {
	return &abcitypes.ResponseOfferSnapshot{Result: offerResults[OfferResult(err)]}
}

// Response is the answer to ApplySnapshotChunk of a chunk sent by sender.
func (r Result) Response(sender string) *abcitypes.ResponseApplySnapshotChunk {
	out := &abcitypes.ResponseApplySnapshotChunk{Result: applyResults[r.Action], RefetchChunks: r.Refetch}
	if r.RejectSender && sender != "" {
		out.RejectSenders = []string{sender}
	}
	return out
}

var offerResults = map[OfferAction]abcitypes.ResponseOfferSnapshot_Result{
	OfferAccept:       abcitypes.ResponseOfferSnapshot_ACCEPT,
	OfferAbort:        abcitypes.ResponseOfferSnapshot_ABORT,
	OfferReject:       abcitypes.ResponseOfferSnapshot_REJECT,
	OfferRejectFormat: abcitypes.ResponseOfferSnapshot_REJECT_FORMAT,
	OfferRejectSender: abcitypes.ResponseOfferSnapshot_REJECT_SENDER,
}

var applyResults = map[Action]abcitypes.ResponseApplySnapshotChunk_Result{
	Accept:         abcitypes.ResponseApplySnapshotChunk_ACCEPT,
	Abort:          abcitypes.ResponseApplySnapshotChunk_ABORT,
	Retry:          abcitypes.ResponseApplySnapshotChunk_RETRY,
	RetrySnapshot:  abcitypes.ResponseApplySnapshotChunk_RETRY_SNAPSHOT,
	RejectSnapshot: abcitypes.ResponseApplySnapshotChunk_REJECT_SNAPSHOT,
}
