package tasks

import (
	"fmt"
	"strconv"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// A report batch is many MsgReports under one signature. Its entries are
// independent: each is checked and executed in order exactly as the single
// report would be, and a refused entry changes nothing while the others
// apply. The batch is refused whole by its shape (wire.CheckReportBatchShape:
// size, a submission named twice) and when every entry is refused.
//
// Checking every entry against the state before the batch gives the same
// verdicts as checking each in its turn: the entries name distinct
// submissions, a report writes only its own submission (and the miner's
// window or the arena queue when it settles), and what a report's check
// reads of another submission — a duplicate_of's track, task, reveal
// height, commit height and uid — no report changes. So the batch that
// Check accepts applies at least one entry when executed.

// checkReportBatch refuses a batch that is not a validator's, has a bad
// shape, or whose every entry the single report's check refuses (with the
// first entry's code).
func checkReportBatch(env kernel.Env, tx *kernel.Tx, b *subnetv1.MsgReportBatch) *wire.TxError {
	if terr := env.RequireValidator(tx, "report batch"); terr != nil {
		return terr
	}
	if terr := wire.CheckReportBatchShape(b.GetEntries()); terr != nil {
		return terr
	}
	var first *wire.TxError
	for _, e := range b.Entries {
		terr := checkReport(env, tx, e)
		if terr == nil {
			return nil
		}
		if first == nil {
			first = terr
		}
	}
	return wire.Reject(first.Code, fmt.Sprintf("every entry of the report batch was refused; entry 0 (submission_id = %d): %s",
		b.Entries[0].SubmissionId, first.Msg))
}

// execReportBatch applies each entry that the single report's check
// accepts in the state its predecessors left, and emits a report_entry
// event per entry (its index, submission, code and code name; a refused
// entry's message as log) before the entry's own events. Its entries were
// charged before the signature was verified (MsgUnits).
func execReportBatch(env kernel.Env, tx *kernel.Tx, b *subnetv1.MsgReportBatch) []abcitypes.Event {
	var evs []abcitypes.Event
	for i, e := range b.Entries {
		sub, terr := checkReportOf(env, tx, e)
		if terr != nil {
			evs = append(evs, entryEvent(i, e, terr.Code, "log", terr.Msg))
			continue
		}
		evs = append(evs, entryEvent(i, e, wire.CodeOK))
		evs = append(evs, execReportOn(env, tx, e, sub)...)
	}
	return evs
}

// entryEvent is the report_entry event of entry i with its code.
func entryEvent(i int, e *subnetv1.MsgReport, code uint32, kv ...string) abcitypes.Event {
	attrs := append([]string{"index", strconv.Itoa(i), "submission_id", kernel.U64s(e.SubmissionId),
		"code", strconv.FormatUint(uint64(code), 10), "name", wire.CodeName(code)}, kv...)
	return wire.Event(wire.EventReportEntry, attrs...)
}
