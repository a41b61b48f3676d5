package wire

import (
	"fmt"
	"strconv"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// MaxBatch is the most entries one batch message (MsgReportBatch,
// MsgCommitBatch, MsgRevealBatch, MsgTruthBatch) may carry. It is a
// consensus rule, not a param: 256 entries are charged as 256
// transactions' work (budget.UnitsTx each), a small share of a block's
// transaction work, and max_tx_bytes still applies (16 KiB by default; a
// workflow report with short decimals takes about 45 bytes, 256 of them
// 11,139 bytes signed; a commit about 50).
const MaxBatch = 256

// MaxReportBatch is MaxBatch, under the name the report batch's callers
// use.
const MaxReportBatch = MaxBatch

// CheckReportBatchShape is CheckBatchShape for a report batch's entries,
// each named by its submission. The app and the client's builder both
// call it.
func CheckReportBatchShape(entries []*subnetv1.MsgReport) *TxError {
	return CheckBatchShape("report batch", "report", ReportKeys(entries))
}

// ReportKeys names each report by its submission ("submission_id = 3"),
// "" for an empty entry: the report batch's keys for CheckBatchShape.
func ReportKeys(entries []*subnetv1.MsgReport) []string {
	keys := make([]string, len(entries))
	for i, e := range entries {
		if e != nil {
			keys[i] = "submission_id = " + strconv.FormatUint(e.SubmissionId, 10)
		}
	}
	return keys
}

// CheckBatchShape is the rule that refuses a batch whole, before any entry
// is looked at: between 1 and MaxBatch entries, none empty (keys[i] == ""
// for an entry that is nil), and no target named twice. keys[i] is entry
// i's target as a reader names it ("task_id = 7", "gas 8453/20000001");
// kind names the batch in the messages ("commit batch") and verb what two
// entries do to one target ("report", "name").
func CheckBatchShape(kind, verb string, keys []string) *TxError {
	if n := len(keys); n == 0 || n > MaxBatch {
		return Reject(CodeBatchSize, fmt.Sprintf("%s has %d entries: must be in [1, %d]; split a larger one", kind, n, MaxBatch))
	}
	first := make(map[string]int, len(keys))
	for i, k := range keys {
		if k == "" {
			return Reject(CodeEmptyMsg, fmt.Sprintf("%s entry %d is empty", kind, i))
		}
		if j, ok := first[k]; ok {
			return Reject(CodeDuplicateBatchEntry, fmt.Sprintf("%s entries %d and %d both %s %s: keep one", kind, j, i, verb, k))
		}
		first[k] = i
	}
	return nil
}

// Entries is how many messages msg carries: a batch's entries, 1 for any
// other message.
func Entries(msg *subnetv1.Msg) int {
	switch b := msg.GetSum().(type) {
	case *subnetv1.Msg_ReportBatch:
		return len(b.ReportBatch.GetEntries())
	case *subnetv1.Msg_CommitBatch:
		return len(b.CommitBatch.GetEntries())
	case *subnetv1.Msg_RevealBatch:
		return len(b.RevealBatch.GetEntries())
	case *subnetv1.Msg_TruthBatch:
		return len(b.TruthBatch.GetEntries())
	}
	return 1
}
