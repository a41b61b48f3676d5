package client

import (
	"bufio"
	"bytes"
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
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var out []*subnetv1.Msg
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var m subnetv1.MsgReport
		if err := (&jsonpb.Unmarshaler{}).Unmarshal(bytes.NewReader([]byte(line)), &m); err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		if m.Measurement == nil {
			return nil, fmt.Errorf("line %d: submission_id %d has no measurement (workflow or arena)", n, m.SubmissionId)
		}
		out = append(out, &subnetv1.Msg{Sum: &subnetv1.Msg_Report{Report: &m}})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
