package wire

import (
	"fmt"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// MaxReportBatch is the most entries one MsgReportBatch may carry. It is a
// consensus rule, not a param: 256 entries are charged as 256
// transactions' work (budget.UnitsTx each), a small share of a block's
// transaction work, and max_tx_bytes still applies (16 KiB by default; a
// workflow entry with short decimals takes about 45 bytes, 256 of them
// 11,139 bytes signed).
const MaxReportBatch = 256

// CheckReportBatchShape is the rule that refuses a report batch whole,
// before any entry is looked at: between 1 and MaxReportBatch entries, none
// nil, and no submission named twice. The app and the client's builder
// both call it.
func CheckReportBatchShape(entries []*subnetv1.MsgReport) *TxError {
	if n := len(entries); n == 0 || n > MaxReportBatch {
		return Reject(CodeBatchSize, fmt.Sprintf("report batch has %d entries: must be in [1, %d]; split a larger one", n, MaxReportBatch))
	}
	first := make(map[uint64]int, len(entries))
	for i, e := range entries {
		if e == nil {
			return Reject(CodeEmptyMsg, fmt.Sprintf("report batch entry %d is empty", i))
		}
		if j, ok := first[e.SubmissionId]; ok {
			return Reject(CodeDuplicateBatchEntry, fmt.Sprintf("report batch entries %d and %d both report submission_id = %d: keep one", j, i, e.SubmissionId))
		}
		first[e.SubmissionId] = i
	}
	return nil
}
