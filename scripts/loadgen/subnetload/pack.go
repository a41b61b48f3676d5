package subnetload

import (
	"fmt"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
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
// sender's intents of one kind become batches at the place of its first: a validator's reports
// (of both tracks) MsgReportBatch messages within wire.MaxBatch entries and cfg.MaxTxBytes
// signed (setup.ReportBatches), a miner's commits one MsgCommitBatch and its reveals
// MsgRevealBatch messages (client.RevealBatches: within the entry and byte limits). A miner's
// single commit or reveal stays a single message; posts are transactions of their own.
//
// This is the one place that decides the packaging.
func Pack(cfg Config, intents []Intent) ([]Tx, error) {
	type group struct {
		from Actor
		kind Kind
	}
	var out []Tx
	msgs := map[group][]*subnetv1.Msg{}
	slot := map[group]int{} // index in out of the group's first intent
	var order []group
	for _, in := range intents {
		if in.Kind != KindReport && in.Kind != KindCommit && in.Kind != KindReveal {
			out = append(out, Tx{From: in.From, Kind: in.Kind, Msg: in.Msg, Entries: 1})
			continue
		}
		g := group{in.From, in.Kind}
		if _, ok := slot[g]; !ok {
			slot[g] = len(out)
			order = append(order, g)
			out = append(out, Tx{}) // the group's batches go here
		}
		msgs[g] = append(msgs[g], in.Msg)
	}
	// Replace each group's placeholder by its batches, from the last placeholder back, so that
	// the earlier ones' indexes stay right.
	for i := len(order) - 1; i >= 0; i-- {
		g := order[i]
		batches, err := batches(cfg, g.kind, msgs[g])
		if err != nil {
			return nil, fmt.Errorf("subnetload: %ss of %s %d: %w", g.kind, g.from.role(), g.from.Index, err)
		}
		txs := make([]Tx, len(batches))
		for j, b := range batches {
			txs[j] = Tx{From: g.from, Kind: g.kind, Msg: b, Entries: wire.Entries(b)}
		}
		s := slot[g]
		out = append(out[:s], append(txs, out[s+1:]...)...)
	}
	return out, nil
}

// batches packs one sender's messages of a kind: reports always as report batches, a lone
// commit or reveal as itself.
func batches(cfg Config, kind Kind, msgs []*subnetv1.Msg) ([]*subnetv1.Msg, error) {
	switch {
	case kind == KindReport:
		return setup.ReportBatches(cfg.ChainID, msgs, cfg.MaxTxBytes)
	case len(msgs) == 1:
		return msgs, nil
	case kind == KindCommit:
		b, err := client.CommitBatch(msgs...)
		return []*subnetv1.Msg{b}, err
	}
	return client.RevealBatches(msgs...)
}
