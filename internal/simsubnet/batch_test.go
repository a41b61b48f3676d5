package simsubnet

import (
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// TestBatchReports: a sender's reports of one track gather at the place of
// its first, other messages keep their places, and a batch closes at
// wire.MaxReportBatch entries and at the byte limit.
func TestBatchReports(t *testing.T) {
	a, b := &actor{name: "a"}, &actor{name: "b"}
	report := func(from *actor, track string, id uint64) message {
		m := client.ReportWorkflow(id, &subnetv1.WorkflowMeasurement{OutputQuality: "0.5", Cost: "0.1", LatencySeconds: "10"})
		if track == genesis.TrackArena {
			m = client.ReportArena(id, &subnetv1.ArenaMeasurement{ExecutionTime: "1", EstimatedCost: "0.1"})
		}
		return message{from: from, msg: m, kind: KindReport, track: track}
	}
	truth := message{from: a, msg: client.Truth(EVMChain, 1, "1", 1), kind: KindTruth, track: genesis.TrackGas}
	var in []message
	for id := uint64(1); id <= wire.MaxReportBatch+2; id++ {
		in = append(in, report(a, genesis.TrackWorkflow, id))
		if id == 2 {
			in = append(in, truth, report(b, genesis.TrackWorkflow, id), report(a, genesis.TrackArena, 1000+id))
		}
	}
	out, err := batchReports(in, genesis.DefaultGenesis().Chain.MaxTxBytes)
	if err != nil {
		t.Fatal(err)
	}
	// a's workflow batch (256), the truth, b's, a's arena one, a's next (2)
	want := []struct {
		from    *actor
		kind    Kind
		entries int
	}{{a, KindReport, wire.MaxReportBatch}, {a, KindTruth, 1}, {b, KindReport, 1}, {a, KindReport, 1}, {a, KindReport, 2}}
	if len(out) != len(want) {
		t.Fatalf("%d messages, want %d", len(out), len(want))
	}
	for i, w := range want {
		if out[i].from != w.from || out[i].kind != w.kind || entries(out[i]) != w.entries {
			t.Errorf("message %d: from %s, %s, %d entries; want %s, %s, %d", i, out[i].from.name, out[i].kind, entries(out[i]), w.from.name, w.kind, w.entries)
		}
	}
	if first := out[0].msg.GetReportBatch().Entries[0].SubmissionId; first != 1 {
		t.Errorf("the first batch starts with submission %d, want 1", first)
	}

	// a limit of three entries' bytes: batches of three
	one, _ := client.ReportBatch(in[0].msg)
	three, _ := client.ReportBatch(in[0].msg, in[1].msg, in[5].msg)
	limit := int64(signedSize(three))
	out, err = batchReports([]message{in[0], in[1], in[5], in[6], in[7]}, limit)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || entries(out[0]) != 3 || entries(out[1]) != 2 || signedSize(one) >= signedSize(three) {
		t.Errorf("limit %d: %d messages", limit, len(out))
	}
}
