package membership

import (
	"fmt"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
)

// Unit is the membership unit as the shell's route table holds it:
// RegisterMiner and DeregisterMiner, pow mode only, and Serve, in either
// mode.
var Unit kernel.Unit = unit{}

type unit struct{}

func (unit) Check(env kernel.Env, tx *kernel.Tx) *wire.TxError {
	switch tx.Body.Msg.Sum.(type) {
	case *subnetv1.Msg_RegisterMiner:
		if terr := env.RequireMode(false, "register_miner"); terr != nil {
			return terr
		}
		return checkRegister(env, tx)
	case *subnetv1.Msg_DeregisterMiner:
		if terr := env.RequireMode(false, "deregister_miner"); terr != nil {
			return terr
		}
		if !tx.Account.Miner {
			return wire.Reject(wire.CodeNotMiner, fmt.Sprintf("deregister: sender %x is not a registered miner", tx.Body.Sender))
		}
		return nil
	case *subnetv1.Msg_Serve:
		return checkServe(env, tx)
	}
	panic("membership: Check called on a message of another unit")
}

func (unit) Execute(env kernel.Env, tx *kernel.Tx) []abcitypes.Event {
	switch tx.Body.Msg.Sum.(type) {
	case *subnetv1.Msg_RegisterMiner:
		return execRegister(env, tx)
	case *subnetv1.Msg_DeregisterMiner:
		return execDeregister(env, tx)
	case *subnetv1.Msg_Serve:
		return execServe(env, tx)
	}
	panic("membership: Execute called on a message of another unit")
}

// End is the end of block's "registration" step (pow mode only): the
// block's hash for the registrations of the next blocks, and the
// difficulty at every adjustment_interval-th height: one write, one delete
// and at most one adjustment.
func End(env kernel.Env, m *budget.Meter) ([]abcitypes.Event, bool) {
	if env.Chain.Gen.IsMirror() {
		return nil, false
	}
	m.ChargeEnd(budget.UnitsDueItem)
	return endRegistration(env), false
}
