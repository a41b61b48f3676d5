package app

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/membership"
)

// workGenesisDifficulty is the floor of TestRegistrationWork's chain: 2^12
// expected hashes (about a millisecond), so that a nonce that fails exists
// and a solved one is cheap.
const workGenesisDifficulty = 1 << 12

// workNode is a chain with difficulty workGenesisDifficulty, one
// registration per block, an adjustment every 10 blocks toward 1
// registration, and hashes kept for 4 blocks.
func workNode(t *testing.T) *node {
	g := testGenesis(1)
	p := &g.Membership
	p.InitialDifficulty, p.MinDifficulty, p.MaxDifficulty = workGenesisDifficulty, workGenesisDifficulty, workGenesisDifficulty<<4
	p.MaxRegistrationsPerBlock, p.AdjustmentInterval, p.TargetRegistrations, p.MaxPowAgeBlocks = 1, 10, 1, 4
	return newNode(t, "", g)
}

// registration is the node's "registration" answer.
func (n *node) registration(t *testing.T) wire.RegistrationView {
	t.Helper()
	var v wire.RegistrationView
	n.queryInto(t, "registration", &v)
	return v
}

// solve returns s's registration with a nonce that meets the difficulty in
// force (want = true) or one that does not, bound to the newest block.
func (n *node) solve(t *testing.T, s *signer, want bool) *subnetv1.Msg {
	t.Helper()
	r := n.registration(t)
	hash, err := hex.DecodeString(r.Recent[0].Hash)
	if err != nil {
		t.Fatal(err)
	}
	for nonce := uint64(0); nonce < 1<<24; nonce++ {
		if membership.Meets(membership.Seal(testChainID, s.pub(), hash, nonce), r.Difficulty) == want {
			return client.RegisterMiner(r.Recent[0].Height, nonce)
		}
	}
	t.Fatal("no nonce found")
	return nil
}

// TestRegistrationWork: insufficient work (52), the block's cap (53) and
// stale work (51) are refused without a trace, solved work is accepted, the
// difficulty doubles after a full interval and the record of block hashes
// keeps max_pow_age_blocks entries.
func TestRegistrationWork(t *testing.T) {
	n := workNode(t)
	a, b, c := newSigner("miner-a"), newSigner("miner-b"), newSigner("miner-c")
	mustOK(t, n.block())
	h := n.height + 1
	empty := finalizeOnly(t, n, h, nil)
	refused := func(name string, code uint32, txs ...[]byte) {
		t.Helper()
		resp := finalizeOnly(t, n, h, txs)
		last := resp.TxResults[len(txs)-1]
		if last.Code != code {
			t.Fatalf("%s: code %d (%s), want %d: %s", name, last.Code, wire.CodeName(last.Code), code, last.Log)
		}
		if len(txs) == 1 && !bytes.Equal(resp.AppHash, empty.AppHash) {
			t.Fatalf("%s: a refused registration changed the app hash", name)
		}
	}
	refused("insufficient work", wire.CodeInsufficientWork, a.next(n.solve(t, a, false)))
	refused("second registration in a block", wire.CodeRegistrationsFull, a.next(n.solve(t, a, true)), b.next(n.solve(t, b, true)))
	stale := c.next(client.RegisterMiner(0, 0)) // genesis entry: 1 block old now, 5 after 4 more
	for range 4 {
		mustOK(t, n.block())
	}
	h = n.height + 1
	empty = finalizeOnly(t, n, h, nil)
	refused("work older than max_pow_age_blocks", wire.CodeStaleWork, stale)
	if r := n.registration(t); len(r.Recent) != 4 || r.Recent[0].Height != n.height || r.Recent[3].Height != n.height-3 {
		t.Fatalf("recent block hashes: %+v, want the 4 up to %d", r.Recent, n.height)
	}

	// Two registrations in the first interval (heights 1–10) against a
	// target of 1: at the end of height 10 the difficulty becomes
	// current × (2 + 1) / 2.
	mustOK(t, n.block(a.tx(t, n.solve(t, a, true))))
	mustOK(t, n.block(b.tx(t, n.solve(t, b, true))))
	for n.height < 10 {
		mustOK(t, n.block())
	}
	r := n.registration(t)
	if want := uint64(workGenesisDifficulty * 3 / 2); r.Difficulty != want || r.IntervalRegistrations != 0 || r.AdjustAt != 20 {
		t.Fatalf("after the interval: %+v, want difficulty %d, 0 registrations, next adjustment at 20", r, want)
	}
	m, _ := n.query("miner/1")
	if m["immune_through"] != float64(6+membership.DefaultImmunityBlocks-1) {
		t.Fatalf("miner/1: %v, want immune_through %d", m, 6+membership.DefaultImmunityBlocks-1)
	}
}

// queryInto runs a JSON query and decodes its answer into v.
func (n *node) queryInto(t *testing.T, path string, v any) {
	t.Helper()
	resp, err := n.app.Query(context.Background(), &abcitypes.RequestQuery{Path: path})
	if err != nil || resp.Code != wire.QueryOK {
		t.Fatalf("query %s: %v %d %s", path, err, resp.GetCode(), resp.GetLog())
	}
	if err := json.Unmarshal(resp.Value, v); err != nil {
		t.Fatalf("query %s: %v", path, err)
	}
}

// squatGenesis: 256 uids, 16 registrations per block, immunity 30 blocks
// (above the scoring lag of 10 + 1 + 10 + 5), min_non_immune 128.
func squatGenesis() membership.Params {
	p := testMembership(256)
	p.MaxRegistrationsPerBlock, p.ImmunityBlocks, p.MinNonImmune = 16, 30, 128
	return p
}

// TestSquatAttack is the squat attack: throw-away keys
// take all 256 uids from the first block (16 per block, first in every
// block), then stop; an honest miner tries in every block. It obtains a
// uid at the bound of docs/membership.md §6, h0 + I + ⌈(k+1)/M⌉ − 1, by
// replacing the first squatter (weight 0, earliest registration, lowest
// uid), whose account loses the uid; before that it is refused with
// registrations_full (53) during the squat, then uids_full (13).
func TestSquatAttack(t *testing.T) {
	g := testGenesis(1)
	g.Chain.MaxSubmissionBlocks, g.Chain.MaxReportBlocks = 10, 10
	g.Membership = squatGenesis()
	p := g.Membership
	n := newNode(t, "", g)
	squatters := make([]*signer, 256)
	for i := range squatters {
		squatters[i] = newSigner(fmt.Sprint("squatter-", i))
	}
	honest := newSigner("honest")
	const h0 = 1
	bound := int64(h0) + p.ImmunityBlocks + int64((p.MinNonImmune+1+p.MaxRegistrationsPerBlock-1)/p.MaxRegistrationsPerBlock) - 1
	for next := 0; n.height < bound+5; {
		var txs [][]byte
		for ; next < len(squatters) && len(txs) < int(p.MaxRegistrationsPerBlock); next++ {
			txs = append(txs, squatters[next].tx(t, msgRegister()))
		}
		h := n.height + 1
		try := honest.next(msgRegister())
		resp := finalizeOnly(t, n, h, append(txs, try))
		code := resp.TxResults[len(txs)].Code
		if code != wire.CodeOK {
			want := wire.CodeUIDsFull
			if next <= len(squatters) && len(txs) == int(p.MaxRegistrationsPerBlock) {
				want = wire.CodeRegistrationsFull
			}
			if code != want {
				t.Fatalf("height %d: honest registration code %d (%s), want %d: %s", h, code, wire.CodeName(code), want, resp.TxResults[len(txs)].Log)
			}
			n.block(txs...)
			continue
		}
		if h != bound {
			t.Fatalf("honest miner registered at height %d, the bound is %d", h, bound)
		}
		resp = n.block(append(txs, honest.tx(t, msgRegister()))...)
		evs := resp.TxResults[len(txs)].Events
		if len(evs) != 2 || evs[0].Type != wire.EventMinerReplaced || fmt.Sprint(evs[0].Attributes[:3]) != fmt.Sprint([]abcitypes.EventAttribute{
			{Key: "uid", Value: "1", Index: true}, {Key: "old_pubkey", Value: hex.EncodeToString(squatters[0].pub()), Index: true},
			{Key: "new_pubkey", Value: hex.EncodeToString(honest.pub()), Index: true}}) {
			t.Fatalf("events %v, want miner_replaced (uid 1, the first squatter, the honest key) then miner_registered", evs)
		}
		acc, _ := n.query("account/" + hex.EncodeToString(honest.pub()))
		if acc["uid"] != float64(1) {
			t.Fatalf("honest account %v, want uid 1 (the first squatter's)", acc)
		}
		first, _ := n.query("account/" + hex.EncodeToString(squatters[0].pub()))
		if first["miner"] != false || first["uid"] != nil {
			t.Fatalf("replaced squatter's account %v, want no uid", first)
		}
		m, _ := n.query("miner/1")
		if m["pubkey"] != hex.EncodeToString(honest.pub()) || m["registered_height"] != float64(bound) {
			t.Fatalf("miner/1 = %v", m)
		}
		return
	}
	t.Fatalf("the honest miner had no uid %d blocks after the bound %d", 5, bound)
}

// TestPruning: with every uid taken, registrations replace the non-immune
// uids in prune order — weight 0 first, ties by registration height, then
// uid (B, C, D registered together), then the scored miner A — and then
// none is left (13). A replaced uid's account loses it, its window is
// cleared, its previous owner's revealed submission is never scored for
// the new owner (failed, "changed owner"), the previous owner can no longer
// reveal (11) and the new owner cannot open the previous owner's commit
// (50).
func TestPruning(t *testing.T) {
	g := testGenesis(4)
	g.Chain.MaxUIDs, g.Chain.MaxSubmissionBlocks, g.Chain.MaxReportBlocks = 4, 10, 10
	g.Membership = testMembership(4)
	g.Membership.ImmunityBlocks = 30 // scoring lag 10 + 1 + 10 + 5
	n := newNode(t, "", g)
	a, b, c, d := newMiner("miner-a", 1), newMiner("miner-b", 2), newMiner("miner-c", 3), newMiner("miner-d", 4)
	e, f, gg, h, late := newMiner("miner-e", 2), newMiner("miner-f", 3), newMiner("miner-g", 4), newMiner("miner-h", 1), newSigner("late")
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	reports := func(sub uint64) (txs [][]byte) {
		for _, s := range r {
			txs = append(txs, s.tx(t, msgWorkflowReport(sub, workflowM())))
		}
		return txs
	}
	mustOK(t, n.block(a.tx(t, msgRegister()), b.tx(t, msgRegister()), c.tx(t, msgRegister()), d.tx(t, msgRegister()),
		r[0].tx(t, msgWorkflowTask(4, 2, 10)))) // 1: task 0
	mustOK(t, n.block(a.commit(t, wfPayloadOf(a, 0)))) // 2: submission 0
	mustOK(t, n.block())
	mustOK(t, n.block(a.reveal(t, wfPayloadOf(a, 0)))) // 4
	mustOK(t, n.block(reports(0)...))                  // 5: A scored
	for n.height < 21 {
		mustOK(t, n.block())
	}
	mustOK(t, n.block(r[0].tx(t, msgWorkflowTask(4, 2, 10)), r[0].tx(t, msgWorkflowTask(4, 9, 10)))) // 22: tasks 1, 2
	mustOK(t, n.block(b.commit(t, wfPayloadOf(b, 1)), b.commit(t, wfPayloadOf(b, 2))))               // 23: submissions 1, 2
	mustOK(t, n.block())
	mustOK(t, n.block(b.reveal(t, wfPayloadOf(b, 1)))) // 25
	for n.height < 30 {
		mustOK(t, n.block())
	}
	if w, _ := n.query("window/1"); w["workflow"] == nil {
		t.Fatalf("window/1 = %v, want A's workflow window", w)
	}
	replaces := func(s *signer, uid uint32, old *signer, extra ...[]byte) {
		t.Helper()
		resp := n.block(append([][]byte{s.tx(t, msgRegister())}, extra...)...)
		mustOK(t, resp)
		ev := resp.TxResults[0].Events[0]
		if ev.Type != wire.EventMinerReplaced || ev.Attributes[0].Value != fmt.Sprint(uid) || ev.Attributes[1].Value != hex.EncodeToString(old.pub()) {
			t.Fatalf("height %d: %v, want uid %d taken from %x", n.height, resp.TxResults[0].Events, uid, old.pub())
		}
		if acc, _ := n.query("account/" + hex.EncodeToString(old.pub())); acc["miner"] != false {
			t.Fatalf("replaced account %v", acc)
		}
	}
	replaces(e, 2, b) // 31: B, C, D all weight 0 at height 1: the lowest uid
	pb2 := wfPayloadOf(b, 2)
	for _, tc := range []struct {
		name string
		tx   []byte
		code uint32
	}{
		{"the previous owner reveals its commit", crbRevealNext(b, pb2), wire.CodeNotMiner},
		{"the new owner reveals the previous owner's opening", e.next(client.Reveal(pb2, b.salt(pb2))), wire.CodeRevealMismatch},
	} {
		if got := finalizeOnly(t, n, n.height+1, [][]byte{tc.tx}).TxResults[0].Code; got != tc.code {
			t.Fatalf("%s: code %d (%s), want %d", tc.name, got, wire.CodeName(got), tc.code)
		}
	}
	replaces(f, 3, c)                 // 32
	replaces(gg, 4, d, reports(1)...) // 33: and B's revealed submission 1 settles
	replaces(h, 1, a)                 // 34: A, the last non-immune uid, though it has a weight
	if w, _ := n.query("window/1"); w["workflow"] != nil {
		t.Fatalf("window/1 = %v after the replacement, want none", w)
	}
	sub, _ := n.query("submission/1")
	if rc, _ := sub["receipt"].(map[string]any); sub["status"] != "failed" || rc == nil || !strings.Contains(fmt.Sprint(rc["note"]), "changed owner") {
		t.Fatalf("B's submission after its uid changed owner: %v", sub)
	}
	if got := finalizeOnly(t, n, n.height+1, [][]byte{late.next(msgRegister())}).TxResults[0].Code; got != wire.CodeUIDsFull {
		t.Fatalf("every uid immune: code %d, want %d", got, wire.CodeUIDsFull)
	}
}

// TestDeregister: a miner frees its uid; its account, miner record and
// window go, the next registration takes the freed uid before any
// replacement, and the uid's old submission is the previous owner's.
func TestDeregister(t *testing.T) {
	g := testGenesis(4)
	g.Chain.MaxUIDs, g.Chain.MaxSubmissionBlocks, g.Chain.MaxReportBlocks = 2, 10, 10
	g.Membership = testMembership(2)
	g.Membership.ImmunityBlocks = 30
	n := newNode(t, "", g)
	a, b, c := newMiner("miner-a", 1), newMiner("miner-b", 2), newMiner("miner-c", 1)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(a.tx(t, msgRegister()), b.tx(t, msgRegister()), r[0].tx(t, msgWorkflowTask(4, 2, 10))))
	mustOK(t, n.block(a.commit(t, wfPayloadOf(a, 0))))
	mustOK(t, n.block())
	mustOK(t, n.block(a.reveal(t, wfPayloadOf(a, 0))))
	if got := finalizeOnly(t, n, n.height+1, [][]byte{c.next(msgRegister())}).TxResults[0].Code; got != wire.CodeUIDsFull {
		t.Fatalf("full and every uid immune: code %d", got)
	}
	resp := n.block(a.tx(t, client.DeregisterMiner())) // 5
	mustOK(t, resp)
	if ev := resp.TxResults[0].Events[0]; ev.Type != wire.EventMinerDeregistered || ev.Attributes[0].Value != "1" {
		t.Fatalf("events %v", resp.TxResults[0].Events)
	}
	if acc, _ := n.query("account/" + hex.EncodeToString(a.pub())); acc["miner"] != false {
		t.Fatalf("deregistered account %v", acc)
	}
	if _, code := n.query("miner/1"); code != wire.QueryNotFound {
		t.Fatalf("miner/1 after deregistration: code %d", code)
	}
	if got := finalizeOnly(t, n, n.height+1, [][]byte{a.next(client.DeregisterMiner())}).TxResults[0].Code; got != wire.CodeNotMiner {
		t.Fatalf("deregister twice: code %d", got)
	}
	resp = n.block(c.tx(t, msgRegister())) // 6: the freed uid
	mustOK(t, resp)
	if ev := resp.TxResults[0].Events[0]; ev.Type != wire.EventMinerRegistered || ev.Attributes[0].Value != "1" {
		t.Fatalf("registration after deregistration: %v", resp.TxResults[0].Events)
	}
	var txs [][]byte
	for _, s := range r {
		txs = append(txs, s.tx(t, msgWorkflowReport(0, workflowM())))
	}
	mustOK(t, n.block(txs...)) // A's submission settles: not for C
	if w, _ := n.query("window/1"); w["workflow"] != nil {
		t.Fatalf("window/1 = %v: the previous owner's score reached the new owner", w)
	}
	if sub, _ := n.query("submission/0"); sub["status"] != "failed" {
		t.Fatalf("the previous owner's submission: %v", sub)
	}
}

// TestPreviousOwnerGasPrediction: a revealed gas prediction whose uid
// changed owner before its block closed is never closed into the new
// owner's agent: it is failed with the previous-owner note.
func TestPreviousOwnerGasPrediction(t *testing.T) {
	g := testGenesis(4)
	g.Chain.MaxUIDs = 1
	g.Membership = testMembership(1)
	n := newNode(t, "", g)
	a, c := newMiner("miner-a", 1), newMiner("miner-c", 1)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	truths := func(block uint64, ts int64) (txs [][]byte) {
		for _, s := range r {
			txs = append(txs, s.tx(t, msgTruth(1, block, "10", ts)))
		}
		return txs
	}
	mustOK(t, n.block(append([][]byte{a.tx(t, msgRegister())}, truths(100, 1_700_000_000)...)...)) // 1: chain 1 anchored
	mustOK(t, n.block(a.commit(t, gasPayload(1, 101, "5"))))                                       // 2 (time …012): submission 0
	mustOK(t, n.block(truths(101, 1_700_000_020)...))                                              // 3: final, reveals at 4
	mustOK(t, n.block(a.reveal(t, gasPayload(1, 101, "5")), a.tx(t, client.DeregisterMiner()), c.tx(t, msgRegister())))
	sub, _ := n.query("submission/0")
	if rc, _ := sub["receipt"].(map[string]any); sub["status"] != "failed" || rc == nil || !strings.Contains(fmt.Sprint(rc["note"]), "changed owner") {
		t.Fatalf("the previous owner's gas prediction after its block closed: %v", sub)
	}
}
