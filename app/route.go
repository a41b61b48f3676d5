package app

import (
	"fmt"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/gas"
	"github.com/scoringsubnet/validatord/app/governance"
	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/membership"
	"github.com/scoringsubnet/validatord/app/mirror"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/tasks"
	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// route is where a message goes: its unit, or the refusal of a message
// that reaches none (empty, or without the content that picks the unit).
type route struct {
	unit kernel.Unit
	// miner, when set, is the message's name in the refusal of a sender
	// that is not a registered miner, checked before anything else of it.
	miner string
	err   *wire.TxError
}

// routeOf is the route table: every message kind and its unit. Validity
// (validate) and execution (execute) both go through it, so the choice of
// unit — for a Commit, gas by its target and tasks by its task_id; for a
// Reveal, gas by a gas submit and tasks by a workflow or arena one — is
// made here only. A new message is one more row.
func routeOf(msg *subnetv1.Msg) route {
	switch m := msg.Sum.(type) {
	case *subnetv1.Msg_RegisterMiner, *subnetv1.Msg_DeregisterMiner:
		return route{unit: membership.Unit}
	case *subnetv1.Msg_Serve:
		return route{miner: "serve", unit: membership.Unit}
	case *subnetv1.Msg_AttestMetagraph, *subnetv1.Msg_BindHotkey:
		return route{unit: mirror.Unit}
	case *subnetv1.Msg_ValidatorProposal, *subnetv1.Msg_ParamsProposal, *subnetv1.Msg_ApproveProposal:
		return route{unit: governance.Unit}
	case *subnetv1.Msg_PostTask, *subnetv1.Msg_Report:
		return route{unit: tasks.Unit}
	case *subnetv1.Msg_Truth:
		return route{unit: gas.Unit}
	case *subnetv1.Msg_CommitBatch:
		return route{miner: "commit batch", unit: theBatchUnit}
	case *subnetv1.Msg_RevealBatch:
		return route{miner: "reveal batch", unit: theBatchUnit}
	case *subnetv1.Msg_TruthBatch, *subnetv1.Msg_ReportBatch:
		return route{unit: theBatchUnit}
	case *subnetv1.Msg_Commit:
		r := route{miner: "commit"}
		if m.Commit == nil {
			r.err = wire.Reject(wire.CodeEmptyMsg, "commit is empty")
			return r
		}
		switch m.Commit.Target.(type) {
		case *subnetv1.MsgCommit_TaskId:
			r.unit = tasks.Unit
		case *subnetv1.MsgCommit_Gas:
			r.unit = gas.Unit
		default:
			r.err = wire.Reject(wire.CodeEmptyMsg, "commit has no target (task_id or gas)")
		}
		return r
	case *subnetv1.Msg_Reveal:
		r := route{miner: "reveal"}
		if m.Reveal == nil || m.Reveal.Submit == nil {
			r.err = wire.Reject(wire.CodeEmptyMsg, "reveal has no submit")
			return r
		}
		switch m.Reveal.Submit.Kind.(type) {
		case *subnetv1.MsgSubmit_Workflow, *subnetv1.MsgSubmit_Arena:
			r.unit = tasks.Unit
		case *subnetv1.MsgSubmit_Gas:
			r.unit = gas.Unit
		default:
			r.err = wire.Reject(wire.CodeEmptyMsg, "reveal.submit has no content")
		}
		return r
	}
	return route{err: wire.Reject(wire.CodeEmptyMsg, "msg has no content")}
}

// checkMsg checks the message by its unit, after the route's own checks:
// a message at all, a miner for a Commit or Reveal, a unit to go to.
func checkMsg(env kernel.Env, tx *kernel.Tx) *wire.TxError {
	u, terr := checkRoute(tx)
	if terr != nil {
		return terr
	}
	return u.Check(env, tx)
}

// checkRoute is the route's own checks of checkMsg, and the unit the
// message goes to when they pass.
func checkRoute(tx *kernel.Tx) (kernel.Unit, *wire.TxError) {
	if tx.Body.Msg == nil {
		return nil, wire.Reject(wire.CodeEmptyMsg, "msg is missing")
	}
	r := routeOf(tx.Body.Msg)
	if r.miner != "" && !tx.Account.Miner {
		return nil, wire.Reject(wire.CodeNotMiner, fmt.Sprintf("%s: sender %x is not a registered miner", r.miner, tx.Body.Sender))
	}
	if r.err != nil {
		return nil, r.err
	}
	return r.unit, nil
}

// execute applies a valid transaction: the nonce first, then the message,
// by the unit that checked it.
func execute(env kernel.Env, tx *kernel.Tx) []abcitypes.Event {
	tx.Account.NextNonce++
	env.St.Save(store.KeyAccount(tx.Body.Sender), tx.Account)
	r := routeOf(tx.Body.Msg)
	if r.unit == nil {
		panic("app: execute called on a message that validity did not check")
	}
	return r.unit.Execute(env, tx)
}

// msgUnits is the work a valid message adds to budget.UnitsTx before its
// signatures are verified: its unit's, when the unit is a kernel.Verifier
// (its own signatures) or a kernel.Charger (a batch's entries).
func msgUnits(tx *kernel.Tx) int64 {
	u := routeOf(tx.Body.Msg).unit
	var n int64
	if v, ok := u.(kernel.Verifier); ok {
		n += v.SigUnits(tx)
	}
	if c, ok := u.(kernel.Charger); ok {
		n += c.MsgUnits(tx)
	}
	return n
}

// verifyMsg verifies the signatures a valid message carries besides the
// envelope's, after the block's budget paid for them (msgUnits).
func verifyMsg(env kernel.Env, tx *kernel.Tx) *wire.TxError {
	if v, ok := routeOf(tx.Body.Msg).unit.(kernel.Verifier); ok {
		return v.VerifySigs(env, tx)
	}
	return nil
}
