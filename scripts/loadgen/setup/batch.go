package setup

import (
	"crypto/ed25519"
	"math"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// FitsReportBatch: the reports and r make a batch of at most wire.MaxReportBatch entries whose
// transaction signed for chainID is at most maxTxBytes. Measured on the message (at most 256
// entries: the quadratic cost of calling it once per added report stays small).
func FitsReportBatch(chainID string, reports []*subnetv1.Msg, r *subnetv1.Msg, maxTxBytes int64) bool {
	if len(reports) >= wire.MaxReportBatch {
		return false
	}
	entries := make([]*subnetv1.MsgReport, 0, len(reports)+1)
	for _, m := range append(reports[:len(reports):len(reports)], r) {
		entries = append(entries, m.GetReport())
	}
	msg := &subnetv1.Msg{Sum: &subnetv1.Msg_ReportBatch{ReportBatch: &subnetv1.MsgReportBatch{Entries: entries}}}
	return int64(SignedSize(chainID, msg)) <= maxTxBytes
}

// SignedSize bounds the bytes of msg signed by wire.SignTx for chainID: the envelope's fields
// at their largest (a nonce of 10 varint bytes).
func SignedSize(chainID string, msg *subnetv1.Msg) int {
	body := &subnetv1.TxBody{ChainId: chainID, Sender: make([]byte, ed25519.PublicKeySize), Nonce: math.MaxUint64, Msg: msg}
	tx := &subnetv1.Tx{Body: make([]byte, body.Size()), Signature: make([]byte, ed25519.SignatureSize)}
	return tx.Size()
}

// ReportBatches packs reports (MsgReport messages), in their order, into MsgReportBatch
// messages built by client.ReportBatch: a batch is closed when one more report would pass
// wire.MaxReportBatch entries or maxTxBytes signed for chainID.
func ReportBatches(chainID string, reports []*subnetv1.Msg, maxTxBytes int64) ([]*subnetv1.Msg, error) {
	var out []*subnetv1.Msg
	for start := 0; start < len(reports); {
		end := start + 1
		for end < len(reports) && FitsReportBatch(chainID, reports[start:end], reports[end], maxTxBytes) {
			end++
		}
		b, err := client.ReportBatch(reports[start:end]...)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
		start = end
	}
	return out, nil
}
