package mirror

import (
	"bytes"
	"errors"
	"fmt"
	"sort"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/membership"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
	xmirror "github.com/scoringsubnet/validatord/x/mirror"
)

// Init writes, in mirror mode, the mode's record (start_block as the
// last final parent block) and counts every parent uid but the burn uid as
// handed out, so that the epoch and the gas closes walk the parent's uids
// (kernel.Chain.UIDAt) as they walk registered ones in pow mode.
func Init(st store.State, gen genesis.AppState) {
	if !gen.IsMirror() {
		return
	}
	st.Save(store.KeyMirrorState, &subnetv1.MirrorState{FinalBlock: gen.Mirror.StartBlock})
	c := st.Counters()
	c.Miners = uint32(gen.Chain.MaxUIDs - 1)
	st.Save(store.KeyCounters, c)
}

func LoadState(st store.State) *subnetv1.MirrorState {
	ms := &subnetv1.MirrorState{}
	st.Load(store.KeyMirrorState, ms)
	return ms
}

// checkAttest: mode (63), validator (10), digest size (68), the parent
// block's cadence (65) and freshness (64), one vote per validator and
// parent block (66), open rounds per validator (67), then the snapshot:
// decoded, of this parent block and digest (68), or already stored (69).
func checkAttest(env kernel.Env, tx *kernel.Tx, m *subnetv1.MsgAttestMetagraph) *wire.TxError {
	if terr := env.RequireMode(true, "attest_metagraph"); terr != nil {
		return terr
	}
	if m == nil {
		return wire.Reject(wire.CodeEmptyMsg, "attest_metagraph is empty")
	}
	if terr := env.RequireValidator(tx, "attest_metagraph"); terr != nil {
		return terr
	}
	if len(m.Digest) != 32 {
		return wire.Reject(wire.CodeBadSnapshot, fmt.Sprintf("digest has %d bytes, want 32", len(m.Digest)))
	}
	st, p := env.St, env.Chain.Gen.MirrorParams()
	ms := LoadState(st)
	if err := xmirror.CheckAttestation(m.ParentBlock, ms.FinalBlock, p); err != nil {
		if errors.Is(err, xmirror.ErrStaleAttestation) {
			return wire.Reject(wire.CodeAttestationStale, err.Error())
		}
		return wire.Reject(wire.CodeAttestationCadence, err.Error())
	}
	round := &subnetv1.MirrorRound{}
	st.Load(store.KeyMirrorRound(m.ParentBlock), round)
	for _, v := range round.Votes {
		if bytes.Equal(v.ReportKey, tx.Body.Sender) {
			return wire.Reject(wire.CodeDuplicateAttestation, fmt.Sprintf("report key %x already attested parent block %d", tx.Body.Sender, m.ParentBlock))
		}
	}
	if n := st.U64(store.KeyMirrorOpen(tx.Body.Sender)); n >= genesis.MirrorMaxOpenAttestations {
		return wire.Reject(wire.CodeTooManyOpenAttestations, fmt.Sprintf("report key %x already votes in %d open rounds (at most %d until one becomes final)",
			tx.Body.Sender, n, genesis.MirrorMaxOpenAttestations))
	}
	return checkSnapshot(st, m, p)
}

// checkSnapshot checks the attestation's snapshot against its digest and
// parent block, or, when it carries none, that one is stored for them.
func checkSnapshot(st store.State, m *subnetv1.MsgAttestMetagraph, p xmirror.Params) *wire.TxError {
	if len(m.Snapshot) == 0 {
		body := &subnetv1.MirrorBody{}
		if !st.Load(store.KeyMirrorBody(m.Digest), body) || body.ParentBlock != m.ParentBlock {
			return wire.Reject(wire.CodeSnapshotMissing, fmt.Sprintf("no snapshot with digest %x is stored for parent block %d: send it with the vote", m.Digest, m.ParentBlock))
		}
		return nil
	}
	s, err := xmirror.Decode(m.Snapshot, p)
	if err != nil {
		return wire.Reject(wire.CodeBadSnapshot, err.Error())
	}
	if s.ParentBlock != m.ParentBlock {
		return wire.Reject(wire.CodeBadSnapshot, fmt.Sprintf("the snapshot is of parent block %d, the vote of %d", s.ParentBlock, m.ParentBlock))
	}
	if d := s.Digest(); !bytes.Equal(d[:], m.Digest) {
		return wire.Reject(wire.CodeBadSnapshot, fmt.Sprintf("the snapshot's digest is %x, the vote's %x", d, m.Digest))
	}
	return nil
}

// execAttest records the vote in its round, stores the snapshot if it is
// the first of its digest, counts the round as open for the validator and
// marks the parent block for the end of block's mirror step.
func execAttest(env kernel.Env, tx *kernel.Tx) []abcitypes.Event {
	st, m := env.St, tx.Body.Msg.GetAttestMetagraph()
	round := &subnetv1.MirrorRound{}
	st.Load(store.KeyMirrorRound(m.ParentBlock), round)
	round.Votes = append(round.Votes, &subnetv1.MirrorVote{ReportKey: tx.Body.Sender, Digest: m.Digest})
	st.Save(store.KeyMirrorRound(m.ParentBlock), round)
	if len(m.Snapshot) > 0 && !st.Has(store.KeyMirrorBody(m.Digest)) {
		st.Save(store.KeyMirrorBody(m.Digest), &subnetv1.MirrorBody{ParentBlock: m.ParentBlock, Snapshot: m.Snapshot})
	}
	st.SetU64(store.KeyMirrorOpen(tx.Body.Sender), st.U64(store.KeyMirrorOpen(tx.Body.Sender))+1)
	ms := LoadState(st)
	ms.OpenBlocks = insertSorted(ms.OpenBlocks, m.ParentBlock)
	ms.Touched = insertSorted(ms.Touched, m.ParentBlock)
	st.Save(store.KeyMirrorState, ms)
	return []abcitypes.Event{wire.Event(wire.EventMirrorAttested, "report_key", kernel.Hexs(tx.Body.Sender),
		"parent_block", kernel.U64s(m.ParentBlock), "digest", kernel.Hexs(m.Digest))}
}

// insertSorted adds v to the ascending xs unless it is there.
func insertSorted(xs []uint64, v uint64) []uint64 {
	i := sort.Search(len(xs), func(i int) bool { return xs[i] >= v })
	if i < len(xs) && xs[i] == v {
		return xs
	}
	return append(xs[:i], append([]uint64{v}, xs[i:]...)...)
}

// bindingOf is the binding a MsgBindHotkey asks for.
func bindingOf(tx *kernel.Tx, m *subnetv1.MsgBindHotkey) xmirror.Binding {
	b := xmirror.Binding{UID: m.Uid, ParentBlock: m.ParentBlock}
	copy(b.TxKey[:], tx.Body.Sender)
	copy(b.Signature[:], m.Signature)
	return b
}

// checkBind: mode (63), not a validator's report key (42), the tx key holds
// no other uid (75), not the burn uid and in the final snapshot (70), the
// signature's size (74), its parent block fresh (71) and not before the
// uid's registration (72), after the uid's current binding's (73). The
// signature itself is verified by VerifySigs, once the block paid for it.
func checkBind(env kernel.Env, tx *kernel.Tx, m *subnetv1.MsgBindHotkey) *wire.TxError {
	if terr := env.RequireMode(true, "bind_hotkey"); terr != nil {
		return terr
	}
	if m == nil {
		return wire.Reject(wire.CodeEmptyMsg, "bind_hotkey is empty")
	}
	if tx.Validator >= 0 {
		return wire.Reject(wire.CodeValidatorKey, fmt.Sprintf("bind_hotkey: sender %x is a validator's report key; a validator must not report on its own submissions",
			tx.Body.Sender))
	}
	if tx.Account.Miner && tx.Account.Uid != m.Uid {
		return wire.Reject(wire.CodeTxKeyBound, fmt.Sprintf("tx key %x is bound to uid %d; bind another key to uid %d", tx.Body.Sender, tx.Account.Uid, m.Uid))
	}
	if m.Uid == uint32(env.Chain.Gen.Window.BurnUID) {
		return wire.Reject(wire.CodeBindUnknownUID, fmt.Sprintf("uid %d is the burn uid, the subnet owner's: it is never bound", m.Uid))
	}
	if len(m.Signature) != xmirror.SignatureSize {
		return wire.Reject(wire.CodeBindBadSignature, fmt.Sprintf("signature has %d bytes, want %d", len(m.Signature), xmirror.SignatureSize))
	}
	_, err := xmirror.PrecheckBinding(bindingOf(tx, m), finalOf(env.St, m.Uid), env.Chain.Gen.MirrorParams())
	if terr := bindingError(err); terr != nil {
		return terr
	}
	prev, ok := LoadBinding(env.St, m.Uid)
	if !ok {
		return nil
	}
	return bindingError(xmirror.Supersedes(bindingOf(tx, m), xmirror.Binding{ParentBlock: prev.ParentBlock}))
}

// finalOf is the final snapshot as far as uid is concerned: its parent
// block and uid's entry, if any (one read instead of max_uids).
func finalOf(st store.State, uid uint32) xmirror.Snapshot {
	s := xmirror.Snapshot{ParentBlock: LoadState(st).FinalBlock}
	if e, ok := LoadEntry(st, uid); ok {
		s.Entries = []xmirror.Entry{e}
	}
	return s
}

func LoadEntry(st store.State, uid uint32) (xmirror.Entry, bool) {
	pe := &subnetv1.MirrorEntry{}
	if !st.Load(store.KeyMirrorUID(uid), pe) {
		return xmirror.Entry{}, false
	}
	e := xmirror.Entry{UID: uid, RegisteredBlock: pe.RegisteredBlock}
	copy(e.Hotkey[:], pe.Hotkey)
	return e, true
}

func LoadBinding(st store.State, uid uint32) (*subnetv1.MirrorBinding, bool) {
	b := &subnetv1.MirrorBinding{}
	return b, st.Load(store.KeyMirrorBind(uid), b)
}

// bindingError maps x/mirror's binding refusals to their codes.
func bindingError(err error) *wire.TxError {
	codes := []struct {
		err  error
		code uint32
	}{
		{xmirror.ErrUnknownUID, wire.CodeBindUnknownUID},
		{xmirror.ErrStaleBinding, wire.CodeBindStale},
		{xmirror.ErrSignedBeforeRegistration, wire.CodeBindBeforeRegistration},
		{xmirror.ErrBindingNotNewer, wire.CodeBindNotNewer},
	}
	if err == nil {
		return nil
	}
	for _, c := range codes {
		if errors.Is(err, c.err) {
			return wire.Reject(c.code, err.Error())
		}
	}
	return wire.Reject(wire.CodeBindBadSignature, err.Error()) // ErrBadSignature, or a hotkey that is no key
}

// SigUnits is the work a message adds to budget.UnitsTx before its
// signatures are verified: an sr25519 verification for a binding.
func (unit) SigUnits(tx *kernel.Tx) int64 {
	if tx.Body.Msg.GetBindHotkey() != nil {
		return budget.UnitsSr25519
	}
	return 0
}

// VerifySigs verifies the signatures a message carries besides the
// envelope's (after the block's budget paid for them, SigUnits): a
// binding's hotkey signature (74).
func (unit) VerifySigs(env kernel.Env, tx *kernel.Tx) *wire.TxError {
	m := tx.Body.Msg.GetBindHotkey()
	if m == nil {
		return nil
	}
	e, _ := LoadEntry(env.St, m.Uid) // checkBind found it
	b := bindingOf(tx, m)
	return bindingError(xmirror.VerifyBinding(e.Hotkey, xmirror.BindingMessage(env.Chain.ID, b.UID, b.TxKey, b.ParentBlock), b.Signature))
}

// execBind binds the sender to the uid. A key that held the uid before (a
// rotation by the same hotkey) loses it; the uid's windows and submissions
// stay, since its holder on the parent chain did not change. A uid bound
// for the first time since its last reset gets a fresh Miner record.
func execBind(env kernel.Env, tx *kernel.Tx) []abcitypes.Event {
	st, m := env.St, tx.Body.Msg.GetBindHotkey()
	if prev, ok := LoadBinding(st, m.Uid); ok && !bytes.Equal(prev.TxKey, tx.Body.Sender) {
		old := st.Account(prev.TxKey)
		old.Miner, old.Uid = false, 0
		st.Save(store.KeyAccount(prev.TxKey), old)
	}
	st.Save(store.KeyMirrorBind(m.Uid), &subnetv1.MirrorBinding{TxKey: tx.Body.Sender, ParentBlock: m.ParentBlock})
	tx.Account.Miner, tx.Account.Uid = true, m.Uid
	st.Save(store.KeyAccount(tx.Body.Sender), tx.Account)
	rec := &subnetv1.Miner{}
	if !st.Load(store.KeyMiner(m.Uid), rec) || len(rec.Pubkey) == 0 {
		rec = &subnetv1.Miner{Uid: m.Uid, RegisteredHeight: env.Block.Height, FirstSubmission: st.Counters().NextSubmissionId}
	}
	rec.Pubkey = tx.Body.Sender
	st.Save(store.KeyMiner(m.Uid), rec)
	e, _ := LoadEntry(st, m.Uid)
	return []abcitypes.Event{wire.Event(wire.EventMirrorBound, "uid", kernel.U64s(uint64(m.Uid)), "tx_key", kernel.Hexs(tx.Body.Sender),
		"hotkey", SS58(e.Hotkey[:]), "parent_block", kernel.U64s(m.ParentBlock))}
}

// SS58 is a hotkey's Bittensor address ("" for none).
func SS58(key []byte) string {
	if len(key) != xmirror.HotkeySize {
		return ""
	}
	var k [xmirror.HotkeySize]byte
	copy(k[:], key)
	s, _ := xmirror.EncodeSS58(xmirror.BittensorSS58Prefix, k)
	return s
}

// End is the end of block's mirror step: Aggregate over the votes of
// the parent blocks that received votes in this block (at most one per
// validator each), and when one is final, apply it. Its work is bounded by
// genesis: the votes of the touched rounds (validators × open rounds) and
// one final snapshot (max_uids entries); it is never split. A starved end
// of block carries it whole to the next block (the touched parent blocks
// stay marked).
func End(env kernel.Env, m *budget.Meter) (evs []abcitypes.Event, carried bool) {
	if !env.Chain.Gen.IsMirror() {
		return nil, false
	}
	st := env.St
	ms := LoadState(st)
	if len(ms.Touched) == 0 {
		return nil, false
	}
	if !m.EndOpen(0) {
		return nil, true
	}
	var votes []xmirror.Vote
	for _, pb := range ms.Touched {
		votes = append(votes, roundVotes(env, pb)...)
	}
	m.ChargeEnd(budget.UnitsDueItem*int64(len(ms.Touched)) + budget.UnitsLookup*int64(len(votes)))
	ms.Touched = nil
	out, err := xmirror.Aggregate(votes, env.Chain.Total)
	if err != nil {
		panic(fmt.Sprintf("app: mirror votes that validity accepted do not aggregate: %v", err))
	}
	if out.Final {
		evs = applyFinal(env, ms, out, m)
	}
	st.Save(store.KeyMirrorState, ms)
	return evs, false
}

// roundVotes are the votes of a parent block's round with each voter's
// power now; a vote of a key that is no longer a validator's counts
// nothing, and a validator whose report key changed between two of its
// votes counts once (its first vote).
func roundVotes(env kernel.Env, pb uint64) []xmirror.Vote {
	round := &subnetv1.MirrorRound{}
	env.St.Load(store.KeyMirrorRound(pb), round)
	var votes []xmirror.Vote
	seen := make(map[int]bool, len(round.Votes))
	for _, v := range round.Votes {
		i := env.Chain.ValidatorIndex(v.ReportKey)
		if i < 0 || seen[i] || env.Chain.Power(i) <= 0 {
			continue
		}
		seen[i] = true
		mv := xmirror.Vote{Validator: env.Chain.Address(i), Power: env.Chain.Power(i), ParentBlock: pb}
		copy(mv.Digest[:], v.Digest)
		votes = append(votes, mv)
	}
	return votes
}

// applyFinal makes out's snapshot the final one: Diff against the current
// one, rewrite and reset the uids that changed, and prune the rounds and
// bodies of every parent block at or below it.
func applyFinal(env kernel.Env, ms *subnetv1.MirrorState, out xmirror.Outcome, m *budget.Meter) []abcitypes.Event {
	st, p := env.St, env.Chain.Gen.MirrorParams()
	body := &subnetv1.MirrorBody{}
	st.Load(store.KeyMirrorBody(out.Digest[:]), body)
	next, err := xmirror.Decode(body.Snapshot, p)
	if err != nil {
		panic(fmt.Sprintf("app: the stored snapshot %x of parent block %d does not decode: %v", out.Digest, out.ParentBlock, err))
	}
	cur := CurrentSnapshot(st, ms.FinalBlock, p.MaxEntries)
	reset := xmirror.Diff(cur, next)
	m.ChargeEnd(budget.UnitsLookup*int64(p.MaxEntries) + genesis.MirrorUIDUnits(len(env.Chain.Gen.Chain.GasChains))*int64(len(reset)))
	evs := []abcitypes.Event{wire.Event(wire.EventMirrorFinal, "parent_block", kernel.U64s(out.ParentBlock), "digest", kernel.Hexs(out.Digest[:]),
		"power", kernel.I64s(out.Power), "total_power", kernel.I64s(out.TotalPower), "reset", kernel.U64s(uint64(len(reset))))}
	for _, uid := range reset {
		evs = append(evs, ResetUID(env, uid, cur, next))
	}
	pruneRounds(env, ms, out.ParentBlock, m)
	ms.FinalBlock, ms.FinalDigest = out.ParentBlock, out.Digest[:]
	return evs
}

// CurrentSnapshot reads the final snapshot's entries (max_uids reads).
func CurrentSnapshot(st store.State, parentBlock uint64, maxEntries uint32) xmirror.Snapshot {
	s := xmirror.Snapshot{ParentBlock: parentBlock}
	for uid := uint32(0); uid < maxEntries; uid++ {
		if e, ok := LoadEntry(st, uid); ok {
			s.Entries = append(s.Entries, e)
		}
	}
	return s
}

// ResetUID writes uid's entry of next (or deletes it) and resets the uid as
// a replacement does in pow mode: its binding is deleted, and if it was
// bound its holder is cleared (membership.Clear: the account
// loses the uid, windows and gas agents are deleted) and its Miner record
// keeps no key and starts at the next submission id, so that the last
// holder's commits and pending submissions are never scored for the uid.
func ResetUID(env kernel.Env, uid uint32, cur, next xmirror.Snapshot) abcitypes.Event {
	st := env.St
	old, hadOld := cur.Lookup(uid)
	ne, ok := next.Lookup(uid)
	if ok {
		st.Save(store.KeyMirrorUID(uid), &subnetv1.MirrorEntry{Hotkey: ne.Hotkey[:], RegisteredBlock: ne.RegisteredBlock})
	} else {
		st.Delete(store.KeyMirrorUID(uid))
	}
	var oldKey []byte
	if b, bound := LoadBinding(st, uid); bound {
		oldKey = b.TxKey
		st.Delete(store.KeyMirrorBind(uid))
	}
	if rec := (&subnetv1.Miner{}); st.Load(store.KeyMiner(uid), rec) {
		if len(rec.Pubkey) > 0 {
			membership.Clear(env, uid)
		}
		st.Save(store.KeyMiner(uid), &subnetv1.Miner{Uid: uid, RegisteredHeight: env.Block.Height, FirstSubmission: st.Counters().NextSubmissionId})
	}
	newHotkey := ""
	if ok {
		newHotkey = SS58(ne.Hotkey[:])
	}
	oldHotkey := ""
	if hadOld {
		oldHotkey = SS58(old.Hotkey[:])
	}
	return wire.Event(wire.EventMirrorUIDReset, "uid", kernel.U64s(uint64(uid)), "old_hotkey", oldHotkey, "new_hotkey", newHotkey,
		"old_tx_key", kernel.Hexs(oldKey))
}

// pruneRounds deletes the rounds of every open parent block at or below
// final, with their bodies, and takes each vote off its validator's count
// of open rounds.
func pruneRounds(env kernel.Env, ms *subnetv1.MirrorState, final uint64, m *budget.Meter) {
	st := env.St
	keep := ms.OpenBlocks[:0:0]
	for _, pb := range ms.OpenBlocks {
		if pb > final {
			keep = append(keep, pb)
			continue
		}
		round := &subnetv1.MirrorRound{}
		st.Load(store.KeyMirrorRound(pb), round)
		for _, v := range round.Votes {
			st.DecU64(store.KeyMirrorOpen(v.ReportKey))
			if k := store.KeyMirrorBody(v.Digest); st.Has(k) {
				st.Delete(k)
			}
		}
		st.Delete(store.KeyMirrorRound(pb))
		m.ChargeEnd(budget.UnitsDueItem * int64(1+len(round.Votes)))
	}
	ms.OpenBlocks = keep
}
