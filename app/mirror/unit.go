package mirror

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Unit is the mirror unit as the shell's route table holds it:
// AttestMetagraph and BindHotkey, mirror mode only. It is a
// kernel.Verifier: a binding carries the hotkey's sr25519 signature.
var Unit interface {
	kernel.Unit
	kernel.Verifier
} = unit{}

type unit struct{}

func (unit) Check(env kernel.Env, tx *kernel.Tx) *wire.TxError {
	switch m := tx.Body.Msg.Sum.(type) {
	case *subnetv1.Msg_AttestMetagraph:
		return checkAttest(env, tx, m.AttestMetagraph)
	case *subnetv1.Msg_BindHotkey:
		return checkBind(env, tx, m.BindHotkey)
	}
	panic("mirror: Check called on a message of another unit")
}

func (unit) Execute(env kernel.Env, tx *kernel.Tx) []abcitypes.Event {
	switch tx.Body.Msg.Sum.(type) {
	case *subnetv1.Msg_AttestMetagraph:
		return execAttest(env, tx)
	case *subnetv1.Msg_BindHotkey:
		return execBind(env, tx)
	}
	panic("mirror: Execute called on a message of another unit")
}
