package validator

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/daemon/artifact"
	"github.com/scoringsubnet/validatord/daemon/extcmd"
	"github.com/scoringsubnet/validatord/daemon/signrec"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// work is one submission whose report window is open and which this
// validator has not reported yet.
type work struct {
	sub  *wire.SubmissionView
	task *wire.TaskView
	// artifact is the fetched artifact (kept for the command's retries);
	// fetchReason the last fetch failure's reason, attempts the fetches
	// tried; unusable is set when the artifact was fetched but is not usable
	// (mismatch, too large): the no-usable-artifact measurement follows
	// without retry
	artifact []byte
	attempts int
	reason   string
	unusable bool
	// report is the measurement in the signing record (set once signed);
	// noArtifact says it is the no-usable-artifact one
	report     *subnetv1.MsgReport
	noArtifact bool
	// recheck makes the next poll read the submission again before
	// sending (the last send's outcome is unknown)
	recheck bool
	// failed is the last failure of the command logged (a failure logs a
	// line when it differs from the last one; every failure is counted)
	failed string
}

func (w *work) id() uint64 { return w.sub.ID }

// outcome is the label of a report of w the chain took.
func (w *work) outcome() string {
	if w.noArtifact {
		return OutcomeNoArtifact
	}
	return OutcomeReported
}

// poll is one round: read the height, find the submissions to report,
// fetch, measure, sign (the signing record first), send, and post tasks
// when due.
func (d *Daemon) poll(ctx context.Context) error {
	h, err := d.c.Height(ctx)
	if err != nil {
		return err
	}
	next := h + 1 // the height the next block, and a transaction sent now, has
	if d.horizon == 0 || d.polls%paramsEvery == 0 {
		if err := d.readParams(ctx); err != nil {
			return err
		}
	}
	d.polls++
	if err := d.scan(ctx, next); err != nil {
		return err
	}
	var todo, send []*work
	for _, w := range d.sorted() {
		if next > w.task.ReportDeadline-d.cfg.Report.MarginBlocks {
			d.miss(w, next)
			continue
		}
		if w.report != nil {
			send = append(send, w)
			continue
		}
		if e, ok := d.rec.Lookup(w.id()); ok {
			// signed before (this run or an earlier one): the recorded bytes
			// are what is sent, never a new measurement
			r := &subnetv1.MsgReport{}
			if err := r.Unmarshal(e.Measurement); err != nil {
				return fmt.Errorf("signing record: submission %d: %w", w.id(), err)
			}
			w.report = r
			d.logf("validator: submission %d: sending the measurement signed at height %d (signing record)", w.id(), e.Height)
			send = append(send, w)
			continue
		}
		todo = append(todo, w)
	}
	fresh := d.measureAll(ctx, todo, next)
	if ctx.Err() != nil {
		return nil
	}
	send = append(send, d.record(fresh, h)...)
	if d.afterRecord != nil {
		if err := d.afterRecord(); err != nil {
			return &stopError{err}
		}
	}
	d.send(ctx, send, next)
	d.postTasks(ctx, h)
	d.forget(next)
	d.metrics.pending(len(d.subs))
	if d.polls%d.pruneEvery == 0 {
		d.prune()
	}
	return nil
}

// prune drops from the signing record the submissions below the lowest
// one of a task whose report window is open: every such submission's
// window has closed (a submission's id grows with its commit, and a task
// not yet open for reports has no measured submission), so none can be
// reported again and its entry can never be needed.
func (d *Daemon) prune() {
	n := d.rec.Len()
	if n == 0 {
		return
	}
	if err := d.rec.Prune(d.openMin); err != nil {
		d.logf("validator: signing record: prune: %v", err)
		return
	}
	if k := n - d.rec.Len(); k > 0 {
		d.logf("validator: signing record: dropped %d entries of submissions whose report windows have closed", k)
	}
}

// readParams reads the chain's params: the horizon of the task scan is the
// longest a task can stay open (submission, reveal and report windows).
func (d *Daemon) readParams(ctx context.Context) error {
	p, err := d.c.Params(ctx)
	if err != nil {
		return err
	}
	var g genesis.AppState
	if err := json.Unmarshal(p.AppState, &g); err != nil {
		return fmt.Errorf("params: %w", err)
	}
	reveal := int64(0)
	for _, t := range g.Tracks {
		reveal = max(reveal, t.RevealBlocks)
	}
	// Never shorter than before: a task posted under longer bounds that
	// governance lowered since stays in reach while this daemon runs.
	d.horizon = max(d.horizon, g.Chain.MaxSubmissionBlocks+reveal+g.Chain.MaxReportBlocks+1)
	return nil
}

// scan lists the tasks whose report window is open at next, newest first
// (back to the horizon), and their pending submissions: a submission not
// seen before is read in full and taken up unless this validator's vote is
// in it already. Submissions no longer pending leave the work.
func (d *Daemon) scan(ctx context.Context, next int64) error {
	seen := map[uint64]bool{}
	openMin := uint64(math.MaxUint64)
	f := client.TaskFilter{Page: client.Page{Limit: wire.MaxListLimit}}
	for {
		tv, err := d.c.Tasks(ctx, f)
		if err != nil {
			return err
		}
		old := false
		for i := range tv.Tasks {
			t := tv.Tasks[i].TaskView
			if t.Poster == d.pubHex && t.PostedHeight > d.lastPost {
				d.lastPost = t.PostedHeight // resumes the posting schedule after a restart
			}
			if t.PostedHeight+d.horizon < next {
				old = true
				break
			}
			if next <= t.RevealDeadline || next > t.ReportDeadline {
				continue
			}
			low, err := d.scanTask(ctx, &t, seen)
			if err != nil {
				return err
			}
			openMin = min(openMin, low)
		}
		if old || tv.NextAfter == nil {
			break
		}
		f.After = *tv.NextAfter
	}
	d.openMin = openMin
	for id, w := range d.subs {
		if !seen[id] {
			// settled (scored, expired …) or gone: nothing more to send
			delete(d.subs, id)
			d.done[id] = w.task.ReportDeadline
		}
	}
	return nil
}

// scanTask takes up the pending submissions of one task and returns the
// lowest id of its submissions (math.MaxUint64: none).
func (d *Daemon) scanTask(ctx context.Context, t *wire.TaskView, seen map[uint64]bool) (uint64, error) {
	p := client.Page{Limit: wire.MaxListLimit}
	low := uint64(math.MaxUint64)
	for {
		sv, err := d.c.TaskSubmissions(ctx, t.ID, p)
		if err != nil {
			return 0, err
		}
		for _, s := range sv.Submissions {
			low = min(low, s.ID)
			if s.Status != "pending" {
				continue
			}
			if _, ok := d.done[s.ID]; ok {
				continue
			}
			seen[s.ID] = true
			if w, ok := d.subs[s.ID]; ok && !w.recheck {
				continue
			}
			full, err := d.c.Submission(ctx, s.ID)
			if err != nil {
				return 0, err
			}
			if w, ok := d.subs[s.ID]; ok {
				w.recheck = false
				w.sub = full
			}
			if d.voted(full) {
				d.finish(s.ID, t.ReportDeadline)
				delete(seen, s.ID)
				continue
			}
			if _, ok := d.subs[s.ID]; !ok {
				task := *t
				d.subs[s.ID] = &work{sub: full, task: &task}
			}
		}
		if sv.NextAfter == nil {
			return low, nil
		}
		p.After = *sv.NextAfter
	}
}

// voted reports whether this validator's vote is in the submission.
func (d *Daemon) voted(s *wire.SubmissionView) bool {
	for _, v := range s.Votes {
		if v.Validator == d.name {
			return true
		}
	}
	return false
}

// finish ends the work on a submission.
func (d *Daemon) finish(id uint64, deadline int64) {
	delete(d.subs, id)
	d.done[id] = deadline
}

// miss ends a submission that this validator has not reported and may no
// longer send a report of (margin_blocks before its deadline).
func (d *Daemon) miss(w *work, next int64) {
	d.logf("validator: submission %d: no report of this validator on chain and height %d is within margin_blocks = %d of the report deadline %d: a miss",
		w.id(), next, d.cfg.Report.MarginBlocks, w.task.ReportDeadline)
	d.metrics.report(w.sub.Track, OutcomeMissed)
	d.finish(w.id(), w.task.ReportDeadline)
}

// forget drops the finished submissions whose report window has closed.
func (d *Daemon) forget(next int64) {
	for id, deadline := range d.done {
		if next > deadline {
			delete(d.done, id)
		}
	}
}

// sorted is the work in submission order (oldest first: reports go in
// the order the submissions came).
func (d *Daemon) sorted() []*work {
	out := make([]*work, 0, len(d.subs))
	for _, w := range d.subs {
		out = append(out, w)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].id() < out[j-1].id(); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// cutoff is the last height at which a submission is fetched and
// measured: fetch_until_blocks_before_deadline before its report deadline.
func (d *Daemon) cutoff(w *work) int64 {
	return w.task.ReportDeadline - d.cfg.Measure.FetchUntilBlocks
}

// The results of measureOne.
const (
	notYet   = iota // nothing to sign this poll (a retry follows)
	measured        // w.report holds a measurement to sign
	missed          // past the cut-off without a measurement: a miss
)

// fetchRounds bounds the time one poll spends starting fetches: a fetch
// not started within fetchRounds × [measure] fetch_timeout of the poll's
// start waits for the next poll.
const fetchRounds = 2

// needsFetch reports whether measureOne would fetch w's artifact now (it
// has none, and may still get one).
func (d *Daemon) needsFetch(w *work, next int64) bool {
	return w.artifact == nil && !w.unusable && (next <= d.cutoff(w) || w.attempts == 0)
}

// measureAll runs measureOne on each work item, [measure] workers at a
// time (each item is touched by one goroutine only), and returns those
// with a measurement to sign, in order; the misses end here.
//
// A miner cannot stall the poll with servers that answer slowly or never
// (a tarpit, or many uids each announcing one): an item whose uid's fetch
// failed (this poll, or the last time it was tried) waits until every
// other item was started, and a fetch not started within fetchRounds fetch
// time-outs of the poll's start waits for the next poll. So each stalling
// uid costs a poll at most one fetch time-out of one worker before the
// others, and the artifacts that come at once are measured and reported
// every poll whatever the rest do.
func (d *Daemon) measureAll(ctx context.Context, ws []*work, next int64) []*work {
	budget := time.Now().Add(fetchRounds * d.cfg.Measure.FetchTimeout.D())
	results := make([]int, len(ws))
	sem := make(chan struct{}, d.cfg.Measure.Workers)
	var wg sync.WaitGroup
	stalls := func(w *work) bool {
		d.strikesMu.Lock()
		defer d.strikesMu.Unlock()
		return d.strikes[w.sub.UID]
	}
	// start runs item i on the worker slot the caller took
	start := func(i int, w *work) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			results[i] = d.measureOne(ctx, w, next)
			if d.needsFetch(w, next) || w.unusable {
				d.strike(w.sub.UID, true)
			} else if w.artifact != nil {
				d.strike(w.sub.UID, false)
			}
		}()
	}
	// the slot is taken before a stalling uid is asked about, so that the
	// fetch just before, of the same uid, has finished when it is
	var later []int
	for i, w := range ws {
		sem <- struct{}{}
		switch {
		case d.needsFetch(w, next) && stalls(w):
			later = append(later, i)
			<-sem
		case d.needsFetch(w, next) && time.Now().After(budget):
			<-sem // results[i] is notYet: the next poll tries it
		default:
			start(i, w)
		}
	}
	for _, i := range later {
		if time.Now().After(budget) {
			break
		}
		sem <- struct{}{}
		start(i, ws[i])
	}
	wg.Wait()
	var out []*work
	for i, w := range ws {
		switch results[i] {
		case measured:
			out = append(out, w)
		case missed:
			d.metrics.report(w.sub.Track, OutcomeMissed)
			d.finish(w.id(), w.task.ReportDeadline)
		}
	}
	return out
}

// measureOne fetches w's artifact and runs the command on it. Past the
// cut-off an artifact never fetched (or an unusable one) gets NoArtifact,
// and a command that kept failing is a miss. A submission first seen past
// the cut-off gets one try. It touches w and the daemon's goroutine-safe
// parts only (client, logger, metrics, command).
func (d *Daemon) measureOne(ctx context.Context, w *work, next int64) int {
	inTime := next <= d.cutoff(w) || w.attempts == 0
	if w.artifact == nil && !w.unusable && inTime {
		d.fetch(ctx, w)
		if ctx.Err() != nil {
			return notYet
		}
	}
	if w.artifact == nil {
		if (w.unusable || !inTime || next > d.cutoff(w)) && d.noArtifact(w) {
			return measured
		}
		return notYet
	}
	if !inTime {
		d.logf("validator: submission %d: the measurement command failed until the cut-off (height %d, %d blocks before the report deadline %d): no report, a miss",
			w.id(), d.cutoff(w), d.cfg.Measure.FetchUntilBlocks, w.task.ReportDeadline)
		return missed
	}
	in, err := json.Marshal(MeasureInput{Track: w.sub.Track, Submission: w.sub, Task: w.task, Artifact: w.artifact})
	if err != nil {
		d.logf("validator: submission %d: %v", w.id(), err)
		return notYet
	}
	out, err := d.measure.Run(ctx, in)
	if err != nil {
		var ee *extcmd.Error
		if errors.As(err, &ee) && ee.Reason == extcmd.ReasonCanceled {
			return notYet
		}
		reason, stderr := "start", ""
		if ee != nil {
			reason, stderr = ee.Reason, ee.Stderr
		}
		d.metrics.measureFailure(reason)
		d.measureFailed(w, fmt.Sprintf("measurement failed (%s): %v; stderr: %q", reason, err, stderr))
		return notYet
	}
	r, err := DecodeMeasurement(out, w.sub, w.task)
	if err != nil {
		d.metrics.measureFailure("bad_output")
		d.measureFailed(w, fmt.Sprintf("measurement failed (bad_output): %v; stdout: %.200q", err, out))
		return notYet
	}
	w.report = r
	d.logf("validator: submission %d (%s, task %d, uid %d): measured %s", w.id(), w.sub.Track, w.task.ID, w.sub.UID, compactReport(r))
	return measured
}

// measureFailed logs a failure of the command on w, unless it is the same
// as the last one.
func (d *Daemon) measureFailed(w *work, line string) {
	if line != w.failed {
		w.failed = line
		d.logf("validator: submission %d: %s; retrying each poll until height %d", w.id(), line, d.cutoff(w))
	}
}

// fetch tries once to get w's artifact from its miner's address.
func (d *Daemon) fetch(ctx context.Context, w *work) {
	w.attempts++
	hash, err := artifactHash(w.sub)
	if err != nil {
		w.unusable, w.reason = true, artifact.ReasonMismatch
		d.metrics.fetchFailure(w.reason)
		d.logf("validator: submission %d: %v", w.id(), err)
		return
	}
	addr, err := d.minerAddress(ctx, w.sub.UID)
	if err != nil {
		d.logf("validator: submission %d: reading uid %d's address: %v", w.id(), w.sub.UID, err)
		return
	}
	body, err := artifact.Fetch(ctx, d.hc, addr, hash, artifact.Limits{MaxBytes: d.cfg.Measure.MaxArtifactBytes, Timeout: d.cfg.Measure.FetchTimeout.D()})
	var fe *artifact.FetchError
	switch {
	case err == nil:
		w.artifact = body
		return
	case errors.As(err, &fe) && fe.Reason == artifact.ReasonCanceled:
		return
	case errors.As(err, &fe):
		d.metrics.fetchFailure(fe.Reason)
		switch fe.Reason {
		case artifact.ReasonMismatch, artifact.ReasonTooLarge:
			// the miner served it, and it is not usable: no retry
			w.unusable = true
			d.logf("validator: submission %d: fetch from uid %d failed: %s (%v)", w.id(), w.sub.UID, fe.Reason, err)
		default:
			if fe.Reason != w.reason {
				d.logf("validator: submission %d: fetch from uid %d failed: %s (%v); retrying each poll until height %d", w.id(), w.sub.UID, fe.Reason, err, d.cutoff(w))
			}
		}
		w.reason = fe.Reason
	default:
		w.unusable, w.reason = true, artifact.ReasonMismatch
		d.metrics.fetchFailure(w.reason)
		d.logf("validator: submission %d: %v", w.id(), err)
	}
}

// artifactHash is the revealed artifact hash of a submission.
func artifactHash(s *wire.SubmissionView) ([]byte, error) {
	if s.ArtifactHash == nil {
		return nil, fmt.Errorf("submission %d has no artifact hash", s.ID)
	}
	h, err := hex.DecodeString(*s.ArtifactHash)
	if err != nil || len(h) != artifact.HashSize {
		return nil, fmt.Errorf("submission %d: artifact hash %q is not %d bytes of hex", s.ID, *s.ArtifactHash, artifact.HashSize)
	}
	return h, nil
}

// noArtifact makes w's report the no-usable-artifact measurement.
func (d *Daemon) noArtifact(w *work) bool {
	r, err := NoArtifact(w.id(), w.task)
	if err != nil {
		d.logf("validator: submission %d: %v", w.id(), err)
		return false
	}
	why := w.reason
	if why == "" {
		why = "not fetched"
	}
	d.logf("validator: submission %d (%s, task %d, uid %d): no usable artifact (%s): the no-usable-artifact measurement %s, without the command",
		w.id(), w.sub.Track, w.task.ID, w.sub.UID, why, compactReport(r))
	w.report, w.noArtifact = r, true
	return true
}

// compactReport is a report's measurement as one line of JSON.
func compactReport(r *subnetv1.MsgReport) string {
	var v any = r.GetArena()
	if w := r.GetWorkflow(); w != nil {
		v = w
	}
	bz, _ := json.Marshal(v)
	s := string(bz)
	if r.DuplicateOf != 0 {
		s += " duplicate_of " + strconv.FormatUint(r.DuplicateOf, 10)
	}
	return s
}

// record puts the new measurements into the signing record (fsynced) at
// height h before anything is signed for the chain, and returns the work
// whose measurement the record holds. A conflict (a measurement of a
// submission already recorded, impossible by construction: a recorded one
// is sent as recorded) is refused, logged and counted, and the rest are
// recorded without it.
func (d *Daemon) record(ws []*work, h int64) []*work {
	for len(ws) > 0 {
		entries := make([]signrec.Entry, len(ws))
		for i, w := range ws {
			bz, err := w.report.Marshal()
			if err != nil {
				d.logf("validator: submission %d: %v", w.id(), err)
				return nil
			}
			entries[i] = signrec.Entry{Submission: w.id(), Measurement: bz, Height: h, Time: time.Now().UTC()}
		}
		err := d.rec.SignAll(entries)
		var ce *signrec.ConflictError
		switch {
		case err == nil:
			for _, w := range ws {
				w.artifact = nil // measured for good: the bytes are not needed any more
			}
			return ws
		case errors.As(err, &ce):
			d.metrics.conflict()
			d.logf("signing record: refused to sign a measurement of submission %d that conflicts with the one signed at height %d", ce.Submission, ce.Signed.Height)
			kept := ws[:0]
			for _, w := range ws {
				if w.id() == ce.Submission {
					w.report, w.noArtifact = nil, false // the recorded one is sent at the next poll
				} else {
					kept = append(kept, w)
				}
			}
			ws = kept
		default:
			// nothing recorded, nothing signed: tried again at the next poll
			d.logf("validator: signing record: %v (nothing signed)", err)
			for _, w := range ws {
				w.report, w.noArtifact = nil, false
			}
			return nil
		}
	}
	return nil
}

// strike records whether uid's last fetch failed (timeout, unreachable, an
// error status, an unusable artifact) or succeeded.
func (d *Daemon) strike(uid uint32, failed bool) {
	d.strikesMu.Lock()
	defer d.strikesMu.Unlock()
	if failed {
		d.strikes[uid] = true
	} else {
		delete(d.strikes, uid)
	}
}
