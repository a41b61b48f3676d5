package app

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// crbRevealChain builds the state FuzzReveal runs against, at its next
// height 5, with a reveal window of 5 blocks on every track:
//   - miners A, B, C, D (uids 1 … 4);
//   - workflow task 0 and arena task 1: commits to 2, reveals 3 … 7. On
//     task 0, A and D committed the same (shared) artifact, wfPayload(0),
//     and A revealed it at 4 (the keeper: D's reveal would be its
//     duplicate); B and C committed their own. On task 1 each miner
//     committed its own artifact;
//   - EVM chain 1, closed at 99 (the anchor); A, B and C committed to block
//     100 at prices 10, 11, 12; its truth became final at 3, so its reveals
//     run 4 … 8; C revealed at 4. D committed to block 101, whose truth is
//     not final (a reveal is too early).
func crbRevealChain(t testing.TB) (*node, []*signer) {
	t.Helper()
	g := testGenesis(3)
	for i := range g.Tracks {
		g.Tracks[i].RevealBlocks = 5
	}
	n := newNode(t, "", g)
	m := []*signer{newMiner("reveal-a", 1), newMiner("reveal-b", 2), newMiner("reveal-c", 3), newMiner("reveal-d", 4)}
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	txs := [][]byte{}
	for _, s := range m {
		txs = append(txs, s.tx(t, msgRegister()))
	}
	txs = append(txs, r[0].tx(t, msgWorkflowTask(4, 1, 5)), r[0].tx(t, msgArenaTask(5, 1, 5)))
	mustOK(t, n.block(append(txs, anchorTxs(t, r, 1, 99, blockTime(1).Unix())...)...))
	txs = [][]byte{m[0].commit(t, wfPayload(0)), m[1].commit(t, wfPayloadOf(m[1], 0)), m[2].commit(t, wfPayloadOf(m[2], 0)),
		m[3].commit(t, wfPayload(0))}
	for _, s := range m {
		txs = append(txs, s.commit(t, arenaPayloadOf(s, 1)))
	}
	for i, s := range m[:3] {
		txs = append(txs, s.commit(t, gasPayload(1, 100, crbPrice(i))))
	}
	txs = append(txs, m[3].commit(t, gasPayload(1, 101, "10")))
	mustOK(t, n.block(txs...)) // 2
	txs = nil
	for _, v := range r {
		txs = append(txs, v.tx(t, msgTruth(1, 100, "11", blockTime(3).Unix())))
	}
	mustOK(t, n.block(txs...))                                                                        // 3: block 100's truth is final
	mustOK(t, n.block(m[0].reveal(t, wfPayload(0)), m[2].reveal(t, gasPayload(1, 100, crbPrice(2))))) // 4
	return n, m
}

func crbPrice(i int) string { return []string{"10", "11", "12"}[i] }

// FuzzReveal sends arbitrary MsgReveal bodies — the payload's kind, task,
// EVM chain and block, artifact bytes, price and salt bytes fuzzed, from
// any of the four miners, a key that is no miner, or a validator's key,
// with the salt as given, the sender's real salt for that payload, or
// another miner's — against crbRevealChain, whose reveal windows are open
// over commits of several miners. With saltMode 3 the artifact bytes are
// instead decoded as a whole MsgReveal. It must never panic; an accepted
// reveal changes the state; every refusal has a non-zero code of
// wire.Codes and a log, CheckTx agrees with FinalizeBlock, and the block
// holding it has the app hash of the empty block of a twin node that never
// saw it, as has the empty block the node runs after it (a refusal leaves
// nothing behind, in state or in memory).
func FuzzReveal(f *testing.F) {
	n, m := crbRevealChain(f)
	twin, _ := crbRevealChain(f)
	h := n.height + 1
	empty := crbFinalize(f, twin, h, nil).AppHash
	if got := crbFinalize(f, n, h, nil).AppHash; !bytes.Equal(got, empty) {
		f.Fatal("the two nodes built different chains")
	}
	outsider, validator := newSigner("reveal-outsider"), reporter(1)
	resync(n, validator)
	wfA, wfB := wfPayloadOf(m[1], 0).GetWorkflow().ArtifactHash, artifact("workflow 0")
	arB := arenaPayloadOf(m[1], 1).GetArena().ArtifactHash
	// kind, task, evm chain, evm block, artifact, price, salt, sender, salt mode
	f.Add(uint8(0), uint64(0), uint64(0), uint64(0), wfB, "", []byte{}, uint8(3), uint8(1))            // D: a duplicate of A's
	f.Add(uint8(0), uint64(0), uint64(0), uint64(0), wfA, "", []byte{}, uint8(1), uint8(1))            // B: its own, accepted
	f.Add(uint8(0), uint64(0), uint64(0), uint64(0), wfA, "", []byte{}, uint8(1), uint8(0))            // B: empty salt
	f.Add(uint8(0), uint64(0), uint64(0), uint64(0), wfA, "", make([]byte, 32), uint8(1), uint8(0))    // B: wrong salt
	f.Add(uint8(0), uint64(0), uint64(0), uint64(0), wfB, "", []byte{}, uint8(2), uint8(2))            // C: D's exact opening
	f.Add(uint8(0), uint64(0), uint64(0), uint64(0), wfB, "", []byte{}, uint8(0), uint8(1))            // A: second reveal
	f.Add(uint8(1), uint64(1), uint64(0), uint64(0), arB, "", []byte{}, uint8(1), uint8(1))            // B: arena, accepted
	f.Add(uint8(1), uint64(0), uint64(0), uint64(0), arB, "", []byte{}, uint8(1), uint8(1))            // arena payload for a workflow task
	f.Add(uint8(1), uint64(1), uint64(0), uint64(0), arB[:31], "", []byte{}, uint8(1), uint8(1))       // 31-byte artifact
	f.Add(uint8(0), uint64(7), uint64(0), uint64(0), wfA, "", []byte{}, uint8(1), uint8(1))            // unknown task
	f.Add(uint8(2), uint64(0), uint64(1), uint64(100), []byte{}, "10", []byte{}, uint8(0), uint8(1))   // A: gas, accepted
	f.Add(uint8(2), uint64(0), uint64(1), uint64(100), []byte{}, "10.0", []byte{}, uint8(0), uint8(1)) // A: the price spelled otherwise
	f.Add(uint8(2), uint64(0), uint64(1), uint64(100), []byte{}, "11", []byte{}, uint8(0), uint8(1))   // A: another price
	f.Add(uint8(2), uint64(0), uint64(1), uint64(101), []byte{}, "10", []byte{}, uint8(3), uint8(1))   // D: before its truth is final
	f.Add(uint8(2), uint64(0), uint64(1), uint64(100), []byte{}, "12", []byte{}, uint8(2), uint8(1))   // C: second reveal
	f.Add(uint8(2), uint64(0), uint64(1), uint64(100), []byte{}, "10", []byte{}, uint8(3), uint8(1))   // D: no commit
	f.Add(uint8(2), uint64(0), uint64(8453), uint64(100), []byte{}, "10", []byte{}, uint8(0), uint8(1))
	f.Add(uint8(2), uint64(0), uint64(1), uint64(100), []byte{}, "-1", []byte{}, uint8(0), uint8(1))
	f.Add(uint8(2), uint64(0), uint64(1), uint64(100), []byte{}, "1e3", []byte{}, uint8(0), uint8(1))
	f.Add(uint8(3), uint64(0), uint64(0), uint64(0), []byte{}, "", []byte{}, uint8(0), uint8(0)) // no payload kind
	f.Add(uint8(0), uint64(0), uint64(0), uint64(0), wfA, "", []byte{}, uint8(4), uint8(1))      // not a miner
	f.Add(uint8(0), uint64(0), uint64(0), uint64(0), wfA, "", []byte{}, uint8(5), uint8(1))      // a validator
	raw, _ := (&subnetv1.MsgReveal{Submit: wfPayloadOf(m[1], 0), Salt: make([]byte, 32)}).Marshal()
	f.Add(uint8(0), uint64(0), uint64(0), uint64(0), raw, "", []byte{}, uint8(1), uint8(3)) // raw body
	f.Fuzz(func(t *testing.T, kind uint8, task, chain, block uint64, artifactBytes []byte, price string, salt []byte, who, saltMode uint8) {
		senders := []*signer{m[0], m[1], m[2], m[3], outsider, validator}
		s := senders[int(who)%len(senders)]
		var p *subnetv1.MsgSubmit
		switch kind % 4 {
		case 0:
			p = client.WorkflowPayload(task, artifactBytes)
		case 1:
			p = client.ArenaPayload(task, artifactBytes)
		case 2:
			p = client.GasPayload(chain, block, price)
		case 3:
			p = &subnetv1.MsgSubmit{}
		}
		var msg *subnetv1.Msg
		switch saltMode % 4 {
		case 0:
			msg = crbRevealRaw(p, salt)
		case 1:
			msg = crbRevealMsg(s, p)
		case 2:
			msg = crbRevealMsg(m[(int(who)+1)%len(m)], p)
		case 3:
			r := &subnetv1.MsgReveal{}
			if r.Unmarshal(artifactBytes) != nil {
				return
			}
			msg = &subnetv1.Msg{Sum: &subnetv1.Msg_Reveal{Reveal: r}}
		}
		tx := s.next(msg)
		resp := finalizeOnly(t, n, h, [][]byte{tx})
		res := resp.TxResults[0]
		if res.Code == wire.CodeOK {
			if bytes.Equal(resp.AppHash, empty) {
				t.Fatal("an accepted reveal changed nothing")
			}
			if _, ok := eventAttr(res.Events, wire.EventSubmissionRevealed, "submission_id"); !ok {
				t.Fatalf("an accepted reveal has no %s event: %v", wire.EventSubmissionRevealed, res.Events)
			}
			return
		}
		if int(res.Code) >= len(wire.Codes) || wire.Codes[res.Code].Code != res.Code || res.Log == "" {
			t.Fatalf("refusal with code %d and log %q: not a code of wire.Codes, or no log", res.Code, res.Log)
		}
		if !bytes.Equal(resp.AppHash, empty) {
			t.Fatalf("a refused reveal (code %d, %s) changed the app hash", res.Code, res.Log)
		}
		if chk, _ := n.app.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: tx}); chk.Code != res.Code {
			t.Fatalf("CheckTx code %d, FinalizeBlock %d (%s): one validity function must agree", chk.Code, res.Code, res.Log)
		}
		if after := finalizeOnly(t, n, h, nil).AppHash; !bytes.Equal(after, empty) {
			t.Fatalf("after a refused reveal (code %d) the empty block's app hash differs from the twin's", res.Code)
		}
	})
}

// TestRevealChainStatuses pins the state FuzzReveal runs against, so that
// its seeds keep meaning what their comments say.
func TestRevealChainStatuses(t *testing.T) {
	n, m := crbRevealChain(t)
	for id, want := range map[int]string{0: kernel.StatusPending, 1: kernel.StatusCommitted, 3: kernel.StatusCommitted,
		8: kernel.StatusCommitted, 10: kernel.StatusPending, 11: kernel.StatusCommitted} {
		if s, _ := n.query(fmt.Sprint("submission/", id)); s["status"] != want {
			t.Fatalf("submission %d = %v, want %s", id, s["status"], want)
		}
	}
	h := n.height + 1
	for _, c := range []struct {
		tx   []byte
		code uint32
	}{
		{crbRevealNext(m[3], wfPayload(0)), wire.CodeOK},
		{crbRevealNext(m[1], wfPayloadOf(m[1], 0)), wire.CodeOK},
		{crbRevealNext(m[1], arenaPayloadOf(m[1], 1)), wire.CodeOK},
		{crbRevealNext(m[0], gasPayload(1, 100, "10")), wire.CodeOK},
		{crbRevealNext(m[0], gasPayload(1, 100, "11")), wire.CodeRevealMismatch},
		{crbRevealNext(m[3], gasPayload(1, 101, "10")), wire.CodeRevealWindow},
		{crbRevealNext(m[2], gasPayload(1, 100, "12")), wire.CodeDuplicateSubmission},
	} {
		if got := finalizeOnly(t, n, h, [][]byte{c.tx}).TxResults[0]; got.Code != c.code {
			t.Fatalf("code %d (%s), want %d", got.Code, got.Log, c.code)
		}
	}
	resp := finalizeOnly(t, n, h, [][]byte{crbRevealNext(m[3], wfPayload(0))})
	if _, ok := eventAttr(resp.TxResults[0].Events, wire.EventSubmissionDuplicate, "submission_id"); !ok {
		t.Fatal("D's reveal of the shared artifact is not a duplicate")
	}
}

// crbFinalize executes a block at height h without committing it.
func crbFinalize(t testing.TB, n *node, h int64, txs [][]byte) *abcitypes.ResponseFinalizeBlock {
	t.Helper()
	resp, err := n.app.FinalizeBlock(context.Background(), &abcitypes.RequestFinalizeBlock{Height: h, Time: blockTime(h), Txs: txs})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}
