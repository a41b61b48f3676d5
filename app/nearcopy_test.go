package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/offline"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// The near-copy attack: one operator holds k uids (each a registration's
// proof of work) and reveals one workflow under k artifact hashes that
// differ by a byte. The exact duplicate rule sees k distinct hashes, so all
// k scored the honest 0.8575 and the per-uid cap bounded nothing for the
// operator. Validators, who read the artifacts, now name the original in
// their reports (duplicate_of), and the settled verdict makes the copies
// duplicates: 0, as an equal hash would.

// honestScore is workflowM()'s score (docs/scoring.md's worked example).
const honestScore = "0.857500000000000000"

// nearCopyChain posts workflow task 0 (commits to height 3, the reveal at
// 4, reports from 5 to 7) on genesis g; an honest miner (uid 1, submission
// 0) and the operator's three uids 2, 3, 4 (submissions 1, 2, 3) commit at
// height 2 and reveal at height 4, the operator's three artifacts one
// workflow with a byte changed. It returns the node at height 4 and the
// validators' report signers.
func nearCopyChain(t *testing.T, g genesis.AppState) (*node, []*signer) {
	return nearCopyChainRevealing(t, g, 4)
}

// nearCopyChainRevealing is nearCopyChain in which only the first
// `reveals` of the four submissions are revealed.
func nearCopyChainRevealing(t *testing.T, g genesis.AppState, reveals int) (*node, []*signer) {
	t.Helper()
	n := newNode(t, "", g)
	r := make([]*signer, len(g.Validators))
	for i := range r {
		r[i] = reporter(i)
	}
	honest := newMiner("honest", 1)
	ops := []*signer{newMiner("operator-1", 2), newMiner("operator-2", 3), newMiner("operator-3", 4)}
	mustOK(t, n.block(honest.tx(t, msgRegister()), ops[0].tx(t, msgRegister()), ops[1].tx(t, msgRegister()),
		ops[2].tx(t, msgRegister()), r[0].tx(t, msgWorkflowTask(4, 2, 3))))
	payloads := []*subnetv1.MsgSubmit{wfPayloadOf(honest, 0)}
	for i := range ops {
		payloads = append(payloads, client.WorkflowPayload(0, artifact(fmt.Sprint("the operator's workflow, byte ", i))))
	}
	miners := append([]*signer{honest}, ops...)
	var commits, opens [][]byte
	for i, m := range miners {
		commits = append(commits, m.commit(t, payloads[i]))
		if i < reveals {
			opens = append(opens, m.reveal(t, payloads[i]))
		}
	}
	mustOK(t, n.block(commits...))
	mustOK(t, n.block())
	mustOK(t, n.block(opens...))
	return n, r
}

// nearCopyReport is r's report of workflowM() on sub, naming of (0: none).
func nearCopyReport(t *testing.T, r *signer, sub, of uint64) []byte {
	return r.tx(t, client.DuplicateOf(msgWorkflowReport(sub, workflowM()), of))
}

// reportAll has every validator of r report on submissions 0..3, each
// naming names[sub] (0: none), all in one block.
func reportAll(t *testing.T, n *node, r []*signer, names map[uint64]uint64) *abcitypes.ResponseFinalizeBlock {
	t.Helper()
	var txs [][]byte
	for sub := uint64(0); sub < 4; sub++ {
		for _, v := range r {
			txs = append(txs, nearCopyReport(t, v, sub, names[sub]))
		}
	}
	resp := n.block(txs...)
	mustOK(t, resp)
	return resp
}

func status(t *testing.T, n *node, sub uint64) (string, string) {
	t.Helper()
	s, code := n.query(fmt.Sprint("submission/", sub))
	if code != 0 {
		t.Fatalf("submission %d: query code %d", sub, code)
	}
	st, _ := s["status"].(string)
	return st, score(s)
}

// TestNearCopyAttack: three validators of equal power report every
// submission at height 5. Without names, the operator's three near-copies
// each score the honest score; with the honest validators naming the
// operator's first (submission 1) in the reports of 2 and 3, only the
// first scores and the copies are duplicates, score 0, a 0 in their
// windows, with a receipt and event that say so.
func TestNearCopyAttack(t *testing.T) {
	t.Run("without names every copy scores", func(t *testing.T) {
		n, r := nearCopyChain(t, testGenesis(3))
		reportAll(t, n, r, nil)
		for sub := uint64(0); sub < 4; sub++ {
			if st, sc := status(t, n, sub); st != kernel.StatusScored || sc != honestScore {
				t.Fatalf("submission %d = %s %q, want scored %s", sub, st, sc, honestScore)
			}
		}
	})
	t.Run("named copies are duplicates", func(t *testing.T) {
		n, r := nearCopyChain(t, testGenesis(3))
		resp := reportAll(t, n, r, map[uint64]uint64{2: 1, 3: 1})
		for sub, want := range []string{kernel.StatusScored, kernel.StatusScored, kernel.StatusDuplicate, kernel.StatusDuplicate} {
			st, sc := status(t, n, uint64(sub))
			if st != want {
				t.Fatalf("submission %d = %s, want %s", sub, st, want)
			}
			if want == kernel.StatusDuplicate && sc != "0.000000000000000000" {
				t.Fatalf("near-copy %d scored %q, want 0", sub, sc)
			}
		}
		s, _ := n.query("submission/2")
		if s["near_copy"] != true || s["duplicate_of_uid"] != float64(2) || s["duplicate_of_height"] != float64(2) {
			t.Fatalf("submission 2: near_copy %v, duplicate_of_uid %v, duplicate_of_height %v; want true, 2, 2",
				s["near_copy"], s["duplicate_of_uid"], s["duplicate_of_height"])
		}
		rec := s["receipt"].(map[string]any)
		if note, _ := rec["note"].(string); !strings.Contains(note, "near-copy of submission 1") || !strings.Contains(note, "power 30 of the 30 reported") {
			t.Fatalf("receipt note = %q, want the verdict and its powers", note)
		}
		if !strings.Contains(fmt.Sprint(rec["commit"]), "near_copy") {
			t.Fatalf("receipt commit section %v lacks near_copy", rec["commit"])
		}
		var nearCopies int
		for _, ev := range crbEvents(resp) {
			if ev.Type == wire.EventSubmissionDuplicate && attr(ev, "near_copy") == "true" && attr(ev, "duplicate_of") == "1" {
				nearCopies++
			}
		}
		if nearCopies != 2 {
			t.Fatalf("%d %s events with near_copy=true duplicate_of=1, want 2", nearCopies, wire.EventSubmissionDuplicate)
		}
		for uid, want := range map[int]string{2: honestScore, 3: "0.000000000000000000", 4: "0.000000000000000000"} {
			w, _ := n.query(fmt.Sprint("window/", uid))
			scores := w["workflow"].(map[string]any)["scores"].([]any)
			if len(scores) != 1 || scores[0] != want {
				t.Fatalf("uid %d's window = %v, want [%s]", uid, scores, want)
			}
		}
		verifyReceipt(t, n, 2)
		replayCompare(t, n, testGenesis(3)) // a fresh node reaches every app hash
	})
}

func attr(ev abcitypes.Event, key string) string {
	for _, a := range ev.Attributes {
		if a.Key == key {
			return a.Value
		}
	}
	return ""
}

// verifyReceipt checks submission sub's receipt with the offline verifier
// (offline.Receipts over the submission answer): a near-copy's receipt
// verifies, its verdict recomputed from the answer's votes and the
// receipt's powers.
func verifyReceipt(t *testing.T, n *node, sub uint64) {
	t.Helper()
	ans, _ := n.query(fmt.Sprint("submission/", sub))
	bz, err := json.Marshal(ans)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := offline.Receipts(bytes.NewReader(bz), &out, nil); err != nil {
		t.Fatalf("submission %d's receipt: %v\n%s", sub, err, out.String())
	}
	if !strings.Contains(out.String(), `"near_copy":true`) || !strings.Contains(out.String(), `"verified":true`) || strings.Contains(out.String(), "unchecked") {
		t.Fatalf("verifier output %s: want near_copy verified, nothing unchecked", out.String())
	}
}

// TestNearCopyMinorityCannotMark: a validator below 1/3 of the power names
// an honest submission a near-copy of an earlier one; the others name
// nothing. Early (the quorum reached by the minority's report and two
// honest ones) and at the deadline (a coalition of 32 and an honest 19: 51
// of 100 passes the deadline quorum, and 32 is a majority of it) the
// submission scores.
func TestNearCopyMinorityCannotMark(t *testing.T) {
	t.Run("early", func(t *testing.T) {
		n, r := nearCopyChain(t, testGenesis(4))
		mustOK(t, n.block(nearCopyReport(t, r[0], 3, 1), nearCopyReport(t, r[1], 3, 0), nearCopyReport(t, r[2], 3, 0)))
		if st, sc := status(t, n, 3); st != kernel.StatusScored || sc != honestScore {
			t.Fatalf("submission 3 = %s %q, want scored %s", st, sc, honestScore)
		}
	})
	t.Run("deadline", func(t *testing.T) {
		// 32 + 19 of 100 report at height 5; the deadline is height 7
		n, r := nearCopyChain(t, powersGenesis(32, 19, 25, 24))
		mustOK(t, n.block(nearCopyReport(t, r[0], 3, 1), nearCopyReport(t, r[1], 3, 0)))
		mustOK(t, n.block())
		if st, _ := status(t, n, 3); st != kernel.StatusPending {
			t.Fatalf("submission 3 = %s before its deadline, want pending", st)
		}
		mustOK(t, n.block())
		if st, sc := status(t, n, 3); st != kernel.StatusScored || sc != honestScore {
			t.Fatalf("submission 3 = %s %q at its deadline, want scored %s: a coalition below 1/3 marked it", st, sc, honestScore)
		}
	})
}

// TestNearCopyMinorityCannotBlock: the honest validators (25 and 24 of
// 100) name the copy's original, the coalition of 32 names nothing. 81 of
// 100 settles early, the honest names hold more than half of it: the copy
// is a duplicate.
func TestNearCopyMinorityCannotBlock(t *testing.T) {
	n, r := nearCopyChain(t, powersGenesis(32, 19, 25, 24))
	mustOK(t, n.block(nearCopyReport(t, r[0], 3, 0), nearCopyReport(t, r[2], 3, 1), nearCopyReport(t, r[3], 3, 1)))
	if st, _ := status(t, n, 3); st != kernel.StatusDuplicate {
		t.Fatalf("submission 3 = %s, want duplicate", st)
	}
}

// TestNearCopySplitScores: the names split (10 for submission 1, 10 for
// submission 2, 10 for none): no name holds a majority, the submission
// scores as usual.
func TestNearCopySplitScores(t *testing.T) {
	n, r := nearCopyChain(t, testGenesis(3))
	mustOK(t, n.block(nearCopyReport(t, r[0], 3, 1), nearCopyReport(t, r[1], 3, 2), nearCopyReport(t, r[2], 3, 0)))
	if st, sc := status(t, n, 3); st != kernel.StatusScored || sc != honestScore {
		t.Fatalf("submission 3 = %s %q, want scored %s", st, sc, honestScore)
	}
}

// TestNearCopyArena: in arena the verdict comes at settlement, before the
// end of the block scores the task: the copy is a duplicate, a 0 in its
// window, and never enters the task's baseline.
func TestNearCopyArena(t *testing.T) {
	n := newNode(t, "", testGenesis(3))
	a, b, c := newMiner("miner-a", 1), newMiner("miner-b", 2), newMiner("miner-c", 3)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(a.tx(t, msgRegister()), b.tx(t, msgRegister()), c.tx(t, msgRegister()), r[0].tx(t, msgArenaTask(5, 1, 2))))
	pa, pb := arenaPayloadOf(a, 0), arenaPayloadOf(b, 0)
	pc := client.ArenaPayload(0, artifact("miner-b's run with a byte changed"))
	mustOK(t, n.block(a.commit(t, pa), b.commit(t, pb), c.commit(t, pc))) // submissions 0, 1, 2
	mustOK(t, n.block(a.reveal(t, pa), b.reveal(t, pb), c.reveal(t, pc)))
	var txs [][]byte
	for sub := uint64(0); sub < 3; sub++ {
		for i := 0; i < 3; i++ {
			of := uint64(0)
			if sub == 2 {
				of = 1
			}
			txs = append(txs, r[i].tx(t, client.DuplicateOf(msgArenaReport(sub, arenaM()), of)))
		}
	}
	mustOK(t, n.block(txs...))
	for sub, want := range []string{kernel.StatusScored, kernel.StatusScored, kernel.StatusDuplicate} {
		if st, _ := status(t, n, uint64(sub)); st != want {
			t.Fatalf("submission %d = %s, want %s", sub, st, want)
		}
	}
	if bl, _ := n.query("baseline/0"); bl["samples"] != float64(2) {
		t.Fatalf("task 0's baseline has %v samples, want 2 (the near-copy left out)", bl["samples"])
	}
	w, _ := n.query("window/3")
	if scores := w["arena"].(map[string]any)["scores"].([]any); len(scores) != 1 || scores[0] != "0.000000000000000000" {
		t.Fatalf("uid 3's arena window = %v, want [0]", scores)
	}
}

// TestNearCopyBadDuplicateOf: a report whose duplicate_of names no
// earlier revealed submission of the task is refused with code 79 and a
// message naming the ids, by CheckTx and FinalizeBlock alike, and leaves the
// state as it was (the app hash of the same block without it). Submission 3
// was never revealed. (Another task's submission: TestRejectionCatalogue.)
func TestNearCopyBadDuplicateOf(t *testing.T) {
	n, r := nearCopyChainRevealing(t, testGenesis(3), 3)
	h := n.height + 1
	empty := finalizeOnly(t, n, h, nil)
	cases := []struct {
		name    string
		sub, of uint64
		says    string
	}{
		{"itself", 2, 2, "duplicate_of = 2 is the reported submission itself"},
		{"no such submission", 2, 99, "duplicate_of = 99: no such submission"},
		{"never revealed", 2, 3, "duplicate_of = 3 was never revealed"},
		{"a later commit", 1, 2, "duplicate_of = 2 (uid 3, commit height 2) does not precede submission 1 (uid 2, commit height 2)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tx := r[1].next(client.DuplicateOf(msgWorkflowReport(tc.sub, workflowM()), tc.of))
			resp := finalizeOnly(t, n, h, [][]byte{tx})
			res := resp.TxResults[0]
			if res.Code != wire.CodeBadDuplicateOf || !strings.Contains(res.Log, tc.says) || !strings.Contains(res.Log, "or 0 for none") {
				t.Fatalf("code %d, log %q; want %d saying %q and what to do", res.Code, res.Log, wire.CodeBadDuplicateOf, tc.says)
			}
			if !bytes.Equal(resp.AppHash, empty.AppHash) {
				t.Fatal("a refused report changed the state")
			}
			chk, _ := n.app.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: tx})
			if chk.Code != wire.CodeBadDuplicateOf {
				t.Fatalf("CheckTx code %d, want %d", chk.Code, wire.CodeBadDuplicateOf)
			}
		})
	}
	// the same report naming the earlier submission 1 is taken
	mustOK(t, n.block(r[1].tx(t, client.DuplicateOf(msgWorkflowReport(2, workflowM()), 1))))
}

// TestNearCopyArtifactIndexCleared: a task's artifact index (hash → keeper)
// goes at the task's settlement. A near-copy marked early kept its own
// hash's entry (its hash was nobody else's), and the settlement, which
// skipped every duplicate, left it in the state for good.
func TestNearCopyArtifactIndexCleared(t *testing.T) {
	n, r := nearCopyChain(t, testGenesis(3))
	reportAll(t, n, r, map[uint64]uint64{2: 1, 3: 1}) // height 5: 2 and 3 are near-copies
	mustOK(t, n.block())
	mustOK(t, n.block()) // height 7: task 0's report deadline, its settlement
	base, _ := n.app.base()
	st := store.State{O: store.NewOverlay(base)}
	for id := uint64(0); id < 4; id++ {
		sub, _ := st.Submission(id)
		if st.Has(store.KeyTaskArtifact(0, sub.ArtifactHash)) {
			t.Errorf("submission %d (%s): its artifact index entry outlived the task's settlement", id, sub.Status)
		}
	}
}

// TestPropertyNearCopyMinority runs the verdict on real chains: four
// validators of random powers, a random coalition below 1/3 of the total
// naming anything (submission 1, 2 or none) in its report of submission 3,
// the honest validators who report (some stay away) all naming v (1 or
// none), in a random order. Whatever settles it — the early quorum, at the
// report that crosses 2/3, or the deadline — submission 3 is a duplicate
// only if v names 1, and at the early quorum exactly then: the coalition
// neither marks an honest submission nor blocks the honest reporters.
func TestPropertyNearCopyMinority(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for round := 0; round < 24; round++ {
		powers := make([]int64, 4)
		var total int64
		for i := range powers {
			powers[i] = 1 + rng.Int64N(40)
			total += powers[i]
		}
		var coalition []int
		var cp int64
		for i, p := range powers {
			if rng.IntN(3) == 0 && 3*(cp+p) < total {
				coalition, cp = append(coalition, i), cp+p
			}
		}
		v := uint64(rng.IntN(2)) // the honest answer: 1, or 0 for none
		n, r := nearCopyChain(t, powersGenesis(powers...))
		var txs [][]byte
		for _, i := range rng.Perm(4) {
			of := v
			if slices.Contains(coalition, i) {
				of = uint64(rng.IntN(3))
			} else if rng.IntN(4) == 0 {
				continue // absent
			}
			txs = append(txs, nearCopyReport(t, r[i], 3, of))
		}
		n.block(txs...)
		early, _ := status(t, n, 3)
		n.block()
		n.block() // height 7: the deadline
		st, _ := status(t, n, 3)
		desc := fmt.Sprintf("round %d: powers %v, coalition %v, honest %d", round, powers, coalition, v)
		if st == kernel.StatusDuplicate && v != 1 {
			t.Fatalf("%s: submission 3 marked a near-copy the honest validators did not name", desc)
		}
		if early != kernel.StatusPending && v == 1 && st != kernel.StatusDuplicate {
			t.Fatalf("%s: settled early as %s although every honest reporter named 1", desc, st)
		}
	}
}
