package membership

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
	xmembership "github.com/scoringsubnet/validatord/x/membership"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// Init writes the initial difficulty and, as the block below the
// first one, the SHA-256 of the genesis app state, so that the first block
// can take registrations.
func Init(st store.State, gen genesis.AppState, initialHeight int64, appState []byte) {
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
func checkRegister(env kernel.Env, tx *kernel.Tx) *wire.TxError {
	if tx.Validator >= 0 {
		return wire.Reject(wire.CodeValidatorKey, fmt.Sprintf("register: sender %x is validator %q's report key; a validator must not report on its own submissions",
			tx.Body.Sender, env.Chain.ValidatorName(tx.Validator)))
	}
	if tx.Account.Miner {
		return wire.Reject(wire.CodeAlreadyMiner, fmt.Sprintf("sender already has uid %d", tx.Account.Uid))
	}
	p := env.Chain.Gen.Membership
	r := env.St.Registration()
	if err := xmembership.CheckBlockLimit(blockRegistrations(r, env.Block.Height), p); err != nil {
		return wire.Reject(wire.CodeRegistrationsFull, err.Error())
	}
	if terr := checkWork(env, tx, r.Difficulty); terr != nil {
		return terr
	}
	if n := env.St.Counters().Miners; int(n) >= env.Chain.Gen.Chain.MaxUIDs && r.FreeHead == r.FreeTail {
		if _, _, ok := replacement(env, r); !ok {
			return wire.Reject(wire.CodeUIDsFull, fmt.Sprintf("all %d uids are taken and none can be replaced: %d are out of their immunity, more than min_non_immune = %d must be",
				env.Chain.Gen.Chain.MaxUIDs, r.NonImmune, env.Chain.Gen.Membership.MinNonImmune))
		}
	}
	return nil
}

// replacement is the uid a registration replaces when every uid is taken
// (xmembership.ChooseOrdered over the last epoch's prune queue) and its
// position in the queue. The queue holds every miner registered before
// that epoch; later ones are immune until the next epoch rewrites it
// (immunity_blocks > the scoring lag ≥ epoch_blocks). Entries consumed by
// an earlier replacement are gone, entries of a uid registered again since
// are skipped: the walk reads at most the queue's length.
func replacement(env kernel.Env, r *subnetv1.Registration) (uid uint32, pos uint64, ok bool) {
	st := env.St
	ordered := func(yield func(xmembership.Candidate) bool) {
		for pos = r.QueueHead; pos < r.QueueLen; pos++ {
			env.ChargeWork(budget.UnitsLookup)
			e := &subnetv1.PruneEntry{}
			m := &subnetv1.Miner{}
			if !st.Load(store.KeyPruneQueue(pos), e) || !st.Load(store.KeyMiner(e.Uid), m) || m.RegisteredHeight != e.RegisteredHeight {
				continue
			}
			if !yield(xmembership.Candidate{UID: e.Uid, Weight: e.Weight, RegisteredHeight: e.RegisteredHeight}) {
				return
			}
		}
	}
	uid, ok = xmembership.ChooseOrdered(ordered, r.NonImmune, env.Block.Height, env.Chain.Gen.Membership)
	return uid, pos, ok
}

// checkWork checks the registration's work against the recorded hash of
// its block and the difficulty in force.
func checkWork(env kernel.Env, tx *kernel.Tx, difficulty uint64) *wire.TxError {
	m := tx.Body.Msg.GetRegisterMiner()
	if m == nil {
		return wire.Reject(wire.CodeEmptyMsg, "register_miner is empty")
	}
	p := env.Chain.Gen.Membership
	hash, ok := env.St.BlockHash(m.WorkHeight)
	if !ok || !xmembership.Fresh(m.WorkHeight, env.Block.Height, p) {
		return wire.Reject(wire.CodeStaleWork, fmt.Sprintf("work_height %d is not one of the %d blocks before %d", m.WorkHeight, p.MaxPowAgeBlocks, env.Block.Height))
	}
	w := xmembership.Work{Height: m.WorkHeight, BlockHash: hash, Nonce: m.Nonce}
	err := xmembership.CheckWork(env.Chain.ID, tx.Body.Sender, w, env.Block.Height, difficulty, p)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, xmembership.ErrStaleWork):
		return wire.Reject(wire.CodeStaleWork, err.Error())
	default:
		return wire.Reject(wire.CodeInsufficientWork, err.Error())
	}
}

// execRegister gives the sender the next free uid and counts the
// registration for the block's cap and the interval's difficulty.
func execRegister(env kernel.Env, tx *kernel.Tx) []abcitypes.Event {
	st := env.St
	r := st.Registration()
	r.BlockRegistrations = blockRegistrations(r, env.Block.Height) + 1
	r.BlockHeight = env.Block.Height
	r.IntervalRegistrations++
	st.SetRegCount(env.Block.Height, st.RegCount(env.Block.Height)+1)
	c := st.Counters()
	var evs []abcitypes.Event
	var uid uint32
	switch {
	case int(c.Miners) < env.Chain.Gen.Chain.MaxUIDs:
		uid = env.Chain.UIDAt(c.Miners)
		c.Miners++
		st.Save(store.KeyCounters, c)
	case r.FreeHead < r.FreeTail:
		uid = takeFree(st, r)
	default:
		var pos uint64
		uid, pos, _ = replacement(env, r) // validity found one in this same state
		evs = append(evs, vacate(env, r, uid, pos, tx.Body.Sender))
	}
	st.Save(store.KeyRegistration, r)
	tx.Account.Miner, tx.Account.Uid = true, uid
	st.Save(store.KeyAccount(tx.Body.Sender), tx.Account)
	st.Save(store.KeyMiner(uid), &subnetv1.Miner{Uid: uid, Pubkey: tx.Body.Sender, RegisteredHeight: env.Block.Height,
		FirstSubmission: c.NextSubmissionId})
	return append(evs, wire.Event(wire.EventMinerRegistered, "uid", kernel.U64s(uint64(uid)), "pubkey", kernel.Hexs(tx.Body.Sender)))
}

// vacate takes uid from its owner for newOwner (Clear), consumes its
// queue entry and stops counting it as non-immune.
func vacate(env kernel.Env, r *subnetv1.Registration, uid uint32, pos uint64, newOwner []byte) abcitypes.Event {
	old := Clear(env, uid)
	env.St.Delete(store.KeyPruneQueue(pos))
	if pos == r.QueueHead {
		r.QueueHead++
	}
	r.NonImmune--
	return wire.Event(wire.EventMinerReplaced, "uid", kernel.U64s(uint64(uid)), "old_pubkey", kernel.Hexs(old.Pubkey),
		"new_pubkey", kernel.Hexs(newOwner), "old_registered_height", kernel.I64s(old.RegisteredHeight))
}

// Clear takes uid from its owner and returns the owner's record: the
// owner's account loses its uid, the uid's windows (both tracks) and gas
// agents (one per genesis gas chain) are deleted. The owner's submissions
// are not touched: their ids are below the next owner's first_submission,
// so settlement and scoring void them (kernel.PreviousOwner). At most
// 2 + len(gas_chains) deletes.
func Clear(env kernel.Env, uid uint32) *subnetv1.Miner {
	st := env.St
	old := &subnetv1.Miner{}
	st.Load(store.KeyMiner(uid), old)
	acc := st.Account(old.Pubkey)
	acc.Miner, acc.Uid = false, 0
	st.Save(store.KeyAccount(old.Pubkey), acc)
	keys := [][]byte{store.KeyWindow(store.WindowWorkflow, uid), store.KeyWindow(store.WindowArena, uid)}
	for _, chain := range env.Chain.Gen.Chain.GasChains {
		keys = append(keys, store.KeyGasAgent(chain, uid))
	}
	for _, k := range keys {
		if st.Has(k) {
			st.Delete(k)
		}
	}
	env.ChargeWork(budget.UnitsDueItem * int64(len(keys)+1))
	return old
}

// execDeregister frees the sender's uid: cleared as by a replacement (Clear), its
// miner record deleted (its prune queue entry is then skipped), the uid
// queued for the next registration, and the registration no longer counted
// (non-immune, or in its height's immune count).
func execDeregister(env kernel.Env, tx *kernel.Tx) []abcitypes.Event {
	st, uid := env.St, tx.Account.Uid
	old := Clear(env, uid)
	st.Delete(store.KeyMiner(uid))
	tx.Account.Miner, tx.Account.Uid = false, 0 // the account Clear saved; keep the tx's copy in step
	r := st.Registration()
	c := xmembership.Candidate{UID: uid, RegisteredHeight: old.RegisteredHeight}
	if xmembership.Immune(c, env.Block.Height, env.Chain.Gen.Membership) {
		st.SetRegCount(old.RegisteredHeight, st.RegCount(old.RegisteredHeight)-1)
	} else {
		r.NonImmune--
	}
	st.O.Set(store.KeyFreeUID(r.FreeTail), store.U64Bytes(uint64(uid)))
	r.FreeTail++
	st.Save(store.KeyRegistration, r)
	return []abcitypes.Event{wire.Event(wire.EventMinerDeregistered, "uid", kernel.U64s(uint64(uid)), "pubkey", kernel.Hexs(old.Pubkey))}
}

// takeFree pops the oldest uid freed by deregistration.
func takeFree(st store.State, r *subnetv1.Registration) uint32 {
	k := store.KeyFreeUID(r.FreeHead)
	bz, _ := st.O.Get(k)
	st.Delete(k)
	r.FreeHead++
	return uint32(binary.BigEndian.Uint64(bz))
}

// endRegistration records the block's hash, forgets the one that left the
// max_pow_age_blocks window, and adjusts the difficulty at every
// adjustment_interval-th height.
func endRegistration(env kernel.Env) []abcitypes.Event {
	st, h, p := env.St, env.Block.Height, env.Chain.Gen.Membership
	st.Save(store.KeyBlockHash(h), &subnetv1.BlockHash{Hash: env.Block.Hash})
	if old := store.KeyBlockHash(h - p.MaxPowAgeBlocks); h-p.MaxPowAgeBlocks >= 0 && st.Has(old) {
		st.Delete(old)
	}
	r := st.Registration()
	// The registrations of height h+1-immunity_blocks leave their immunity
	// at h+1.
	if aged := xmembership.ImmuneFrom(h+1, p) - 1; aged >= 0 {
		if n := st.RegCount(aged); n > 0 {
			r.NonImmune += n
			st.SetRegCount(aged, 0)
			st.Save(store.KeyRegistration, r)
		}
	}
	if !xmembership.AdjustAt(h, p) {
		return nil
	}
	regs := r.IntervalRegistrations
	r.Difficulty, r.IntervalRegistrations = xmembership.NextDifficulty(r.Difficulty, regs, p), 0
	st.Save(store.KeyRegistration, r)
	return []abcitypes.Event{wire.Event(wire.EventDifficultyAdjusted, "difficulty", kernel.U64s(r.Difficulty), "registrations", kernel.U64s(regs))}
}

// WritePruneQueue rewrites the prune queue at an epoch: every miner, by
// xmembership.PruneOrder of its u16 weight in this epoch (0 if none), its
// registration height and its uid. The epoch walks every miner already;
// this adds one read and one write per miner.
func WritePruneQueue(env kernel.Env, u16 []scoring.U16Weight) {
	st := env.St
	weight := make(map[uint32]uint64, len(u16))
	for _, w := range u16 {
		weight[uint32(w.UID)] = uint64(w.Weight)
	}
	miners := st.Counters().Miners
	cs := make([]xmembership.Candidate, 0, miners)
	for n := uint32(0); n < miners; n++ {
		uid := env.Chain.UIDAt(n)
		m := &subnetv1.Miner{}
		if !st.Load(store.KeyMiner(uid), m) {
			continue // freed by deregistration
		}
		cs = append(cs, xmembership.Candidate{UID: uid, Weight: weight[uid], RegisteredHeight: m.RegisteredHeight})
	}
	sort.Slice(cs, func(i, j int) bool { return xmembership.PruneOrder(cs[i], cs[j]) })
	r := st.Registration()
	for pos, c := range cs {
		st.Save(store.KeyPruneQueue(uint64(pos)), &subnetv1.PruneEntry{Uid: c.UID, Weight: c.Weight, RegisteredHeight: c.RegisteredHeight})
	}
	for pos := uint64(len(cs)); pos < r.QueueLen; pos++ {
		if st.Has(store.KeyPruneQueue(pos)) {
			st.Delete(store.KeyPruneQueue(pos))
		}
	}
	r.QueueHead, r.QueueLen = 0, uint64(len(cs))
	st.Save(store.KeyRegistration, r)
}
