package simsubnet

import (
	"fmt"

	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

// batchReports packages one height's messages, in their order, for
// ModeBatch: a validator's reports of one track become MsgReportBatch
// messages built by client.ReportBatch, each at the place of its first
// report; every other message keeps its place.
//
// The unit is the block, not the task: a report is due at the height its
// measurement finishes (sim.revealed), the same height in both modes, so
// the two columns differ only in packaging, and each submission's quorum
// is reached at the same height. Waiting for a task's last measurement
// would hold the early reports back past other validators' quorum. The
// unit is also the track, so that the table's rows stay per track; in this
// load a height's reports of one track are of one task (ReportSpread <
// TaskEvery), so it is one batch per task and block. A batch that would
// pass wire.MaxReportBatch entries or maxTxBytes signed is closed and the
// next report starts another.
func batchReports(msgs []message, maxTxBytes int64) ([]message, error) {
	type key struct {
		from  *actor
		track string
	}
	var out []message
	var groups [][]*subnetv1.Msg
	var slot []int      // index in out of each group
	at := map[key]int{} // the sender's open batch of the track: index in groups
	for _, m := range msgs {
		if m.kind != KindReport || m.msg.GetReport() == nil {
			out = append(out, m)
			continue
		}
		k := key{m.from, m.track}
		if g, ok := at[k]; ok && fits(groups[g], m.msg, maxTxBytes) {
			groups[g] = append(groups[g], m.msg)
			continue
		}
		at[k] = len(groups)
		groups = append(groups, []*subnetv1.Msg{m.msg})
		slot = append(slot, len(out))
		out = append(out, m)
	}
	for g, reports := range groups {
		b, err := client.ReportBatch(reports...)
		if err != nil {
			return nil, fmt.Errorf("simsubnet: batch of %s: %w", out[slot[g]].from.name, err)
		}
		out[slot[g]].msg = b
	}
	return out, nil
}

// fits: the reports and r make a batch within wire.MaxReportBatch entries and maxTxBytes
// signed (setup.FitsReportBatch).
func fits(reports []*subnetv1.Msg, r *subnetv1.Msg, maxTxBytes int64) bool {
	return setup.FitsReportBatch(ChainID, reports, r, maxTxBytes)
}

// signedSize bounds the bytes of msg signed for this chain (setup.SignedSize).
func signedSize(msg *subnetv1.Msg) int { return setup.SignedSize(ChainID, msg) }
