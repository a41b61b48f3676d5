package client

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/cosmos/gogoproto/jsonpb"

	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// ReportBatch puts reports built by ReportWorkflow or ReportArena (with
// DuplicateOf) into one MsgReportBatch: many measurements under one
// signature. It refuses what the chain would refuse whole
// (wire.CheckReportBatchShape: 1 to wire.MaxReportBatch entries, no
// submission twice) and a message that is not a report. Each entry then
// succeeds or fails on its own (docs/commit-reveal.md §13).
func ReportBatch(reports ...*subnetv1.Msg) (*subnetv1.Msg, error) {
	entries := make([]*subnetv1.MsgReport, len(reports))
	for i, m := range reports {
		if entries[i] = m.GetReport(); entries[i] == nil {
			return nil, fmt.Errorf("report batch: entry %d is not a report", i)
		}
	}
	if terr := wire.CheckReportBatchShape(entries); terr != nil {
		return nil, terr
	}
	return &subnetv1.Msg{Sum: &subnetv1.Msg_ReportBatch{ReportBatch: &subnetv1.MsgReportBatch{Entries: entries}}}, nil
}

// DecodeReportLines reads reports as JSON lines, one MsgReport a line with
// the proto field names (blank lines and lines starting with # skipped):
//
//	{"submission_id": 3, "workflow": {"output_quality": "0.9", "steps_completed": 4, "cost": "0.5", "latency_seconds": "20"}}
//	{"submission_id": 4, "arena": {"total_tokens": 1200, "tool_calls": 8, "iterations": 3, "execution_time": "41", "estimated_cost": "0.02", "criteria_passed": 4}, "duplicate_of": 2}
//
// Unknown fields are errors; omitted numbers are 0. A line's error names
// its line number.
func DecodeReportLines(r io.Reader) ([]*subnetv1.Msg, error) {
	return decodeLines(r, func(line string) (*subnetv1.Msg, error) {
		var m subnetv1.MsgReport
		if err := (&jsonpb.Unmarshaler{}).Unmarshal(strings.NewReader(line), &m); err != nil {
			return nil, err
		}
		if m.Measurement == nil {
			return nil, fmt.Errorf("submission_id %d has no measurement (workflow or arena)", m.SubmissionId)
		}
		return &subnetv1.Msg{Sum: &subnetv1.Msg_Report{Report: &m}}, nil
	})
}

// decodeLines reads JSON lines, skipping blank lines and lines starting
// with #, into the messages one makes of each; a line's error names its
// line number.
func decodeLines(r io.Reader, one func(line string) (*subnetv1.Msg, error)) ([]*subnetv1.Msg, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var out []*subnetv1.Msg
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		m, err := one(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		out = append(out, m)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// TruthBatch puts truths built by Truth or EmptyTruth into one
// MsgTruthBatch: the truths of several EVM blocks (windows) under one
// signature, e.g. an oracle catching up after a pause. It refuses what the
// chain would refuse whole (wire.CheckBatchShape: 1 to wire.MaxBatch
// entries, no EVM block twice) and a message that is not a truth. Each
// entry then succeeds or fails on its own, with its code in its
// truth_entry event (docs/commit-reveal.md §13).
func TruthBatch(truths ...*subnetv1.Msg) (*subnetv1.Msg, error) {
	entries := make([]*subnetv1.MsgTruth, len(truths))
	keys := make([]string, len(truths))
	for i, m := range truths {
		if entries[i] = m.GetTruth(); entries[i] == nil {
			return nil, fmt.Errorf("truth batch: entry %d is not a truth", i)
		}
		keys[i] = TruthTarget(entries[i])
	}
	if terr := wire.CheckBatchShape("truth batch", "name", keys); terr != nil {
		return nil, terr
	}
	return &subnetv1.Msg{Sum: &subnetv1.Msg_TruthBatch{TruthBatch: &subnetv1.MsgTruthBatch{Entries: entries}}}, nil
}

// TruthTarget names the EVM block a truth is for as the chain's batch
// refusals and truth_entry events name it ("gas 8453/20000001").
func TruthTarget(m *subnetv1.MsgTruth) string {
	return fmt.Sprintf("gas %d/%d", m.GetEvmChainId(), m.GetEvmBlock())
}

// DecodeTruthLines reads truths as JSON lines, one MsgTruth a line with the
// proto field names (blank lines and lines starting with # skipped):
//
//	{"evm_chain_id": 8453, "evm_block": 20000000, "min_price": "20.5", "timestamp": 1764300000}
//	{"evm_chain_id": 8453, "evm_block": 20000001, "empty": true, "timestamp": 1764300002}
//
// A line carries min_price (gwei, a decimal string) or "empty": true, not
// both and not neither, and evm_chain_id, evm_block and timestamp. Unknown
// fields are errors. A line's error names its line number.
func DecodeTruthLines(r io.Reader) ([]*subnetv1.Msg, error) {
	return decodeLines(r, func(line string) (*subnetv1.Msg, error) {
		var m subnetv1.MsgTruth
		if err := (&jsonpb.Unmarshaler{}).Unmarshal(strings.NewReader(line), &m); err != nil {
			return nil, err
		}
		if err := truthLineComplete(&m); err != nil {
			return nil, err
		}
		return &subnetv1.Msg{Sum: &subnetv1.Msg_Truth{Truth: &m}}, nil
	})
}

// truthLineComplete refuses a truth line without what every truth names
// (the chain would refuse it with a less telling code, or take a chain id
// of 0 for one left out).
func truthLineComplete(m *subnetv1.MsgTruth) error {
	switch {
	case m.EvmChainId == 0:
		return fmt.Errorf("no evm_chain_id")
	case m.Timestamp == 0:
		return fmt.Errorf("evm_block %d has no timestamp (unix seconds)", m.EvmBlock)
	case m.Empty && m.MinPrice != "":
		return fmt.Errorf("evm_block %d has both min_price and empty: give one (an empty block has no price)", m.EvmBlock)
	case !m.Empty && m.MinPrice == "":
		return fmt.Errorf("evm_block %d has neither min_price nor \"empty\": true", m.EvmBlock)
	}
	return nil
}
