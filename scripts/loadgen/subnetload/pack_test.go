package subnetload

import (
	"fmt"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

// TestPack: commits stay one transaction each and in place; a validator's reports of a track
// become batches at the place of its first report, within wire.MaxReportBatch entries and
// max_tx_bytes signed, every report once and in order.
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
		if who == "v0" && entries[0].GetSubmissionId() < 300 {
			for _, e := range entries {
				if e.GetSubmissionId() != next {
					t.Fatalf("validator 0's workflow reports out of order: %d, want %d", e.GetSubmissionId(), next)
				}
				next++
			}
		}
	}
	if next != 300 {
		t.Errorf("validator 0's workflow batches carry %d reports, want 300", next)
	}
	// 300 workflow reports of ~50 bytes: more than one batch either way
	if len(txs) < 6 || got[0] != "commit m0" || got[1] != "report v0" || got[len(txs)-1] != "report v0" {
		t.Errorf("transactions %q", got)
	}
	want := []string{"report v1", "commit m1"}
	for i, tx := range got {
		if tx == "report v1" {
			if fmt.Sprint(got[i:i+2]) != fmt.Sprint(want) {
				t.Errorf("validator 1's arena batch not at its first report's place: %q", got)
			}
			if txs[i].Entries != 2 {
				t.Errorf("validator 1's arena batch has %d entries, want 2", txs[i].Entries)
			}
			break
		}
	}
}
