package app

import (
	"crypto/sha256"
	"errors"
	"fmt"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/track"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/membership"
)

// The membership unit: RegisterMiner's checks and execution, and the end of
// block's record of block hashes and difficulty (docs/membership.md). The
// rules are x/membership's; this file loads their inputs and stores their
// results.

// initMembership writes the initial difficulty and, as the block below the
// first one, the SHA-256 of the genesis app state, so that the first block
// can take registrations.
func initMembership(st store.State, gen genesis.AppState, initialHeight int64, appState []byte) {
	st.Save(store.KeyRegistration, &subnetv1.Registration{Difficulty: gen.Membership.InitialDifficulty})
	h := sha256.Sum256(appState)
	st.Save(store.KeyBlockHash(initialHeight-1), &subnetv1.BlockHash{Hash: h[:]})
}

// blockRegistrations is how many registrations the block at height has
// accepted so far.
func blockRegistrations(r *subnetv1.Registration, height int64) uint64 {
	if r.BlockHeight != height {
		return 0
	}
	return r.BlockRegistrations
}

// checkRegister: validator key (42), already a miner (12), the block's cap
// (53), the work's height (51) and seal (52), then a uid (13).
func (a *App) checkRegister(env track.Env, tx *track.Tx) *wire.TxError {
	if tx.Validator >= 0 {
		return wire.Reject(wire.CodeValidatorKey, fmt.Sprintf("register: sender %x is validator %q's report key; a validator must not report on its own submissions",
			tx.Body.Sender, a.chain.ValidatorName(tx.Validator)))
	}
	if tx.Account.Miner {
		return wire.Reject(wire.CodeAlreadyMiner, fmt.Sprintf("sender already has uid %d", tx.Account.Uid))
	}
	p := a.chain.Gen.Membership
	r := env.St.Registration()
	if err := membership.CheckBlockLimit(blockRegistrations(r, env.Block.Height), p); err != nil {
		return wire.Reject(wire.CodeRegistrationsFull, err.Error())
	}
	if terr := a.checkWork(env, tx, r.Difficulty); terr != nil {
		return terr
	}
	if n := env.St.Counters().Miners; int(n) >= a.chain.Gen.Chain.MaxUIDs {
		return wire.Reject(wire.CodeUIDsFull, fmt.Sprintf("all %d uids are taken", a.chain.Gen.Chain.MaxUIDs))
	}
	return nil
}

// checkWork checks the registration's work against the recorded hash of
// its block and the difficulty in force.
func (a *App) checkWork(env track.Env, tx *track.Tx, difficulty uint64) *wire.TxError {
	m := tx.Body.Msg.GetRegisterMiner()
	if m == nil {
		return wire.Reject(wire.CodeEmptyMsg, "register_miner is empty")
	}
	p := a.chain.Gen.Membership
	hash, ok := env.St.BlockHash(m.WorkHeight)
	if !ok || !membership.Fresh(m.WorkHeight, env.Block.Height, p) {
		return wire.Reject(wire.CodeStaleWork, fmt.Sprintf("work_height %d is not one of the %d blocks before %d", m.WorkHeight, p.MaxPowAgeBlocks, env.Block.Height))
	}
	w := membership.Work{Height: m.WorkHeight, BlockHash: hash, Nonce: m.Nonce}
	err := membership.CheckWork(a.chain.ID, tx.Body.Sender, w, env.Block.Height, difficulty, p)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, membership.ErrStaleWork):
		return wire.Reject(wire.CodeStaleWork, err.Error())
	default:
		return wire.Reject(wire.CodeInsufficientWork, err.Error())
	}
}

// execRegister gives the sender the next free uid and counts the
// registration for the block's cap and the interval's difficulty.
func (a *App) execRegister(env track.Env, tx *track.Tx) []abcitypes.Event {
	st := env.St
	r := st.Registration()
	r.BlockRegistrations = blockRegistrations(r, env.Block.Height) + 1
	r.BlockHeight = env.Block.Height
	r.IntervalRegistrations++
	st.Save(store.KeyRegistration, r)
	c := st.Counters()
	uid := a.chain.UIDAt(c.Miners)
	c.Miners++
	st.Save(store.KeyCounters, c)
	tx.Account.Miner, tx.Account.Uid = true, uid
	st.Save(store.KeyAccount(tx.Body.Sender), tx.Account)
	st.Save(store.KeyMiner(uid), &subnetv1.Miner{Uid: uid, Pubkey: tx.Body.Sender, RegisteredHeight: env.Block.Height})
	return []abcitypes.Event{wire.Event(wire.EventMinerRegistered, "uid", track.U64s(uint64(uid)), "pubkey", hexs(tx.Body.Sender))}
}

// endRegistration records the block's hash, forgets the one that left the
// max_pow_age_blocks window, and adjusts the difficulty at every
// adjustment_interval-th height.
func (a *App) endRegistration(env track.Env) []abcitypes.Event {
	st, h, p := env.St, env.Block.Height, a.chain.Gen.Membership
	st.Save(store.KeyBlockHash(h), &subnetv1.BlockHash{Hash: env.Block.Hash})
	if old := store.KeyBlockHash(h - p.MaxPowAgeBlocks); h-p.MaxPowAgeBlocks >= 0 && st.Has(old) {
		st.Delete(old)
	}
	if !membership.AdjustAt(h, p) {
		return nil
	}
	r := st.Registration()
	regs := r.IntervalRegistrations
	r.Difficulty, r.IntervalRegistrations = membership.NextDifficulty(r.Difficulty, regs, p), 0
	st.Save(store.KeyRegistration, r)
	return []abcitypes.Event{wire.Event(wire.EventDifficultyAdjusted, "difficulty", track.U64s(r.Difficulty), "registrations", track.U64s(regs))}
}
