package app

import (
	"fmt"
	"strconv"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
)

// A batch (of reports, commits, reveals or truths) is many single messages
// under one signature. The shell, not a unit, owns them, because one batch
// may hold entries of two units (a commit to a task goes to app/tasks, one
// to an EVM block to app/gas): each entry is routed, checked and executed
// exactly as the single message would be, by the unit that message goes to.
//
// One rule for every batch: entries are independent and run in order; a refused entry changes
// nothing and gets its code in its <kind>_entry event; the others apply.
// The batch is refused whole by its shape (wire.CheckBatchShape: size, a
// target named twice, an empty entry) and when every entry is refused, with
// the first entry's code. Checking every entry against the state before
// the batch accepts it iff the first entry that check accepts also applies
// when executed: the entries before it were refused and changed nothing.
// So a batch Check accepts applies at least one entry.

// batchUnit is the unit of every batch message.
type batchUnit struct{}

var theBatchUnit = &batchUnit{}

// msgBatch is a batch message seen as its single messages.
type msgBatch struct {
	kind  string // "commit batch"
	verb  string // what two entries naming one target do to it, in the duplicate's refusal
	event string // the entries' event type
	// validator: only a validator's report key sends the batch, checked
	// before its shape
	validator bool
	entries   []*subnetv1.Msg
	// keys are the entries' targets ("" for an empty entry), attrs their
	// event attributes naming the target
	keys  []string
	attrs [][]string
}

// batchOf returns the batch message in msg as single messages, or nil when
// msg is no batch.
func batchOf(msg *subnetv1.Msg) *msgBatch {
	switch m := msg.Sum.(type) {
	case *subnetv1.Msg_ReportBatch:
		b := &msgBatch{kind: "report batch", verb: "report", validator: true, event: wire.EventReportEntry}
		entries := m.ReportBatch.GetEntries()
		for i, key := range wire.ReportKeys(entries) {
			var attrs []string
			if key != "" {
				attrs = []string{"submission_id", kernel.U64s(entries[i].SubmissionId)}
			}
			b.add(&subnetv1.Msg{Sum: &subnetv1.Msg_Report{Report: entries[i]}}, key, attrs)
		}
		return b
	case *subnetv1.Msg_CommitBatch:
		b := &msgBatch{kind: "commit batch", verb: "name", event: wire.EventCommitEntry}
		for _, e := range m.CommitBatch.GetEntries() {
			key, attrs := commitTarget(e)
			b.add(&subnetv1.Msg{Sum: &subnetv1.Msg_Commit{Commit: e}}, key, attrs)
		}
		return b
	case *subnetv1.Msg_RevealBatch:
		b := &msgBatch{kind: "reveal batch", verb: "name", event: wire.EventRevealEntry}
		for _, e := range m.RevealBatch.GetEntries() {
			key, attrs := revealTarget(e)
			b.add(&subnetv1.Msg{Sum: &subnetv1.Msg_Reveal{Reveal: e}}, key, attrs)
		}
		return b
	case *subnetv1.Msg_TruthBatch:
		b := &msgBatch{kind: "truth batch", verb: "name", validator: true, event: wire.EventTruthEntry}
		for _, e := range m.TruthBatch.GetEntries() {
			key, attrs := "", []string(nil)
			if e != nil {
				key, attrs = gasKey(e.EvmChainId, e.EvmBlock)
			}
			b.add(&subnetv1.Msg{Sum: &subnetv1.Msg_Truth{Truth: e}}, key, attrs)
		}
		return b
	}
	return nil
}

// add appends an entry. An entry that names no target (key set, no
// attributes) gets its index in its key: it is refused alone (code 2), and
// two of them are no duplicate of each other.
func (b *msgBatch) add(m *subnetv1.Msg, key string, attrs []string) {
	if key != "" && attrs == nil {
		key += " (entry " + strconv.Itoa(len(b.entries)) + ")"
	}
	b.entries = append(b.entries, m)
	b.keys = append(b.keys, key)
	b.attrs = append(b.attrs, attrs)
}

// gasKey names one block of one EVM chain.
func gasKey(chain, block uint64) (string, []string) {
	c, n := kernel.U64s(chain), kernel.U64s(block)
	return "gas " + c + "/" + n, []string{"evm_chain_id", c, "evm_block", n}
}

func taskKey(id uint64) (string, []string) {
	s := kernel.U64s(id)
	return "task_id = " + s, []string{"task_id", s}
}

// commitTarget names a commit's target; an entry without one gets a key of
// its own (add; its check refuses it, code 2), so that it is no duplicate.
func commitTarget(c *subnetv1.MsgCommit) (string, []string) {
	switch t := c.GetTarget().(type) {
	case *subnetv1.MsgCommit_TaskId:
		return taskKey(t.TaskId)
	case *subnetv1.MsgCommit_Gas:
		if t.Gas != nil {
			return gasKey(t.Gas.EvmChainId, t.Gas.EvmBlock)
		}
	}
	if c == nil {
		return "", nil
	}
	return "no target", nil
}

// revealTarget names the commit a reveal opens: its submit's task, or its
// EVM block.
func revealTarget(r *subnetv1.MsgReveal) (string, []string) {
	if r == nil {
		return "", nil
	}
	switch k := r.GetSubmit().GetKind().(type) {
	case *subnetv1.MsgSubmit_Workflow:
		return taskKey(k.Workflow.GetTaskId())
	case *subnetv1.MsgSubmit_Arena:
		return taskKey(k.Arena.GetTaskId())
	case *subnetv1.MsgSubmit_Gas:
		if k.Gas != nil {
			return gasKey(k.Gas.EvmChainId, k.Gas.EvmBlock)
		}
	}
	return "no submit", nil
}

// entryTx is tx with entry i of b as its message: what the entry's unit
// checks and executes, as it would the single message's transaction.
func entryTx(tx *kernel.Tx, m *subnetv1.Msg) *kernel.Tx {
	d := *tx.DecodedTx
	d.Body.Msg = m
	return &kernel.Tx{DecodedTx: &d, Account: tx.Account, Validator: tx.Validator}
}

// Check refuses a batch by its shape or when every entry's own check
// refuses it.
func (*batchUnit) Check(env kernel.Env, tx *kernel.Tx) *wire.TxError {
	b := batchOf(tx.Body.Msg)
	if b.validator {
		if terr := env.RequireValidator(tx, b.kind); terr != nil {
			return terr
		}
	}
	if terr := wire.CheckBatchShape(b.kind, b.verb, b.keys); terr != nil {
		return terr
	}
	var first *wire.TxError
	for _, m := range b.entries {
		terr := checkMsg(env, entryTx(tx, m))
		if terr == nil {
			return nil
		}
		if first == nil {
			first = terr
		}
	}
	return wire.Reject(first.Code, fmt.Sprintf("every entry of the %s was refused; entry 0 (%s): %s", b.kind, b.keys[0], first.Msg))
}

// Execute applies each entry its unit's check accepts, in the state its
// predecessors left, and emits the entry's event (index, target, code, code
// name; a refused entry's message as log) before the entry's own events.
func (*batchUnit) Execute(env kernel.Env, tx *kernel.Tx) []abcitypes.Event {
	b := batchOf(tx.Body.Msg)
	var evs []abcitypes.Event
	for i, m := range b.entries {
		et := entryTx(tx, m)
		attrs := append([]string{"index", strconv.Itoa(i)}, b.attrs[i]...)
		u, terr := checkRoute(et)
		var out []abcitypes.Event
		if terr == nil {
			out, terr = apply(u, env, et)
		}
		if terr != nil {
			attrs = append(attrs, "code", strconv.FormatUint(uint64(terr.Code), 10), "name", wire.CodeName(terr.Code), "log", terr.Msg)
			evs = append(evs, wire.Event(b.event, attrs...))
			continue
		}
		attrs = append(attrs, "code", strconv.FormatUint(uint64(wire.CodeOK), 10), "name", wire.CodeName(wire.CodeOK))
		evs = append(evs, wire.Event(b.event, attrs...))
		evs = append(evs, out...)
	}
	return evs
}

// apply checks and executes one entry by its unit: in one step when the
// unit can (kernel.Applier: a report reads its submission once).
func apply(u kernel.Unit, env kernel.Env, tx *kernel.Tx) ([]abcitypes.Event, *wire.TxError) {
	if a, ok := u.(kernel.Applier); ok {
		return a.Apply(env, tx)
	}
	if terr := u.Check(env, tx); terr != nil {
		return nil, terr
	}
	return u.Execute(env, tx), nil
}

// MsgUnits charges every entry after the first as a transaction of its
// own, before anything of the batch runs. A single report, commit, reveal
// or truth carries no work beyond its transaction's (its unit is no
// kernel.Verifier or kernel.Charger: TestBatchEntriesChargeNoMore), so
// that is the whole charge. A batch of a bad shape is charged as one
// transaction: its check refuses it whole.
func (*batchUnit) MsgUnits(tx *kernel.Tx) int64 {
	n := wire.Entries(tx.Body.Msg)
	if n == 0 || n > wire.MaxBatch {
		return 0
	}
	return int64(n-1) * budget.UnitsTx
}
