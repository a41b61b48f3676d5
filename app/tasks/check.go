package tasks

import (
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
)

// Unit is the task tracks' unit as the shell's route table holds it.
var Unit kernel.Unit = &kernel.UnitFuncs{CheckFunc: Check, ExecuteFunc: Execute, ApplyFunc: Apply}

// Apply checks and executes a message of the tracks in one step (a batch
// entry: kernel.UnitFuncs.Apply); a report reads its submission once.
func Apply(env kernel.Env, tx *kernel.Tx) ([]abcitypes.Event, *wire.TxError) {
	if m := tx.Body.Msg.GetReport(); m != nil {
		sub, terr := checkReportOf(env, tx, m)
		if terr != nil {
			return nil, terr
		}
		return execReportOn(env, tx, m, sub), nil
	}
	if terr := Check(env, tx); terr != nil {
		return nil, terr
	}
	return Execute(env, tx), nil
}

// Check validates the task tracks' messages: PostTask, a Commit to a task
// and a workflow or arena Reveal (the shell checked that the sender is a
// miner) and Report.
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
	}
	panic("tasks: Execute called on a message of another unit")
}
