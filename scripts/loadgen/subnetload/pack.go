package subnetload

import (
	"fmt"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

// Tx is one transaction to sign and send: its sender, its message and what it carries
// (Entries intents of Kind); Tries counts the sends again after nonce refusals (the sender's).
type Tx struct {
	From    Actor
	Kind    Kind
	Msg     *subnetv1.Msg
	Entries int
	Tries   int
}

// Pack packages one height's intents into transactions, keeping each sender's order: a
// validator's reports of one track become MsgReportBatch messages (setup.ReportBatches:
// wire.MaxReportBatch entries and cfg.MaxTxBytes signed at most) at the place of its first
// report; every other message is a transaction of its own.
//
// This is the one place that decides the packaging. Commits and reveals are single
// transactions today; with a MsgCommitBatch / MsgRevealBatch, a miner's commits (and reveals)
// of the height would be grouped here as the reports are (group by From and Kind, build the
// batch message, split it at the batch's entry and byte limits).
func Pack(cfg Config, intents []Intent) ([]Tx, error) {
	type group struct {
		from  Actor
		track string
	}
	var out []Tx
	reports := map[group][]*subnetv1.Msg{}
	slot := map[group]int{} // index in out of the group's first report
	var order []group
	for _, in := range intents {
		if in.Kind != KindReport {
			out = append(out, Tx{From: in.From, Kind: in.Kind, Msg: in.Msg, Entries: 1})
			continue
		}
		g := group{in.From, in.Track}
		if _, ok := slot[g]; !ok {
			slot[g] = len(out)
			order = append(order, g)
			out = append(out, Tx{}) // the group's batches go here
		}
		reports[g] = append(reports[g], in.Msg)
	}
	// Replace each group's placeholder by its batches, from the last placeholder back, so that
	// the earlier ones' indexes stay right.
	for i := len(order) - 1; i >= 0; i-- {
		g := order[i]
		batches, err := setup.ReportBatches(cfg.ChainID, reports[g], cfg.MaxTxBytes)
		if err != nil {
			return nil, fmt.Errorf("subnetload: reports of validator %d: %w", g.from.Index, err)
		}
		txs := make([]Tx, len(batches))
		for j, b := range batches {
			txs[j] = Tx{From: g.from, Kind: KindReport, Msg: b, Entries: len(b.GetReportBatch().GetEntries())}
		}
		s := slot[g]
		out = append(out[:s], append(txs, out[s+1:]...)...)
	}
	return out, nil
}
