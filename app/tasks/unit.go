package tasks

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
)

// Unit is the task tracks' unit as the shell's route table holds it.
var Unit kernel.Unit = unit{}

type unit struct{}

func (unit) Check(env kernel.Env, tx *kernel.Tx) *wire.TxError       { return Check(env, tx) }
func (unit) Execute(env kernel.Env, tx *kernel.Tx) []abcitypes.Event { return Execute(env, tx) }
