package snapshot

import (
	"errors"
	"fmt"
)

// Errors. Every error of Offer and Restorer.Apply wraps exactly one of the
// errors of the verdicts table, which says what the app answers CometBFT.
var (
	ErrFormat       = errors.New("snapshot: unknown format")
	ErrMetadata     = errors.New("snapshot: malformed metadata")
	ErrSnapshotHash = errors.New("snapshot: hash is not SHA-256 of the metadata")
	ErrChunkCount   = errors.New("snapshot: chunk count disagrees with the metadata")
	ErrHeight       = errors.New("snapshot: height is not the trusted height")
	ErrAppHash      = errors.New("snapshot: app hash is not the trusted app hash")
	ErrChunkHash    = errors.New("snapshot: chunk does not match its hash in the metadata")
	ErrOutOfOrder   = errors.New("snapshot: chunk out of order")
	ErrMalformed    = errors.New("snapshot: malformed entry stream")
	ErrMetaKey      = errors.New("snapshot: entry outside the hashed set (the meta prefix 0x00 or the record nodes' 0xf0)")
	ErrOrder        = errors.New("snapshot: keys not in increasing order")
	ErrDuplicateKey = errors.New("snapshot: duplicate key")
	ErrEntryCount   = errors.New("snapshot: entry count or stream size disagrees with the metadata")
	ErrSink         = errors.New("snapshot: sink failed")

	// Errors of the writer side (never an ABCI answer).
	ErrEntryTooLarge = errors.New("snapshot: entry larger than a chunk message can carry")
	ErrExists        = errors.New("snapshot: a snapshot of this height exists")
	ErrNotFound      = errors.New("snapshot: no such snapshot or chunk")
)

// Action is what the app answers ApplySnapshotChunk (abci.go maps it to
// CometBFT's enum).
type Action int

// Actions, named after ResponseApplySnapshotChunk_Result.
const (
	Accept         Action = iota + 1 // the chunk is applied
	Abort                            // stop state sync: a local failure
	Retry                            // refetch this chunk from another peer and apply it again
	RetrySnapshot                    // offer the snapshot again from chunk 0
	RejectSnapshot                   // this snapshot is bad: try another
)

var actionNames = [...]string{"", "ACCEPT", "ABORT", "RETRY", "RETRY_SNAPSHOT", "REJECT_SNAPSHOT"}

func (a Action) String() string {
	if a == 0 {
		return "—" // not an answer of this step
	}
	if a < Accept || a > RejectSnapshot {
		return fmt.Sprintf("Action(%d)", int(a))
	}
	return actionNames[a]
}

// OfferAction is what the app answers OfferSnapshot.
type OfferAction int

// Offer actions, named after ResponseOfferSnapshot_Result.
const (
	OfferAccept       OfferAction = iota + 1 // restore this snapshot
	OfferAbort                               // stop state sync
	OfferReject                              // try another snapshot
	OfferRejectFormat                        // reject every snapshot of this format
	OfferRejectSender                        // reject every snapshot of the peers that sent this one
)

var offerNames = [...]string{"", "ACCEPT", "ABORT", "REJECT", "REJECT_FORMAT", "REJECT_SENDER"}

func (a OfferAction) String() string {
	if a == 0 {
		return "—" // not an answer of this step
	}
	if a < OfferAccept || a > OfferRejectSender {
		return fmt.Sprintf("OfferAction(%d)", int(a))
	}
	return offerNames[a]
}

// verdict says how an error is answered: at OfferSnapshot (Offer), and at
// ApplySnapshotChunk (Apply, with Refetch and RejectSender for a bad chunk).
// A zero answer marks an error that step never returns.
type verdict struct {
	Name         string
	Err          error
	Offer        OfferAction
	Apply        Action
	Refetch      bool // refetch the chunk
	RejectSender bool // reject the peer that sent the chunk
	Doc          string
}

// verdicts is the one table of the ABCI answers; docs/statesync.md lists it
// (a test compares them).
var verdicts = []verdict{
	{"ErrFormat", ErrFormat, OfferRejectFormat, 0, false, false, "a format other than 1"},
	{"ErrMetadata", ErrMetadata, OfferRejectSender, 0, false, false, "metadata does not decode, or is not canonical"},
	{"ErrSnapshotHash", ErrSnapshotHash, OfferRejectSender, 0, false, false, "the advertised hash is not SHA-256 of the metadata"},
	{"ErrChunkCount", ErrChunkCount, OfferRejectSender, 0, false, false, "the advertised chunk count is not the metadata's"},
	{"ErrHeight", ErrHeight, OfferReject, 0, false, false, "the metadata's height is not the advertised or the trusted height"},
	{"ErrAppHash", ErrAppHash, OfferReject, RejectSnapshot, false, false, "the metadata's app hash, or the restored state's, is not the trusted one"},
	{"ErrChunkHash", ErrChunkHash, 0, Retry, true, true, "a chunk's SHA-256 is not the metadata's; the Restorer is unchanged and takes the index again"},
	{"ErrOutOfOrder", ErrOutOfOrder, 0, RetrySnapshot, false, false, "a chunk index other than the next one"},
	{"ErrMalformed", ErrMalformed, 0, RejectSnapshot, false, false, "a truncated, overlong or empty-key entry, or bytes after the last entry"},
	{"ErrMetaKey", ErrMetaKey, 0, RejectSnapshot, false, false, "an entry outside the hashed set: the meta prefix 0x00 or the record trees' nodes 0xf0"},
	{"ErrOrder", ErrOrder, 0, RejectSnapshot, false, false, "a key not greater than the one before it"},
	{"ErrDuplicateKey", ErrDuplicateKey, 0, RejectSnapshot, false, false, "a key equal to the one before it"},
	{"ErrEntryCount", ErrEntryCount, 0, RejectSnapshot, false, false, "more or fewer entries or bytes than the metadata says"},
	{"ErrSink", ErrSink, 0, Abort, false, false, "the local store failed: stop, an operator must look"},
}

// verdictOf finds err's verdict; an unknown error, or one the step
// never returns (a zero answer), aborts.
func verdictOf(err error) verdict {
	for _, v := range verdicts {
		if errors.Is(err, v.Err) {
			if v.Offer == 0 {
				v.Offer = OfferAbort
			}
			if v.Apply == 0 {
				v.Apply = Abort
			}
			return v
		}
	}
	return verdict{Name: "other", Err: err, Offer: OfferAbort, Apply: Abort}
}

// OfferResult is the answer to OfferSnapshot for Offer's error (nil: accept).
func OfferResult(err error) OfferAction {
	if err == nil {
		return OfferAccept
	}
	return verdictOf(err).Offer
}

// ChunkError is an error of one chunk: its index and the cause (one of the
// sentinel errors, wrapped).
type ChunkError struct {
	Index uint32
	Err   error
}

func (e *ChunkError) Error() string { return fmt.Sprintf("chunk %d: %v", e.Index, e.Err) }

func (e *ChunkError) Unwrap() error { return e.Err }
