package simsubnet

import (
	"fmt"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

// pack packages one height's messages, in their order, for the mode: a
// sender's messages of one group become one batch message at the place of
// the first of them, and every other message keeps its place. ModeOff
// packs nothing. ModeBatch groups a validator's reports by track. ModeAll
// groups a validator's reports of both task tracks, its truths, and a
// miner's commits and its reveals, each apart for gas and for the task
// tracks (so that a transaction's figures belong to one of the two).
//
// The unit is the block, not the task: a message is due at the height the
// sender's work finishes (a measurement, a truth, a commit or a reveal),
// the same height in every mode, so the columns differ only in packaging,
// except where ModeAll's senders choose other heights (gas runs and
// reveals: config.go). Waiting for a task's last measurement would hold the
// early reports back past other validators' quorum. A group that would pass
// wire.MaxBatch entries or maxTxBytes signed is closed and the next message
// starts another; a group of one message stays that single message.
func pack(msgs []message, mode Mode, maxTxBytes int64) ([]message, error) {
	if mode == ModeOff {
		return msgs, nil
	}
	type key struct {
		from  *actor
		kind  Kind
		class string
	}
	var out []message
	var groups [][]message
	var slot []int      // index in out of each group
	at := map[key]int{} // the sender's open group: index in groups
	for _, m := range msgs {
		class, ok := groupOf(m, mode)
		if !ok {
			out = append(out, m)
			continue
		}
		k := key{m.from, m.kind, class}
		if g, ok := at[k]; ok && fits(groups[g], m, maxTxBytes) {
			groups[g] = append(groups[g], m)
			continue
		}
		at[k] = len(groups)
		groups = append(groups, []message{m})
		slot = append(slot, len(out))
		out = append(out, m)
	}
	for g, ms := range groups {
		if len(ms) == 1 {
			continue
		}
		b, err := merge(ms)
		if err != nil {
			return nil, fmt.Errorf("simsubnet: batch of %s: %w", ms[0].from.name, err)
		}
		out[slot[g]] = b
	}
	return out, nil
}

// groupOf is the group m joins in the mode, if any: its track for
// ModeBatch's reports; "gas" or "tasks" for ModeAll's.
func groupOf(m message, mode Mode) (string, bool) {
	class := "tasks"
	if m.track == genesis.TrackGas {
		class = "gas"
	}
	switch {
	case m.kind == KindReport && m.msg.GetReport() != nil:
		if mode == ModeBatch {
			return m.track, true
		}
		return class, true
	case mode != ModeAll:
		return "", false
	case m.kind == KindCommit && m.msg.GetCommit() != nil, m.kind == KindReveal && m.msg.GetReveal() != nil,
		m.kind == KindTruth && m.msg.GetTruth() != nil:
		return class, true
	}
	return "", false
}

// merge is the batch message of ms (single messages of one sender and
// kind): its track is theirs, or "tasks" when they are of both task
// tracks; pendings are the entries' payloads, in order.
func merge(ms []message) (message, error) {
	b := ms[0]
	b.pending = nil
	b.pendings = make([]*pendingSub, len(ms))
	for i, m := range ms {
		b.pendings[i] = m.pending
		if m.track != b.track {
			b.track = tasksLabel
		}
	}
	b.msg = batchMsg(ms)
	if terr := checkShape(b.msg); terr != nil {
		return message{}, terr
	}
	return b, nil
}

// tasksLabel is the track label of a batch that holds entries of both task
// tracks.
const tasksLabel = "tasks"

// batchMsg is the batch form of single messages of one kind.
func batchMsg(ms []message) *subnetv1.Msg {
	switch ms[0].kind {
	case KindReport:
		return &subnetv1.Msg{Sum: &subnetv1.Msg_ReportBatch{ReportBatch: &subnetv1.MsgReportBatch{Entries: entriesOf(ms, (*subnetv1.Msg).GetReport)}}}
	case KindCommit:
		return &subnetv1.Msg{Sum: &subnetv1.Msg_CommitBatch{CommitBatch: &subnetv1.MsgCommitBatch{Entries: entriesOf(ms, (*subnetv1.Msg).GetCommit)}}}
	case KindReveal:
		return &subnetv1.Msg{Sum: &subnetv1.Msg_RevealBatch{RevealBatch: &subnetv1.MsgRevealBatch{Entries: entriesOf(ms, (*subnetv1.Msg).GetReveal)}}}
	case KindTruth:
		return &subnetv1.Msg{Sum: &subnetv1.Msg_TruthBatch{TruthBatch: &subnetv1.MsgTruthBatch{Entries: entriesOf(ms, (*subnetv1.Msg).GetTruth)}}}
	}
	panic("simsubnet: no batch form of " + ms[0].kind.String())
}

// entriesOf is the single message get finds in each of ms.
func entriesOf[E any](ms []message, get func(*subnetv1.Msg) E) []E {
	out := make([]E, len(ms))
	for i, m := range ms {
		out[i] = get(m.msg)
	}
	return out
}

// checkShape applies the chain's shape rule to a batch the sim built, as a
// client's builder would before sending.
func checkShape(msg *subnetv1.Msg) *wire.TxError {
	if b := msg.GetReportBatch(); b != nil {
		return wire.CheckReportBatchShape(b.Entries)
	}
	if n := batchEntries(msg); n < 1 || n > wire.MaxBatch {
		return wire.Reject(wire.CodeBatchSize, fmt.Sprintf("%d entries", n))
	}
	return nil
}

// fits: the group and m make a batch of at most wire.MaxBatch entries
// whose signed transaction is at most maxTxBytes. Measured on the message
// (at most 256 entries: the quadratic cost stays small).
func fits(group []message, m message, maxTxBytes int64) bool {
	if len(group) >= wire.MaxBatch {
		return false
	}
	msg := batchMsg(append(group[:len(group):len(group)], m))
	return int64(signedSize(msg)) <= maxTxBytes
}

// signedSize bounds the bytes of msg signed for this chain (setup.SignedSize).
func signedSize(msg *subnetv1.Msg) int { return setup.SignedSize(ChainID, msg) }
