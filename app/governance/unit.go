package governance

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Unit is the governance unit as the shell's route table holds it:
// ValidatorProposal, ParamsProposal and ApproveProposal.
var Unit kernel.Unit = unit{}

type unit struct{}

func (unit) Check(env kernel.Env, tx *kernel.Tx) *wire.TxError {
	switch tx.Body.Msg.Sum.(type) {
	case *subnetv1.Msg_ValidatorProposal, *subnetv1.Msg_ParamsProposal:
		return checkProposal(env, tx)
	case *subnetv1.Msg_ApproveProposal:
		return checkApprove(env, tx)
	}
	panic("governance: Check called on a message of another unit")
}

func (unit) Execute(env kernel.Env, tx *kernel.Tx) []abcitypes.Event {
	switch tx.Body.Msg.Sum.(type) {
	case *subnetv1.Msg_ValidatorProposal, *subnetv1.Msg_ParamsProposal:
		return execProposal(env, tx)
	case *subnetv1.Msg_ApproveProposal:
		return execApprove(env, tx)
	}
	panic("governance: Execute called on a message of another unit")
}
