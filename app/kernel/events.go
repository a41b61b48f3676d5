package kernel

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// ScoredEvent announces a submission's score.
func ScoredEvent(sub *subnetv1.Submission, score decimal.Decimal) abcitypes.Event {
	return wire.Event(wire.EventSubmissionScored, "submission_id", U64s(sub.Id), "uid", U64s(uint64(sub.Uid)),
		"track", sub.Track, "score", FmtDec(score))
}
