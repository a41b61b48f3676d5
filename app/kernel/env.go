package kernel

import (
	"fmt"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
)

// Block is the block a transaction is validated and executed in: height and
// time (unix seconds) come from the request, never from the clock.
type Block struct {
	Height int64
	Time   int64
	// Mempool is set for CheckTx.
	Mempool bool
	// Hash is the block's hash (FinalizeBlock's and ProcessProposal's
	// req.Hash; empty in CheckTx and PrepareProposal, which do not record
	// it).
	Hash []byte
	// Chain is the rules in force at Height: params and validator set.
	Chain *Chain
	// Misbehavior is the evidence CometBFT gave the block (FinalizeBlock's
	// and ProcessProposal's req.Misbehavior).
	Misbehavior []abcitypes.Misbehavior
	// Updates is what the block's end returns to CometBFT as
	// validator_updates (set by the governance step).
	Updates []abcitypes.ValidatorUpdate
}

// Env is what a track unit works with: the chain, the state and the block,
// and where to charge work whose size only execution knows (an EVM block
// close touches every agent of the chain).
type Env struct {
	Chain *Chain
	St    store.State
	Block *Block
	// Charge, when set, receives units of work (x/budget) as they are spent.
	Charge func(units int64)
}

// ChargeWork passes units to env.Charge, if any.
func (env Env) ChargeWork(units int64) {
	if env.Charge != nil {
		env.Charge(units)
	}
}

// Tx is a transaction whose envelope passed validity (size, decoding,
// canonical form, sender, chain id, nonce, signature), with what was looked up.
type Tx struct {
	*wire.DecodedTx
	Account   *subnetv1.Account
	Validator int // index of the signing validator's report key, or -1
}

// RequireValidator rejects a message that only a validator's report key may send.
func (env Env) RequireValidator(tx *Tx, what string) *wire.TxError {
	if tx.Validator < 0 {
		return wire.Reject(wire.CodeNotValidator, fmt.Sprintf("%s: sender %x is not a validator's report key", what, tx.Body.Sender))
	}
	return nil
}

// RequireMode rejects a message of the other registration mode (63): a
// mirror-only message on a pow chain, or a pow-only one on a mirror chain.
func (env Env) RequireMode(mirrorOnly bool, what string) *wire.TxError {
	if env.Chain.Gen.IsMirror() == mirrorOnly {
		return nil
	}
	mode := genesis.RegistrationPoW
	if env.Chain.Gen.IsMirror() {
		mode = genesis.RegistrationMirror
	}
	return wire.Reject(wire.CodeWrongRegistrationMode, fmt.Sprintf("%s: not in chain.registration = %s", what, mode))
}

// RequireTrack rejects a message of a track that does not run on this chain.
func (env Env) RequireTrack(name string) *wire.TxError {
	if !env.Chain.Gen.HasTrack(name) {
		return wire.Reject(wire.CodeTrackDisabled, fmt.Sprintf("track %q does not run on this chain", name))
	}
	return nil
}

// NewSubmission numbers a new submission of uid on the track from its
// commit, status committed at this block's height and time (the caller fills
// in its target and saves it).
func (env Env) NewSubmission(trackName string, uid uint32, commitment []byte) *subnetv1.Submission {
	c := env.St.Counters()
	sub := &subnetv1.Submission{Id: c.NextSubmissionId, Track: trackName, Uid: uid, Height: env.Block.Height,
		BlockTime: env.Block.Time, Status: StatusCommitted, Commitment: append([]byte(nil), commitment...)}
	c.NextSubmissionId++
	env.St.Save(store.KeyCounters, c)
	env.St.IncU64(store.KeyTrackCount(store.TrackAwaitingReveal, trackName))
	env.St.O.Create(store.KeyMinerSub(uid, sub.Id), []byte{}) // ids are handed out once
	return sub
}
