package simsubnet

import (
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

func simReport(from *actor, track string, id uint64) message {
	m := client.ReportWorkflow(id, &subnetv1.WorkflowMeasurement{OutputQuality: "0.5", Cost: "0.1", LatencySeconds: "10"})
	if track == genesis.TrackArena {
		m = client.ReportArena(id, &subnetv1.ArenaMeasurement{ExecutionTime: "1", EstimatedCost: "0.1"})
	}
	return message{from: from, msg: m, kind: KindReport, track: track}
}

// TestPackReports (ModeBatch): a sender's reports of one track gather at
// the place of its first, other messages keep their places, a group of one
// stays a single report, and a batch closes at wire.MaxBatch entries and
// at the byte limit.
func TestPackReports(t *testing.T) {
	a, b := &actor{name: "a"}, &actor{name: "b"}
	truth := message{from: a, msg: client.Truth(EVMChain, 1, "1", 1), kind: KindTruth, track: genesis.TrackGas}
	var in []message
	for id := uint64(1); id <= wire.MaxBatch+2; id++ {
		in = append(in, simReport(a, genesis.TrackWorkflow, id))
		if id == 2 {
			in = append(in, truth, simReport(b, genesis.TrackWorkflow, id), simReport(a, genesis.TrackArena, 1000+id))
		}
	}
	out, err := pack(in, ModeBatch, genesis.DefaultGenesis().Chain.MaxTxBytes)
	if err != nil {
		t.Fatal(err)
	}
	// a's workflow batch (256), the truth, b's, a's arena one, a's next (2)
	want := []struct {
		from    *actor
		kind    Kind
		entries int
		batch   bool
	}{{a, KindReport, wire.MaxBatch, true}, {a, KindTruth, 1, false}, {b, KindReport, 1, false}, {a, KindReport, 1, false}, {a, KindReport, 2, true}}
	if len(out) != len(want) {
		t.Fatalf("%d messages, want %d", len(out), len(want))
	}
	for i, w := range want {
		if out[i].from != w.from || out[i].kind != w.kind || entries(out[i]) != w.entries || (out[i].msg.GetReportBatch() != nil) != w.batch {
			t.Errorf("message %d: from %s, %s, %d entries; want %s, %s, %d (batch %v)", i, out[i].from.name, out[i].kind, entries(out[i]), w.from.name, w.kind, w.entries, w.batch)
		}
	}
	if first := out[0].msg.GetReportBatch().Entries[0].SubmissionId; first != 1 {
		t.Errorf("the first batch starts with submission %d, want 1", first)
	}

	// a limit of three entries' bytes: batches of three
	one, _ := client.ReportBatch(in[0].msg)
	three, _ := client.ReportBatch(in[0].msg, in[1].msg, in[5].msg)
	limit := int64(signedSize(three))
	out, err = pack([]message{in[0], in[1], in[5], in[6], in[7]}, ModeBatch, limit)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || entries(out[0]) != 3 || entries(out[1]) != 2 || signedSize(one) >= signedSize(three) {
		t.Errorf("limit %d: %d messages", limit, len(out))
	}
	if out, _ := pack(in, ModeOff, limit); len(out) != len(in) {
		t.Errorf("ModeOff packed %d messages into %d", len(in), len(out))
	}
}

// TestPackAll (ModeAll): a validator's reports of both task tracks make one
// batch labelled tasksLabel, its truths one truth batch; a miner's task
// commits one commit batch and its gas commits another, each entry keeping
// its payload (pendings), in order.
func TestPackAll(t *testing.T) {
	v, m := &actor{name: "v"}, &actor{name: "m"}
	commit := func(track string, p *pendingSub) message {
		var msg *subnetv1.Msg
		if track == genesis.TrackGas {
			msg = &subnetv1.Msg{Sum: &subnetv1.Msg_Commit{Commit: &subnetv1.MsgCommit{Target: &subnetv1.MsgCommit_Gas{Gas: &subnetv1.GasTarget{EvmChainId: EVMChain, EvmBlock: uint64(p.evmBlock)}}}}}
		} else {
			msg = &subnetv1.Msg{Sum: &subnetv1.Msg_Commit{Commit: &subnetv1.MsgCommit{Target: &subnetv1.MsgCommit_TaskId{TaskId: p.task}}}}
		}
		return message{from: m, msg: msg, kind: KindCommit, track: track, pending: p}
	}
	pw, pa, g1, g2 := &pendingSub{task: 1}, &pendingSub{task: 2}, &pendingSub{evmBlock: 8}, &pendingSub{evmBlock: 9}
	in := []message{
		simReport(v, genesis.TrackWorkflow, 1), commit(genesis.TrackGas, g1), simReport(v, genesis.TrackArena, 2),
		commit(genesis.TrackWorkflow, pw), commit(genesis.TrackGas, g2), commit(genesis.TrackArena, pa),
		{from: v, msg: client.Truth(EVMChain, 1, "1", 1), kind: KindTruth, track: genesis.TrackGas},
		{from: v, msg: client.Truth(EVMChain, 2, "1", 3), kind: KindTruth, track: genesis.TrackGas},
	}
	out, err := pack(in, ModeAll, genesis.DefaultGenesis().Chain.MaxTxBytes)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 4 {
		t.Fatalf("%d messages, want 4 (reports, gas commits, task commits, truths)", len(out))
	}
	if b := out[0].msg.GetReportBatch(); b == nil || len(b.Entries) != 2 || out[0].track != tasksLabel {
		t.Errorf("message 0: %v (track %s), want a report batch of both tracks", out[0].msg, out[0].track)
	}
	if b := out[1].msg.GetCommitBatch(); b == nil || len(b.Entries) != 2 || out[1].track != genesis.TrackGas ||
		out[1].pendings[0] != g1 || out[1].pendings[1] != g2 {
		t.Errorf("message 1: %v, want the gas commits to blocks 8 and 9", out[1].msg)
	}
	if b := out[2].msg.GetCommitBatch(); b == nil || len(b.Entries) != 2 || out[2].track != tasksLabel ||
		out[2].pendings[0] != pw || out[2].pendings[1] != pa {
		t.Errorf("message 2: %v, want the task commits", out[2].msg)
	}
	if b := out[3].msg.GetTruthBatch(); b == nil || len(b.Entries) != 2 {
		t.Errorf("message 3: %v, want a truth batch of 2", out[3].msg)
	}
}
