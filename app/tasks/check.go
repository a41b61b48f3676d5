package tasks

import (
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/x/budget"
)

// Unit is the task tracks' unit as the shell's route table holds it.
var Unit kernel.Unit = &kernel.UnitFuncs{CheckFunc: Check, ExecuteFunc: Execute, UnitsFunc: MsgUnits}

// MsgUnits is the work a message of the tracks carries beyond one
// transaction's: a report batch's entries after the first, budget.UnitsTx
// each, as the transactions they replace (kernel.Charger).
func MsgUnits(tx *kernel.Tx) int64 {
	if b := tx.Body.Msg.GetReportBatch(); b != nil && len(b.Entries) > 1 {
		return int64(len(b.Entries)-1) * budget.UnitsTx
	}
	return 0
}

// Check validates the task tracks' messages: PostTask, a Commit to a task
// and a workflow or arena Reveal (the shell checked that the sender is a
// miner), Report and a report batch.
func Check(env kernel.Env, tx *kernel.Tx) *wire.TxError {
	switch m := tx.Body.Msg.Sum.(type) {
	case *subnetv1.Msg_PostTask:
		return checkPostTask(env, tx, m.PostTask)
	case *subnetv1.Msg_Commit:
		return checkCommit(env, tx, m.Commit)
	case *subnetv1.Msg_Reveal:
		return checkReveal(env, tx, m.Reveal)
	case *subnetv1.Msg_Report:
		return checkReport(env, tx, m.Report)
	case *subnetv1.Msg_ReportBatch:
		return checkReportBatch(env, tx, m.ReportBatch)
	}
	panic("tasks: Check called on a message of another unit")
}

// Execute applies a message that Check accepted.
func Execute(env kernel.Env, tx *kernel.Tx) []abcitypes.Event {
	switch m := tx.Body.Msg.Sum.(type) {
	case *subnetv1.Msg_PostTask:
		return execPostTask(env, tx, m.PostTask)
	case *subnetv1.Msg_Commit:
		return execCommit(env, tx, m.Commit)
	case *subnetv1.Msg_Reveal:
		return execReveal(env, tx, m.Reveal)
	case *subnetv1.Msg_Report:
		return execReport(env, tx, m.Report)
	case *subnetv1.Msg_ReportBatch:
		return execReportBatch(env, tx, m.ReportBatch)
	}
	panic("tasks: Execute called on a message of another unit")
}
