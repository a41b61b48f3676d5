package client_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// TestTruthBatchShape: TruthBatch keeps its entries in order and refuses
// what the chain would refuse whole — no entry, more than wire.MaxBatch,
// one EVM block twice — and a message that is not a truth, before anything
// is signed. The same block of two EVM chains is two targets.
func TestTruthBatchShape(t *testing.T) {
	m, err := client.TruthBatch(client.Truth(8453, 100, "20.5", 1_700_000_000), client.EmptyTruth(8453, 101, 1_700_000_002), client.Truth(1, 100, "3", 1_700_000_003))
	if err != nil {
		t.Fatal(err)
	}
	es := m.GetTruthBatch().GetEntries()
	if len(es) != 3 || es[0].EvmBlock != 100 || es[0].MinPrice != "20.5" || !es[1].Empty || es[1].MinPrice != "" || es[2].EvmChainId != 1 {
		t.Fatalf("entries %v", es)
	}
	many := make([]*subnetv1.Msg, wire.MaxBatch+1)
	for i := range many {
		many[i] = client.Truth(1, uint64(i), "1", 1)
	}
	if _, err := client.TruthBatch(many[:wire.MaxBatch]...); err != nil {
		t.Fatalf("%d entries: %v", wire.MaxBatch, err)
	}
	for _, tc := range []struct {
		name string
		msgs []*subnetv1.Msg
		code uint32
		want string
	}{
		{"none", nil, wire.CodeBatchSize, "truth batch has 0 entries"},
		{"too many", many, wire.CodeBatchSize, "truth batch has 257 entries"},
		{"a block twice", []*subnetv1.Msg{client.Truth(1, 7, "1", 1), client.Truth(1, 8, "1", 1), client.EmptyTruth(1, 7, 2)}, wire.CodeDuplicateBatchEntry,
			"truth batch entries 0 and 2 both name gas 1/7"},
	} {
		_, err := client.TruthBatch(tc.msgs...)
		var terr *wire.TxError
		if !errors.As(err, &terr) || terr.Code != tc.code || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want code %d and %q", tc.name, err, tc.code, tc.want)
		}
	}
	if _, err := client.TruthBatch(client.Truth(1, 7, "1", 1), client.ReportWorkflow(3, &subnetv1.WorkflowMeasurement{})); err == nil || !strings.Contains(err.Error(), "entry 1 is not a truth") {
		t.Errorf("a report in a truth batch: %v", err)
	}
}

// TestDecodeTruthLines: one truth a line, priced or empty, comments and
// blank lines skipped; a bad line is named by its number: an unknown
// field, both or neither of min_price and empty, no chain id, no
// timestamp.
func TestDecodeTruthLines(t *testing.T) {
	in := `# base, blocks 100 and 101
{"evm_chain_id": 8453, "evm_block": 100, "min_price": "20.5", "timestamp": 1700000000}

{"evm_chain_id": "8453", "evm_block": "101", "empty": true, "timestamp": "1700000002"}
`
	msgs, err := client.DecodeTruthLines(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2 {
		t.Fatalf("%d truths, want 2", len(msgs))
	}
	a, b := msgs[0].GetTruth(), msgs[1].GetTruth()
	if a.EvmChainId != 8453 || a.EvmBlock != 100 || a.MinPrice != "20.5" || a.Empty || a.Timestamp != 1_700_000_000 {
		t.Fatalf("line 2: %v", a)
	}
	if b.EvmBlock != 101 || !b.Empty || b.MinPrice != "" || b.Timestamp != 1_700_000_002 {
		t.Fatalf("line 4: %v", b)
	}
	for _, tc := range []struct{ in, want string }{
		{in + `{"evm_chain_id": 1, "evm_block": 3, "min_price": "1", "timestamp": 5, "colour": "red"}`, "line 5: "},
		{`{"evm_chain_id": 1, "evm_block": 3, "min_price": "1", "empty": true, "timestamp": 5}`, "line 1: evm_block 3 has both min_price and empty"},
		{`{"evm_chain_id": 1, "evm_block": 3, "timestamp": 5}`, "line 1: evm_block 3 has neither min_price nor"},
		{`{"evm_block": 3, "min_price": "1", "timestamp": 5}`, "line 1: no evm_chain_id"},
		{"\n" + `{"evm_chain_id": 1, "evm_block": 3, "min_price": "1"}`, "line 2: evm_block 3 has no timestamp"},
		{`{"evm_chain_id": 1, `, "line 1: "},
	} {
		if _, err := client.DecodeTruthLines(strings.NewReader(tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.in, err, tc.want)
		}
	}
}
