package simsubnet

import (
	"crypto/ed25519"
	"fmt"
	"math"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
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

// fits: the reports and r make a batch of at most wire.MaxReportBatch
// entries whose signed transaction is at most maxTxBytes. Measured on the
// message (at most 256 entries: the quadratic cost stays small).
func fits(reports []*subnetv1.Msg, r *subnetv1.Msg, maxTxBytes int64) bool {
	if len(reports) >= wire.MaxReportBatch {
		return false
	}
	entries := make([]*subnetv1.MsgReport, 0, len(reports)+1)
	for _, m := range append(reports[:len(reports):len(reports)], r) {
		entries = append(entries, m.GetReport())
	}
	msg := &subnetv1.Msg{Sum: &subnetv1.Msg_ReportBatch{ReportBatch: &subnetv1.MsgReportBatch{Entries: entries}}}
	return int64(signedSize(msg)) <= maxTxBytes
}

// signedSize bounds the bytes of msg signed by wire.SignTx for this chain:
// the envelope's fields at their largest (a nonce of 10 varint bytes).
func signedSize(msg *subnetv1.Msg) int {
	body := &subnetv1.TxBody{ChainId: ChainID, Sender: make([]byte, ed25519.PublicKeySize), Nonce: math.MaxUint64, Msg: msg}
	tx := &subnetv1.Tx{Body: make([]byte, body.Size()), Signature: make([]byte, ed25519.SignatureSize)}
	return tx.Size()
}
