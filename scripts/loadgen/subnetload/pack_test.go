package subnetload

import (
	"fmt"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

// TestPack: a lone commit stays one transaction, in place; a validator's reports (of both
// tracks) become batches at the place of its first report, within wire.MaxReportBatch entries
// and max_tx_bytes signed, every report once and in order.
func TestPack(t *testing.T) {
	cfg := testConfig(2)
	commit := func(m int) Intent {
		msg, err := client.Commit(cfg.ChainID, cfg.MinerPubs[m], cfg.UIDs[m], setup.WorkflowPayload(m, 1), client.Salt{})
		if err != nil {
			t.Fatal(err)
		}
		return Intent{From: Actor{Index: m}, Kind: KindCommit, Track: genesis.TrackWorkflow, Msg: msg}
	}
	report := func(v int, track string, sub uint64) Intent {
		return Intent{From: Actor{Validator: true, Index: v}, Kind: KindReport, Track: track,
			Msg: setup.Report(cfg.Seed, v, false, track, sub, int(sub), 1)}
	}
	ins := []Intent{commit(0)}
	for s := range uint64(300) {
		ins = append(ins, report(0, genesis.TrackWorkflow, s))
		if s == 0 {
			ins = append(ins, report(1, genesis.TrackArena, 1000), commit(1))
		}
	}
	ins = append(ins, report(0, genesis.TrackArena, 2000), report(1, genesis.TrackArena, 1001))
	txs, err := Pack(cfg, ins)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var next uint64
	for _, tx := range txs {
		who := fmt.Sprint("m", tx.From.Index)
		if tx.From.Validator {
			who = fmt.Sprint("v", tx.From.Index)
		}
		got = append(got, fmt.Sprintf("%s %s", tx.Kind, who))
		if tx.Kind != KindReport {
			if tx.Entries != 1 || tx.Msg.GetCommit() == nil {
				t.Errorf("%s %s: %d entries, msg %T", tx.Kind, who, tx.Entries, tx.Msg.GetSum())
			}
			continue
		}
		entries := tx.Msg.GetReportBatch().GetEntries()
		if len(entries) != tx.Entries || len(entries) > wire.MaxReportBatch || len(entries) == 0 {
			t.Errorf("batch of %s: %d entries (Entries %d)", who, len(entries), tx.Entries)
		}
		if n := setup.SignedSize(cfg.ChainID, tx.Msg); int64(n) > cfg.MaxTxBytes {
			t.Errorf("batch of %s: %d bytes signed, max %d", who, n, cfg.MaxTxBytes)
		}
		if who == "v0" {
			for _, e := range entries {
				want := next
				if next == 300 {
					want = 2000 // its arena report, after the workflow ones
				}
				if e.GetSubmissionId() != want {
					t.Fatalf("validator 0's reports out of order: %d, want %d", e.GetSubmissionId(), want)
				}
				next++
			}
		}
	}
	if next != 301 {
		t.Errorf("validator 0's batches carry %d reports, want 301", next)
	}
	// 301 reports of ~50 bytes: two batches at the place of the first, 256 entries and 45
	if len(txs) != 5 || got[0] != "commit m0" || got[1] != "report v0" || got[2] != "report v0" || txs[1].Entries != wire.MaxBatch {
		t.Errorf("transactions %q", got)
	}
	want := []string{"report v1", "commit m1"}
	for i, tx := range got {
		if tx == "report v1" {
			if fmt.Sprint(got[i:i+2]) != fmt.Sprint(want) {
				t.Errorf("validator 1's batch not at its first report's place: %q", got)
			}
			if txs[i].Entries != 2 {
				t.Errorf("validator 1's batch has %d entries, want 2", txs[i].Entries)
			}
			break
		}
	}
}

// TestPackCommitsAndReveals: a miner's commits of one height (a workflow and an arena task)
// become one MsgCommitBatch at the place of the first, its reveals one MsgRevealBatch, and
// another miner's lone commit stays single.
func TestPackCommitsAndReveals(t *testing.T) {
	cfg := testConfig(2)
	commit := func(m int, p *subnetv1.MsgSubmit) Intent {
		msg, err := client.Commit(cfg.ChainID, cfg.MinerPubs[m], cfg.UIDs[m], p, client.Salt{})
		if err != nil {
			t.Fatal(err)
		}
		return Intent{From: Actor{Index: m}, Kind: KindCommit, Msg: msg}
	}
	reveal := func(m int, p *subnetv1.MsgSubmit) Intent {
		return Intent{From: Actor{Index: m}, Kind: KindReveal, Msg: client.Reveal(p, client.Salt{})}
	}
	ins := []Intent{commit(0, setup.WorkflowPayload(0, 1)), commit(1, setup.WorkflowPayload(1, 1)), commit(0, setup.ArenaPayload(0, 2)),
		reveal(0, setup.WorkflowPayload(0, 3)), reveal(0, setup.ArenaPayload(0, 4))}
	txs, err := Pack(cfg, ins)
	if err != nil {
		t.Fatal(err)
	}
	if len(txs) != 3 {
		t.Fatalf("%d transactions, want 3", len(txs))
	}
	if b := txs[0].Msg.GetCommitBatch(); b == nil || len(b.Entries) != 2 || txs[0].Entries != 2 || txs[0].From.Index != 0 {
		t.Errorf("tx 0: %+v, want miner 0's two commits in one batch", txs[0])
	}
	if txs[1].Msg.GetCommit() == nil || txs[1].From.Index != 1 || txs[1].Entries != 1 {
		t.Errorf("tx 1: %+v, want miner 1's single commit", txs[1])
	}
	if b := txs[2].Msg.GetRevealBatch(); b == nil || len(b.Entries) != 2 || txs[2].Kind != KindReveal {
		t.Errorf("tx 2: %+v, want miner 0's two reveals in one batch", txs[2])
	}
}
