package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	appmirror "github.com/scoringsubnet/validatord/app/mirror"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
	"github.com/scoringsubnet/validatord/x/mirror"
)

// mirrorGenesis is the test genesis in mirror mode: three validators of
// power 10 (two votes are exactly 2/3, not final; three are), 8 parent
// uids (uid 0 is the burn uid), attestations every 10 parent blocks,
// bindings within 100 of the final snapshot's parent block.
func mirrorGenesis() genesis.AppState {
	g := testGenesis(3)
	g.Chain.MaxUIDs = 8
	g.Membership = testMembership(8)
	g.Chain.Registration = genesis.RegistrationMirror
	mp := genesis.DefaultMirrorParams(8)
	mp.AttestationBlocks, mp.MaxBlocksBehind = 10, 100
	g.Mirror = &mp
	return g
}

// hotSeed is the sr25519 seed of a test hotkey.
func hotSeed(label string) [32]byte { return sha256.Sum256([]byte("hotkey " + label)) }

func hotkeyOf(t testing.TB, label string) [mirror.HotkeySize]byte {
	t.Helper()
	k, err := client.HotkeyFromSeed(hotSeed(label))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func entry(t testing.TB, uid uint32, label string, registered uint64) mirror.Entry {
	return mirror.Entry{UID: uid, Hotkey: hotkeyOf(t, label), RegisteredBlock: registered}
}

func snap(pb uint64, es ...mirror.Entry) mirror.Snapshot {
	return mirror.Snapshot{ParentBlock: pb, Entries: es}
}

// bindMsg is s's binding to uid at parent block pb, signed by the hotkey of label.
func bindMsg(t testing.TB, s *signer, label string, uid uint32, pb uint64) *subnetv1.Msg {
	t.Helper()
	sig, err := client.SignBinding(hotSeed(label), testChainID, uid, s.pub(), pb)
	if err != nil {
		t.Fatal(err)
	}
	return client.BindHotkey(uid, pb, sig)
}

// attestAll is every validator's vote for s in one block, the first with
// the snapshot's bytes: final at its end.
func attestAll(t testing.TB, rs []*signer, s mirror.Snapshot) [][]byte {
	t.Helper()
	var txs [][]byte
	for i, r := range rs {
		txs = append(txs, r.tx(t, client.AttestMetagraph(s, i == 0)))
	}
	return txs
}

// committedState reads the node's committed state.
func (n *node) committedState() store.State {
	base, _ := n.app.base()
	return store.State{O: store.NewOverlay(base)}
}

func (n *node) mirrorView(t *testing.T) wire.MirrorView {
	var v wire.MirrorView
	n.queryInto(t, "mirror", &v)
	return v
}

func (n *node) minerView(t *testing.T, uid string) wire.MinerView {
	var v wire.MinerView
	n.queryInto(t, "miner/"+uid, &v)
	return v
}

func findEvent(evs []abcitypes.Event, typ string) bool {
	_, ok := eventAttr(evs, typ, "parent_block")
	if !ok {
		_, ok = eventAttr(evs, typ, "uid")
	}
	return ok
}

// TestMirrorFinality: a snapshot attested by exactly 2/3 of the power (two
// of three validators, one carrying the bytes, one the digest alone) is
// not final; the third vote, in a later block, makes it final: the query
// shows its parent block and digest, its entries are the uids' holders,
// and its round, body and the validators' open counts are gone.
func TestMirrorFinality(t *testing.T) {
	n := newNode(t, "", mirrorGenesis())
	s1 := snap(10, entry(t, 1, "one", 5), entry(t, 2, "two", 3))
	r0, r1, r2 := reporter(0), reporter(1), reporter(2)
	resp := n.block(r0.tx(t, client.AttestMetagraph(s1, true)), r1.tx(t, client.AttestMetagraph(s1, false)))
	mustOK(t, resp)
	if findEvent(resp.Events, wire.EventMirrorFinal) {
		t.Fatal("final at 2/3 of the power")
	}
	if v := n.mirrorView(t); v.FinalBlock != 0 || v.Digest != "" || v.OpenRounds != 1 || v.Entries != 0 {
		t.Fatalf("mirror after 2/3 = %+v, want nothing final and one open round", v)
	}
	resp = n.block(r2.tx(t, client.AttestMetagraph(s1, false)))
	mustOK(t, resp)
	d := s1.Digest()
	if pb, _ := eventAttr(resp.Events, wire.EventMirrorFinal, "parent_block"); pb != "10" {
		t.Fatalf("events %v, want mirror_final of parent block 10", resp.Events)
	}
	if v := n.mirrorView(t); v.FinalBlock != 10 || v.Digest != hex.EncodeToString(d[:]) || v.OpenRounds != 0 || v.Entries != 2 || v.NetUID != 1 {
		t.Fatalf("mirror after 3/3 = %+v", v)
	}
	st := n.committedState()
	if st.Has(store.KeyMirrorBody(d[:])) || st.Has(store.KeyMirrorRound(10)) || st.U64(store.KeyMirrorOpen(r0.pub())) != 0 {
		t.Fatal("the final round's votes, body or open counts were not pruned")
	}
	m := n.minerView(t, "1")
	if m.Mirror == nil || m.Mirror.Hotkey != appmirror.SS58(s1.Entries[0].Hotkey[:]) || m.Mirror.RegisteredBlock != 5 || m.Mirror.TxKey != "" || m.Pubkey != "" {
		t.Fatalf("miner/1 = %+v (mirror %+v), want hotkey one, registered at 5, unbound", m, m.Mirror)
	}
	// A later snapshot wins over an open lower one: two votes at 20 stay
	// open, three at 30 make 30 final and prune 20.
	s2, s3 := snap(20, entry(t, 1, "one", 5)), snap(30, entry(t, 1, "one", 5))
	mustOK(t, n.block(r0.tx(t, client.AttestMetagraph(s2, true)), r1.tx(t, client.AttestMetagraph(s2, false))))
	mustOK(t, n.block(attestAll(t, []*signer{r0, r1, r2}, s3)...))
	if v := n.mirrorView(t); v.FinalBlock != 30 || v.OpenRounds != 0 || v.Entries != 1 {
		t.Fatalf("mirror after 30 = %+v, want 30 final, 20 pruned, one entry", v)
	}
	if st := n.committedState(); st.U64(store.KeyMirrorOpen(r0.pub())) != 0 || st.Has(store.KeyMirrorRound(20)) {
		t.Fatal("the superseded round 20 was not pruned")
	}
}

// TestMirrorBindAndScore: a miner binds its tx key to parent uid 1 with
// the hotkey's signature, then commits, reveals and is scored under uid 1,
// and the epoch's weights name uid 1, the parent's uid; the binding's
// sr25519 verification was charged to the block.
func TestMirrorBindAndScore(t *testing.T) {
	n := newNode(t, "", mirrorGenesis())
	a := newMiner("miner-a", 1)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(attestAll(t, r, snap(10, entry(t, 1, "one", 5)))...))
	resp := n.block(a.tx(t, bindMsg(t, a, "one", 1, 12)), r[0].tx(t, msgWorkflowTask(4, 1, 3)), r[0].tx(t, msgWorkflowTask(4, 1, 3)))
	mustOK(t, resp)
	if got, want := n.stats[len(n.stats)-1].txWork, 3*budget.UnitsTx+budget.UnitsSr25519; got != want {
		t.Fatalf("block work %d, want three txs and one sr25519 verification (%d)", got, want)
	}
	if key, _ := eventAttr(resp.TxResults[0].Events, wire.EventMirrorBound, "tx_key"); key != hex.EncodeToString(a.pub()) {
		t.Fatalf("bind events %v", resp.TxResults[0].Events)
	}
	m := n.minerView(t, "1")
	if m.Pubkey != hex.EncodeToString(a.pub()) || m.Mirror == nil || m.Mirror.TxKey != m.Pubkey || m.Mirror.ParentBlock != 12 {
		t.Fatalf("miner/1 = %+v (mirror %+v)", m, m.Mirror)
	}
	w0, w1 := wfPayloadOf(a, 0), wfPayloadOf(a, 1)
	mustOK(t, n.block(a.commit(t, w0), a.commit(t, w1)))
	mustOK(t, n.block(a.reveal(t, w0), a.reveal(t, w1)))
	var reports [][]byte
	for _, rep := range r {
		reports = append(reports, rep.tx(t, msgWorkflowReport(0, workflowM())), rep.tx(t, msgWorkflowReport(1, workflowM())))
	}
	resp = n.block(reports...) // height 5: an epoch
	mustOK(t, resp)
	for _, id := range []string{"0", "1"} {
		if sub, _ := n.query("submission/" + id); sub["status"] != kernel.StatusScored || sub["uid"] != float64(1) {
			t.Fatalf("submission %s = %v, want scored under uid 1", id, sub)
		}
	}
	u16, _ := eventAttr(resp.Events, wire.EventEpochWeights, "u16")
	if !strings.HasPrefix(u16, "1:") && !strings.Contains(u16, ",1:") {
		t.Fatalf("epoch u16 %q, want a weight for parent uid 1", u16)
	}
}

// TestMirrorReset: a later final snapshot that gives uid 1 a new hotkey
// resets it: the old holder's binding, account uid and window are gone, its
// pending commit is never scored and it can no longer reveal; uid 2, whose
// entry did not change, keeps its binding. The old binding cannot come
// back (signed before the new registration), the new hotkey binds a new key.
func TestMirrorReset(t *testing.T) {
	n := newNode(t, "", mirrorGenesis())
	a, b, c := newMiner("miner-a", 1), newMiner("miner-b", 2), newMiner("miner-c", 1)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(attestAll(t, r, snap(10, entry(t, 1, "one", 5), entry(t, 2, "two", 3)))...))
	mustOK(t, n.block(a.tx(t, bindMsg(t, a, "one", 1, 10)), b.tx(t, bindMsg(t, b, "two", 2, 10)),
		r[0].tx(t, msgWorkflowTask(4, 1, 3)), r[0].tx(t, msgWorkflowTask(4, 4, 3))))
	w0, w1 := wfPayloadOf(a, 0), wfPayloadOf(a, 1)
	mustOK(t, n.block(a.commit(t, w0), a.commit(t, w1)))
	mustOK(t, n.block(a.reveal(t, w0)))
	mustOK(t, n.block(r[0].tx(t, msgWorkflowReport(0, workflowM())), r[1].tx(t, msgWorkflowReport(0, workflowM())),
		r[2].tx(t, msgWorkflowReport(0, workflowM()))))
	if win, _ := n.query("window/1"); win["workflow"] == nil {
		t.Fatalf("window/1 before the reset = %v", win)
	}
	resp := n.block(attestAll(t, r, snap(20, entry(t, 1, "one-b", 15), entry(t, 2, "two", 3)))...)
	mustOK(t, resp)
	var resets []string
	for _, e := range resp.Events {
		if e.Type == wire.EventMirrorUIDReset {
			resets = append(resets, e.Attributes[0].Value+":"+e.Attributes[3].Value)
		}
	}
	if strings.Join(resets, ",") != "1:"+hex.EncodeToString(a.pub()) {
		t.Fatalf("resets %v, want uid 1 (held by a) only", resets)
	}
	acc, _ := n.query("account/" + hex.EncodeToString(a.pub()))
	if acc["miner"] != false {
		t.Fatalf("a's account after the reset = %v", acc)
	}
	if win, _ := n.query("window/1"); win["workflow"] != nil {
		t.Fatalf("window/1 after the reset = %v, want none", win)
	}
	if hk, m := hotkeyOf(t, "one-b"), n.minerView(t, "1"); m.Pubkey != "" || m.Mirror.TxKey != "" || m.Mirror.Hotkey != appmirror.SS58(hk[:]) {
		t.Fatalf("miner/1 after the reset = %+v (mirror %+v)", m, m.Mirror)
	}
	if m := n.minerView(t, "2"); m.Pubkey != hex.EncodeToString(b.pub()) {
		t.Fatalf("miner/2 = %+v, want b still bound", m)
	}
	h := n.height + 1
	for _, tc := range []struct {
		name string
		tx   []byte
		code uint32
	}{
		{"the old holder's reveal", crbRevealNext(a, w1), wire.CodeNotMiner},
		{"the old binding again, newer but before the new registration", a.next(bindMsg(t, a, "one", 1, 14)), wire.CodeBindBeforeRegistration},
		{"the old hotkey's signature for the uid", c.next(bindMsg(t, c, "one", 1, 20)), wire.CodeBindBadSignature},
	} {
		if got := finalizeOnly(t, n, h, [][]byte{tc.tx}).TxResults[0]; got.Code != tc.code {
			t.Fatalf("%s: code %d (%s), want %d: %s", tc.name, got.Code, wire.CodeName(got.Code), tc.code, got.Log)
		}
	}
	mustOK(t, n.block(c.tx(t, bindMsg(t, c, "one-b", 1, 20))))
	mustOK(t, n.block()) // task 1's reveal window (its commits closed at 6): a cannot reveal, c has no commit
	for i := 0; i < 6; i++ {
		n.block()
	}
	if sub, _ := n.query("submission/1"); sub["status"] != kernel.StatusUnrevealed {
		t.Fatalf("the old holder's pending commit = %v, want unrevealed (never scored)", sub)
	}
	if m := n.minerView(t, "1"); m.Pubkey != hex.EncodeToString(c.pub()) {
		t.Fatalf("miner/1 = %+v, want c bound", m)
	}
}

// mirrorCatalogueChain: snapshot 10 final (uid 1 "one" registered at 5,
// uid 2 "two" at 3, uid 3 "three" at 8), miner a bound to uid 1 at 10;
// r0 voted at 20 with the snapshot's bytes; r1 voted alone at 20, 30, 40
// and 50 (its four open rounds).
func mirrorCatalogueChain(t *testing.T) (*node, mirror.Snapshot, []*signer) {
	n := newNode(t, "", mirrorGenesis())
	a, r0, r1, r2 := newMiner("miner-a", 1), reporter(0), reporter(1), reporter(2)
	for _, r := range []*signer{r0, r1, r2} {
		mustOK(t, n.block(r.tx(t, client.AttestMetagraph(snap(10, entry(t, 1, "one", 5), entry(t, 2, "two", 3), entry(t, 3, "three", 8)), r == r0))))
	}
	s20 := snap(20, entry(t, 1, "one", 5))
	txs := [][]byte{a.tx(t, bindMsg(t, a, "one", 1, 10)), r0.tx(t, client.AttestMetagraph(s20, true))}
	for pb := uint64(20); pb <= 50; pb += 10 {
		txs = append(txs, r1.tx(t, client.AttestMetagraph(snap(pb, entry(t, 1, "r1", 1)), true)))
	}
	mustOK(t, n.block(txs...))
	return n, s20, []*signer{a, r0, r1, r2}
}

// TestMirrorRejections: each refusal of the mirror messages, alone in a
// block, has its code and leaves the app hash as the empty block's; CheckTx
// agrees. Pow mode refuses both messages.
func TestMirrorRejections(t *testing.T) {
	n, s20, ss := mirrorCatalogueChain(t)
	a, r0, r1, r2, c := ss[0], ss[1], ss[2], ss[3], newSigner("miner-c")
	s30 := snap(30, entry(t, 2, "two", 3))
	wrongDigest := client.AttestMetagraph(s30, true)
	wrongDigest.GetAttestMetagraph().Digest = bytes.Repeat([]byte{7}, 32)
	otherBlock := client.AttestMetagraph(s30, true)
	otherBlock.GetAttestMetagraph().ParentBlock = 40
	shortDigest := client.AttestMetagraph(s30, true)
	shortDigest.GetAttestMetagraph().Digest = make([]byte, 31)
	garbage := client.AttestMetagraph(s30, false)
	garbage.GetAttestMetagraph().Snapshot = []byte("not a snapshot")
	s20AtThirty := client.AttestMetagraph(s20, false)
	s20AtThirty.GetAttestMetagraph().ParentBlock = 30
	shortSig := bindMsg(t, c, "two", 2, 10)
	shortSig.GetBindHotkey().Signature = shortSig.GetBindHotkey().Signature[:63]
	cases := []struct {
		name string
		tx   []byte
		code uint32
	}{
		{"register in mirror mode", c.next(msgRegister()), wire.CodeWrongRegistrationMode},
		{"deregister in mirror mode", a.next(client.DeregisterMiner()), wire.CodeWrongRegistrationMode},
		{"attest by a miner", a.next(client.AttestMetagraph(s30, true)), wire.CodeNotValidator},
		{"attest the final parent block again", r2.next(client.AttestMetagraph(snap(10), true)), wire.CodeAttestationStale},
		{"attest below the final parent block", r2.next(client.AttestMetagraph(snap(0), true)), wire.CodeAttestationStale},
		{"attest off the cadence", r2.next(client.AttestMetagraph(snap(25), true)), wire.CodeAttestationCadence},
		{"second vote at a parent block", r0.next(client.AttestMetagraph(s20, false)), wire.CodeDuplicateAttestation},
		{"second vote at a parent block, another digest", r0.next(client.AttestMetagraph(snap(20), true)), wire.CodeDuplicateAttestation},
		{"a fifth open round", r1.next(client.AttestMetagraph(snap(60), true)), wire.CodeTooManyOpenAttestations},
		{"snapshot that does not decode", r2.next(garbage), wire.CodeBadSnapshot},
		{"snapshot whose digest is not the vote's", r2.next(wrongDigest), wire.CodeBadSnapshot},
		{"snapshot of another parent block", r2.next(otherBlock), wire.CodeBadSnapshot},
		{"31-byte digest", r2.next(shortDigest), wire.CodeBadSnapshot},
		{"snapshot with a uid beyond max_entries", r2.next(client.AttestMetagraph(snap(30, entry(t, 8, "x", 1)), true)), wire.CodeBadSnapshot},
		{"digest alone, never stored", r2.next(client.AttestMetagraph(s30, false)), wire.CodeSnapshotMissing},
		{"digest alone, stored for another parent block", r2.next(s20AtThirty), wire.CodeSnapshotMissing},
		{"bind a uid not in the snapshot", c.next(bindMsg(t, c, "two", 5, 10)), wire.CodeBindUnknownUID},
		{"bind the burn uid", c.next(bindMsg(t, c, "two", 0, 10)), wire.CodeBindUnknownUID},
		{"bind too far past the final parent block", c.next(bindMsg(t, c, "two", 2, 111)), wire.CodeBindStale},
		{"bind signed before the uid's registration", c.next(bindMsg(t, c, "three", 3, 7)), wire.CodeBindBeforeRegistration},
		{"bind not after the uid's binding", c.next(bindMsg(t, c, "one", 1, 10)), wire.CodeBindNotNewer},
		{"bind signed by another hotkey", c.next(bindMsg(t, c, "one", 2, 10)), wire.CodeBindBadSignature},
		{"bind for another tx key", c.next(bindMsg(t, a, "two", 2, 10)), wire.CodeBindBadSignature},
		{"bind with a 63-byte signature", c.next(shortSig), wire.CodeBindBadSignature},
		{"bind a bound tx key to another uid", a.next(bindMsg(t, a, "two", 2, 10)), wire.CodeTxKeyBound},
		{"bind a validator's report key", r2.next(bindMsg(t, r2, "two", 2, 10)), wire.CodeValidatorKey},
		{"bind with a bad hotkey signature and a bad envelope signature: the envelope is verified first", badSig(c.next(bindMsg(t, c, "one", 2, 10))), wire.CodeBadSignature},
	}
	checkRejections(t, n, cases)
	// The same refused binding, made right, is accepted in this block.
	if r := finalizeOnly(t, n, n.height+1, [][]byte{c.next(bindMsg(t, c, "two", 2, 10))}); r.TxResults[0].Code != wire.CodeOK {
		t.Fatalf("the right binding: code %d: %s", r.TxResults[0].Code, r.TxResults[0].Log)
	}

	pow := newNode(t, "", testGenesis(3))
	checkRejections(t, pow, []struct {
		name string
		tx   []byte
		code uint32
	}{
		{"attest in pow mode", reporter(0).next(client.AttestMetagraph(s30, true)), wire.CodeWrongRegistrationMode},
		{"bind in pow mode", c.next(bindMsg(t, c, "two", 2, 10)), wire.CodeWrongRegistrationMode},
	})
}

// checkRejections runs each tx alone at the next height: its code, a log,
// the empty block's app hash, and CheckTx's agreement.
func checkRejections(t *testing.T, n *node, cases []struct {
	name string
	tx   []byte
	code uint32
}) {
	t.Helper()
	h := n.height + 1
	empty := finalizeOnly(t, n, h, nil)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := finalizeOnly(t, n, h, [][]byte{tc.tx})
			if got := resp.TxResults[0]; got.Code != tc.code || got.Log == "" {
				t.Fatalf("code %d (%s), want %d (%s): %q", got.Code, wire.CodeName(got.Code), tc.code, wire.CodeName(tc.code), got.Log)
			}
			if !bytes.Equal(resp.AppHash, empty.AppHash) {
				t.Fatal("a rejected tx changed the app hash")
			}
			if chk, _ := n.app.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: tc.tx}); chk.Code != tc.code {
				t.Fatalf("CheckTx code %d, FinalizeBlock %d", chk.Code, tc.code)
			}
		})
	}
}

// TestMirrorEnvelopeBound: the largest attestation of a chain of the
// default 256 uids (its snapshot's bytes, a 50-byte chain id, the largest
// nonce) exceeds the snapshot's encoding by at most
// genesis.MirrorEnvelopeBytes.
func TestMirrorEnvelopeBound(t *testing.T) {
	s := mirror.Snapshot{ParentBlock: 1<<64 - 1}
	for uid := uint32(0); uid < 256; uid++ {
		s.Entries = append(s.Entries, mirror.Entry{UID: uid, Hotkey: [32]byte{0xff}, RegisteredBlock: 1<<64 - 1})
	}
	key := testKey("envelope")
	tx, err := wire.SignTx(strings.Repeat("c", 50), key, 1<<64-1, client.AttestMetagraph(s, true))
	if err != nil {
		t.Fatal(err)
	}
	if extra := len(tx) - mirror.EncodedSize(256); extra > genesis.MirrorEnvelopeBytes {
		t.Fatalf("the envelope takes %d bytes, more than MirrorEnvelopeBytes %d", extra, genesis.MirrorEnvelopeBytes)
	}
}

// TestMirrorResetBytes: the reset of one uid at its largest (a bound uid
// with both windows, an agent on every gas chain, the largest nonce, ids
// and blocks) writes at most genesis.MirrorUIDBytes + MirrorAgentBytes per
// gas chain, the per-uid bound of MirrorFinalBytes.
func TestMirrorResetBytes(t *testing.T) {
	n := newNode(t, "", mirrorGenesis())
	a, r := newMiner("miner-a", 1), []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(attestAll(t, r, snap(10, entry(t, 1, "one", 5)))...))
	mustOK(t, n.block(a.tx(t, bindMsg(t, a, "one", 1, 10))))
	base, _ := n.app.base()
	prep := store.NewOverlay(base)
	st := store.State{O: prep}
	const max = 1<<64 - 1
	st.Save(store.KeyAccount(a.pub()), &subnetv1.Account{NextNonce: max, Miner: true, Uid: 1})
	st.Save(store.KeyCounters, &subnetv1.Counters{Miners: 7, NextSubmissionId: max})
	for _, tb := range []byte{store.WindowWorkflow, store.WindowArena} {
		st.Save(store.KeyWindow(tb, 1), &subnetv1.Window{TasksSeen: 1})
	}
	g := n.app.chain.Gen
	for _, c := range g.Chain.GasChains {
		st.Save(store.KeyGasAgent(c, 1), &subnetv1.GasAgent{Uid: 1})
	}
	o := store.NewOverlay(prep)
	env := n.app.env(o, &kernel.Block{Height: 1<<63 - 1, Chain: n.app.chain})
	next := snap(max, mirror.Entry{UID: 1, Hotkey: [32]byte{0xff}, RegisteredBlock: max})
	appmirror.ResetUID(env, 1, snap(10, entry(t, 1, "one", 5)), next)
	if bound := genesis.MirrorUIDBytes + genesis.MirrorAgentBytes*len(g.Chain.GasChains); o.Size() > bound {
		t.Fatalf("one reset wrote %d bytes, more than the bound %d", o.Size(), bound)
	}
	if after := (store.State{O: o}); after.Has(store.KeyMirrorBind(1)) || after.Has(store.KeyWindow(store.WindowArena, 1)) {
		t.Fatal("the reset left the binding or a window")
	}
	t.Logf("one reset wrote %d bytes (bound %d)", o.Size(), genesis.MirrorUIDBytes+genesis.MirrorAgentBytes*len(g.Chain.GasChains))
}

// TestMirrorSplitAndRestart: honest validators split between two digests
// at one parent block (one vote against two): neither is final, and the
// round stays open; the lone validator's vote for the majority's digest
// cannot be added (one vote per parent block), but the next parent block,
// attested by all, is final and supersedes it. The state is on disk: a
// node reopened on it answers with the same app hash and goes on.
func TestMirrorSplitAndRestart(t *testing.T) {
	dir := t.TempDir()
	n := newNode(t, dir, mirrorGenesis())
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	a, b := snap(10, entry(t, 1, "one", 5)), snap(10, entry(t, 1, "one", 6))
	mustOK(t, n.block(r[0].tx(t, client.AttestMetagraph(a, true)), r[1].tx(t, client.AttestMetagraph(a, false)),
		r[2].tx(t, client.AttestMetagraph(b, true))))
	if v := n.mirrorView(t); v.FinalBlock != 0 || v.OpenRounds != 1 {
		t.Fatalf("after a split = %+v, want nothing final, one open round", v)
	}
	if code := finalizeOnly(t, n, n.height+1, [][]byte{r[2].next(client.AttestMetagraph(a, false))}).TxResults[0].Code; code != wire.CodeDuplicateAttestation {
		t.Fatalf("a second vote at the split block: code %d", code)
	}
	hash := n.app.AppHash()
	if err := n.app.Close(); err != nil {
		t.Fatal(err)
	}
	reopened, err := New(Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	n.app = reopened
	if !bytes.Equal(reopened.AppHash(), hash) {
		t.Fatal("the reopened node has another app hash")
	}
	mustOK(t, n.block(attestAll(t, r, snap(20, entry(t, 1, "one", 6)))...))
	if v := n.mirrorView(t); v.FinalBlock != 20 || v.OpenRounds != 0 || v.Entries != 1 {
		t.Fatalf("after parent block 20 = %+v", v)
	}
}

// TestMirrorStarvedCarries: an end of block run starved (the last line of
// executeBlock) leaves the attested parent blocks marked and writes
// nothing; the next end of block makes the snapshot final.
func TestMirrorStarvedCarries(t *testing.T) {
	n := newNode(t, "", mirrorGenesis())
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block())
	base, _ := n.app.base()
	o := store.NewOverlay(base)
	blk := &kernel.Block{Height: n.height + 1, Time: blockTime(n.height + 1).Unix(), Hash: []byte("starved"), Chain: n.app.chain}
	m := budget.NewMeter(n.app.limits, o)
	for _, tx := range attestAll(t, r, snap(10, entry(t, 1, "one", 5))) {
		if res := n.app.deliverTx(o, tx, blk, m); res.Code != wire.CodeOK {
			t.Fatalf("attestation: code %d: %s", res.Code, res.Log)
		}
	}
	starved := store.NewOverlay(o)
	m.Starve()
	evs, carried := appmirror.End(n.app.env(starved, blk), m)
	if !carried || len(evs) != 0 || starved.Size() != 0 {
		t.Fatalf("starved: carried %v, events %v, %d bytes written", carried, evs, starved.Size())
	}
	next := store.NewOverlay(o)
	evs, carried = appmirror.End(n.app.env(next, blk), budget.NewMeter(n.app.limits, next))
	if carried || !findEvent(evs, wire.EventMirrorFinal) || len(appmirror.LoadState(store.State{O: next}).Touched) != 0 {
		t.Fatalf("the next end of block: carried %v, events %v", carried, evs)
	}
}

// TestMirrorServe: in mirror mode a tx key bound to a uid serves as a
// pow-mode miner does (an unbound key is refused, 11, as for a commit),
// and a uid reset to a new parent-chain holder starts with no address: its
// new binding may serve at once.
func TestMirrorServe(t *testing.T) {
	n := newNode(t, "", mirrorGenesis())
	a, c := newMiner("miner-a", 1), newMiner("miner-c", 1)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(attestAll(t, r, snap(10, entry(t, 1, "one", 5)))...))
	if got := finalizeOnly(t, n, n.height+1, [][]byte{a.next(client.Serve(wire.ServeAddressExample))}).TxResults[0]; got.Code != wire.CodeNotMiner {
		t.Fatalf("serve by an unbound key: code %d: %s", got.Code, got.Log)
	}
	mustOK(t, n.block(a.tx(t, bindMsg(t, a, "one", 1, 10))))
	mustOK(t, n.block(a.tx(t, client.Serve(wire.ServeAddressExample))))
	if m := n.minerView(t, "1"); m.Address != wire.ServeAddressExample || m.ServedHeight != n.height {
		t.Fatalf("miner/1 after the serve = %+v", m)
	}
	mustOK(t, n.block(attestAll(t, r, snap(20, entry(t, 1, "one-b", 15)))...))
	if m := n.minerView(t, "1"); m.Address != "" || m.ServedHeight != 0 {
		t.Fatalf("miner/1 after the reset = %+v, want no address", m)
	}
	mustOK(t, n.block(c.tx(t, bindMsg(t, c, "one-b", 1, 20))))
	mustOK(t, n.block(c.tx(t, client.Serve("https://c.example.org"))))
	if m := n.minerView(t, "1"); m.Address != "https://c.example.org" || m.Pubkey != hex.EncodeToString(c.pub()) {
		t.Fatalf("miner/1 after the new holder's serve = %+v", m)
	}
}
