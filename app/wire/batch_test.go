package wire

import (
	"testing"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

func TestCheckReportBatchShape(t *testing.T) {
	entries := func(ids ...uint64) []*subnetv1.MsgReport {
		var out []*subnetv1.MsgReport
		for _, id := range ids {
			out = append(out, &subnetv1.MsgReport{SubmissionId: id})
		}
		return out
	}
	seq := func(n int) []uint64 {
		ids := make([]uint64, n)
		for i := range ids {
			ids[i] = uint64(i)
		}
		return ids
	}
	for _, tc := range []struct {
		name string
		in   []*subnetv1.MsgReport
		code uint32
	}{
		{"none", nil, CodeBatchSize},
		{"one", entries(7), CodeOK},
		{"256", entries(seq(MaxReportBatch)...), CodeOK},
		{"257", entries(seq(MaxReportBatch + 1)...), CodeBatchSize},
		{"a nil entry", append(entries(1), nil), CodeEmptyMsg},
		{"submission 0 twice, apart", entries(0, 1, 2, 0), CodeDuplicateBatchEntry},
		{"adjacent twice", entries(5, 5), CodeDuplicateBatchEntry},
	} {
		got := CodeOK
		if terr := CheckReportBatchShape(tc.in); terr != nil {
			got = terr.Code
		}
		if got != tc.code {
			t.Errorf("%s: code %d, want %d", tc.name, got, tc.code)
		}
	}
}
