package app

import (
	"encoding/hex"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/gas"
	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/tasks"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// execute applies a valid transaction: the nonce first, then the message,
// by the unit that checked it.
func (a *App) execute(env kernel.Env, tx *kernel.Tx) []abcitypes.Event {
	tx.Account.NextNonce++
	env.St.Save(store.KeyAccount(tx.Body.Sender), tx.Account)
	switch m := tx.Body.Msg.Sum.(type) {
	case *subnetv1.Msg_RegisterMiner:
		return a.execRegister(env, tx)
	case *subnetv1.Msg_DeregisterMiner:
		return a.execDeregister(env, tx)
	case *subnetv1.Msg_ValidatorProposal, *subnetv1.Msg_ParamsProposal:
		return a.execProposal(env, tx)
	case *subnetv1.Msg_ApproveProposal:
		return a.execApprove(env, tx)
	case *subnetv1.Msg_AttestMetagraph:
		return a.execAttest(env, tx)
	case *subnetv1.Msg_BindHotkey:
		return a.execBind(env, tx)
	case *subnetv1.Msg_PostTask, *subnetv1.Msg_Report:
		return tasks.Execute(env, tx)
	case *subnetv1.Msg_Truth:
		return gas.Execute(env, tx)
	case *subnetv1.Msg_Commit:
		if m.Commit.GetGas() != nil {
			return gas.Execute(env, tx)
		}
		return tasks.Execute(env, tx)
	case *subnetv1.Msg_Reveal:
		if m.Reveal.Submit.GetGas() != nil {
			return gas.Execute(env, tx)
		}
		return tasks.Execute(env, tx)
	}
	panic("app: execute called on a message that validity did not check")
}

func hexs(b []byte) string { return hex.EncodeToString(b) }
