package validator

import (
	"context"
	"errors"
	"strconv"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// send sends the recorded reports in MsgReportBatch transactions of up to
// [report] batch_max entries (a single report goes as a batch of one, so
// that every send's outcome is read from its report_entry events), waits
// for each block and reads each entry's outcome: taken (or this
// validator's vote already there) ends the work; a refusal that no retry
// changes ends it as refused; anything else (the block full, no answer) is
// sent again at the next poll while the margin allows.
func (d *Daemon) send(ctx context.Context, ws []*work, next int64) {
	for len(ws) > 0 && ctx.Err() == nil {
		n := min(len(ws), d.cfg.Report.BatchMax)
		batch := ws[:n]
		ws = ws[n:]
		msgs := make([]*subnetv1.Msg, n)
		for i, w := range batch {
			msgs[i] = &subnetv1.Msg{Sum: &subnetv1.Msg_Report{Report: w.report}}
		}
		msg, err := client.ReportBatch(msgs...)
		if err != nil {
			d.logf("validator: report batch: %v", err)
			return
		}
		res, err := d.signer.SendWait(ctx, msg, txTimeout)
		var te *client.TxError
		switch {
		case errors.As(err, &te) && n == 1:
			// a batch of one is refused whole by its entry's refusal
			d.entryOutcome(batch[0], te.Code, wire.CodeName(te.Code), te.Log, 0)
		case errors.As(err, &te):
			d.logf("validator: a report batch of %d entries was refused whole: %v; each submission is read again at the next poll", n, err)
			for _, w := range batch {
				w.recheck = true
			}
		case err != nil:
			if ctx.Err() != nil {
				return
			}
			d.logf("validator: a report batch of %d entries: %v (outcome unknown; each submission is read again at the next poll)", n, err)
			for _, w := range batch {
				w.recheck = true
			}
		default:
			d.readEntries(batch, res)
		}
	}
}

// readEntries applies the report_entry events of a batch's block result
// to its entries, by index.
func (d *Daemon) readEntries(batch []*work, res client.TxResult) {
	for _, e := range res.Events {
		if e.Type != wire.EventReportEntry {
			continue
		}
		var idx, code uint64
		var name, log string
		for _, a := range e.Attributes {
			switch a.Key {
			case "index":
				idx, _ = strconv.ParseUint(a.Value, 10, 64)
			case "code":
				code, _ = strconv.ParseUint(a.Value, 10, 32)
			case "name":
				name = a.Value
			case "log":
				log = a.Value
			}
		}
		if idx < uint64(len(batch)) {
			d.entryOutcome(batch[idx], uint32(code), name, log, res.Height)
		}
	}
}

// entryOutcome applies the chain's answer to one report.
func (d *Daemon) entryOutcome(w *work, code uint32, name, log string, height int64) {
	switch code {
	case wire.CodeOK:
		d.logf("validator: submission %d (%s, task %d): reported at height %d (%s)", w.id(), w.sub.Track, w.task.ID, height, w.outcome())
		d.metrics.report(w.sub.Track, w.outcome())
		d.finish(w.id(), w.task.ReportDeadline)
	case wire.CodeDuplicateReport:
		d.logf("validator: submission %d: this validator's report is on chain already", w.id())
		d.finish(w.id(), w.task.ReportDeadline)
	case wire.CodeBlockFull, wire.CodeRevealWindow:
		d.logf("validator: submission %d: report not taken (%s: %s); sent again at the next poll", w.id(), name, log)
		w.recheck = true
	default:
		d.logf("validator: submission %d: report refused (%s: %s)", w.id(), name, log)
		d.metrics.report(w.sub.Track, OutcomeRefused)
		d.finish(w.id(), w.task.ReportDeadline)
	}
}
