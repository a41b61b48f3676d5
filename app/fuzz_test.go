package app

import (
	"bytes"
	"testing"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/x/budget"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// FuzzDecodeTx: decoding never panics, and whatever decodes re-encodes to
// exactly the input (one transaction has one encoding).
func FuzzDecodeTx(f *testing.F) {
	a := newMiner("miner-a", 1)
	f.Add([]byte{})
	f.Add([]byte("garbage"))
	f.Add(a.tx(f, msgRegister()))
	f.Add(a.commit(f, wfPayload(3)))
	f.Add(a.reveal(f, wfPayload(3)))
	f.Add(a.commit(f, gasPayload(1, 2, "3")))
	f.Add(a.reveal(f, gasPayload(1, 2, "3")))
	f.Add(crbField3Tx(f, a, &subnetv1.Msg{}, wfPayload(3)))
	f.Add(reporter(0).tx(f, msgArenaReport(4, arenaM())))
	f.Add(reporter(0).tx(f, msgTruth(1, 2, "3.5", 4)))
	f.Add(reporter(0).tx(f, rawBatch(msgArenaReport(4, arenaM()), msgWorkflowReport(5, workflowM()))))
	f.Add([]byte{0x0a, 0x02, 0x22, 0x00, 0x12, 0x00})
	f.Fuzz(func(t *testing.T, raw []byte) {
		d, terr := wire.DecodeTx(raw)
		if terr != nil {
			if terr.Code == wire.CodeOK || terr.Msg == "" {
				t.Fatalf("rejection without code or message: %+v", terr)
			}
			return
		}
		again, err := d.Tx.Marshal()
		if err != nil || !bytes.Equal(again, raw) {
			t.Fatal("decoded tx does not re-encode to its bytes")
		}
	})
}

// FuzzValidity runs arbitrary bytes through the validity function and
// execution on a chain with miners, tasks, commits, reveals and gas state
// (catalogueChain: a commit window, a reveal window and a closed one are
// open at the fuzzed height): no panic; a rejection writes nothing; an
// acceptance advances the sender's nonce by exactly one.
func FuzzValidity(f *testing.F) {
	n, s := catalogueChain(f)
	a, b, r1 := s["a"], s["b"], s["r1"]
	seeds := []*subnetv1.Msg{
		crbCommitMsg(f, a, gasPayload(1, 250, "7")), crbRevealMsg(a, wfPayloadOf(a, 4)), crbRevealMsg(a, wfPayloadOf(a, 3)),
		crbRevealMsg(a, gasPayload(1, 200, "5")), client.Reveal(wfPayloadOf(a, 4), client.Salt{1}), msgRegister(), &subnetv1.Msg{},
	}
	for _, m := range seeds {
		f.Add(a.next(m))
	}
	for _, m := range []*subnetv1.Msg{crbCommitMsg(f, b, wfPayloadOf(b, 3)), crbRevealMsg(b, wfPayloadOf(b, 4)), crbRevealMsg(a, wfPayloadOf(a, 4))} {
		f.Add(b.next(m))
	}
	for _, m := range []*subnetv1.Msg{msgWorkflowReport(0, workflowM()), msgArenaReport(1, arenaM()),
		msgTruth(1, 300, "11", 1_700_000_060), msgWorkflowTask(3, 2, 2), msgArenaTask(2, 2, 2), msgWorkflowReport(0, twoSteps()),
		rawBatch(msgWorkflowReport(0, workflowM()), msgArenaReport(1, arenaM())), rawBatch(msgWorkflowReport(99, workflowM()), msgArenaReport(1, arenaM())),
		rawBatch(msgWorkflowReport(0, workflowM()), msgWorkflowReport(0, twoSteps())), rawBatch()} {
		f.Add(r1.next(m))
	}
	f.Add([]byte("junk"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		base, _ := n.app.base()
		bo := store.NewOverlay(base)
		blk := &kernel.Block{Height: n.height + 1, Time: blockTime(n.height + 1).Unix(), Chain: n.app.chain}
		m := budget.NewMeter(n.app.limits, bo)
		res := n.app.deliverTx(bo, raw, blk, m)
		if res.Code != wire.CodeOK {
			if bo.Len() != 0 || res.Log == "" {
				t.Fatalf("rejected tx (code %d) wrote %d entries / empty log", res.Code, bo.Len())
			}
			return
		}
		d, _ := wire.DecodeTx(raw)
		before := store.State{O: store.NewOverlay(base)}.Account(d.Body.Sender).NextNonce
		after := store.State{O: bo}.Account(d.Body.Sender).NextNonce
		if after != before+1 {
			t.Fatalf("accepted tx moved the nonce %d → %d", before, after)
		}
		endBlock(n.app.env(bo, blk), m)
	})
}
