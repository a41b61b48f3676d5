package gas

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/track"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// Check validates the gas track's messages: a gas Submit (the shell checked
// that the sender is a miner) and a Truth.
func Check(env track.Env, tx *track.Tx) *wire.TxError {
	switch m := tx.Body.Msg.Sum.(type) {
	case *subnetv1.Msg_Submit:
		g := m.Submit.GetGas()
		if g == nil {
			return wire.Reject(wire.CodeEmptyMsg, "submit.gas is empty")
		}
		return checkPrediction(env, g, tx.Account.Uid)
	case *subnetv1.Msg_Truth:
		return checkTruth(env, tx, m.Truth)
	}
	panic("gas: Check called on a message of another unit")
}

// Execute applies a message that Check accepted.
func Execute(env track.Env, tx *track.Tx) []abcitypes.Event {
	switch m := tx.Body.Msg.Sum.(type) {
	case *subnetv1.Msg_Submit:
		return execPrediction(env, m.Submit.GetGas(), tx.Account.Uid)
	case *subnetv1.Msg_Truth:
		return execTruth(env, tx, m.Truth)
	}
	panic("gas: Execute called on a message of another unit")
}

// SettleDueTruths settles, at their deadline, the truth rounds of the due
// list that are still pending, each in a child overlay: when its close
// would take the block past the meter's truth limit the round expires
// instead and its EVM block stays open, so the block always fits one badger
// transaction.
func SettleDueTruths(env track.Env, refs []*subnetv1.TruthRef, m *budget.Meter) []abcitypes.Event {
	var evs []abcitypes.Event
	for _, ref := range refs {
		evs = append(evs, settleTruthAtDeadline(env, ref, m)...)
	}
	return evs
}

func settleTruthAtDeadline(env track.Env, ref *subnetv1.TruthRef, m *budget.Meter) []abcitypes.Event {
	st := env.St
	k := store.KeyTruth(ref.EvmChainId, ref.EvmBlock)
	child := env
	child.St = store.State{O: store.NewOverlay(st.O)}
	r, _ := child.St.Truth(ref.EvmChainId, ref.EvmBlock)
	if r.Status != track.StatusPending {
		return nil
	}
	evs := settleTruth(child, r, true)
	child.St.Save(k, r)
	if m.TruthFits(child.St.O.Size()) {
		child.St.O.MergeInto(st.O)
		return evs
	}
	r, _ = st.Truth(ref.EvmChainId, ref.EvmBlock)
	r.Status, r.ClosedHeight = track.StatusExpired, env.Block.Height
	st.Save(k, r)
	return nil
}

// Track is the gas track: a miner's aggregate is the mean of its latest
// TotalScore over the EVM chains where it has one.
var Track track.Track = gasTrack{}

type gasTrack struct{}

func (gasTrack) Name() string { return genesis.TrackGas }

func (gasTrack) Aggregate(env track.Env, uid uint32) (decimal.Decimal, bool) {
	var scores []decimal.Decimal
	for _, chain := range env.Chain.Gen.Chain.GasChains {
		pa := &subnetv1.GasAgent{}
		if env.St.Load(store.KeyGasAgent(chain, uid), pa) && pa.HasScore {
			scores = append(scores, track.Dec(pa.Score))
		}
	}
	if len(scores) == 0 {
		return decimal.Decimal{}, false
	}
	s, err := scoring.Mean(scores)
	return s, err == nil
}
