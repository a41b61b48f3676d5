package kernel

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/x/budget"
)

// Unit owns some messages: the shell's route table sends each message to
// one unit, which checks it (validity: CheckTx, PrepareProposal,
// ProcessProposal and FinalizeBlock) and, once its signature is verified,
// executes it. Check never writes; Execute runs only on a message that
// Check accepted in the same state.
type Unit interface {
	Check(env Env, tx *Tx) *wire.TxError
	Execute(env Env, tx *Tx) []abcitypes.Event
}

// Verifier is a Unit whose messages carry signatures besides the
// envelope's. The shell charges SigUnits to the block's work budget before
// it verifies anything, then calls VerifySigs after the envelope's
// signature.
type Verifier interface {
	SigUnits(tx *Tx) int64
	VerifySigs(env Env, tx *Tx) *wire.TxError
}

// Charger is a Unit whose messages may carry more work than one
// transaction's and say how much before anything of them runs (a batch:
// one budget.UnitsTx per entry after the first). The shell charges
// MsgUnits to the block's work budget with the transaction's own units,
// before the signature is verified, so that a transaction the block cannot
// pay for costs no more than a refused one.
type Charger interface {
	MsgUnits(tx *Tx) int64
}

// Applier is a Unit that checks and executes a message in one step
// (UnitFuncs.Apply): what the shell's batches apply each entry with.
type Applier interface {
	Apply(env Env, tx *Tx) ([]abcitypes.Event, *wire.TxError)
}

// EndStep is one step of the end of block, as the shell's ordered list of
// named steps references it. It asks m before it spends, returns its events,
// and whether it carried work over to the next block (queued in state, so
// the next block picks it up).
type EndStep func(env Env, m *budget.Meter) (evs []abcitypes.Event, carried bool)

// UnitFuncs is a Unit made of two functions, for a unit whose Check and
// Execute are package functions (app/tasks, app/gas). Hold it by pointer,
// so that units compare.
type UnitFuncs struct {
	CheckFunc   func(env Env, tx *Tx) *wire.TxError
	ExecuteFunc func(env Env, tx *Tx) []abcitypes.Event
	// ApplyFunc, when set, is Apply; nil applies Check, then Execute.
	ApplyFunc func(env Env, tx *Tx) ([]abcitypes.Event, *wire.TxError)
}

// Check calls CheckFunc.
func (u UnitFuncs) Check(env Env, tx *Tx) *wire.TxError { return u.CheckFunc(env, tx) }

// Apply checks a message and, when Check accepts it, executes it: what a
// batch entry needs in one step (app/batch.go), so that a unit whose
// check and execution read the same record (a report's submission) reads
// it once, with ApplyFunc. It returns Check's refusal with nothing
// executed, or Execute's events.
func (u UnitFuncs) Apply(env Env, tx *Tx) ([]abcitypes.Event, *wire.TxError) {
	if u.ApplyFunc != nil {
		return u.ApplyFunc(env, tx)
	}
	if terr := u.CheckFunc(env, tx); terr != nil {
		return nil, terr
	}
	return u.ExecuteFunc(env, tx), nil
}

// Execute calls ExecuteFunc.
func (u UnitFuncs) Execute(env Env, tx *Tx) []abcitypes.Event { return u.ExecuteFunc(env, tx) }
