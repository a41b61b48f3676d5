package rounds

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Commit-reveal (docs/commit-reveal.md): a miner commits to a payload while its target takes
// commits, keeps the payload and the salt in memory, and reveals them once the target's reveal
// window is open: a task's from the block after its submission deadline to its reveal
// deadline (task/<id>), an EVM block's from the block after its truth became final to the
// round's reveal_until (truth/<chain>/<block>). Each miner has a revealer that watches the
// height and reveals what is due between the sends of its rounds.

// window is a reveal window: the heights [from, until] at which a reveal is taken.
type window struct{ from, until int64 }

// revealStep is what a revealer does with a commit when the last committed height is h.
type revealStep int

const (
	stepWait   revealStep = iota // the window is not open yet
	stepReveal                   // a reveal sent now lands in the window
	stepMissed                   // the window closed
)

// stepAt: a transaction sent once h is committed lands at h+1 at the earliest, so it reveals
// when h+1 is in the window; past it, the commit stays unrevealed. In a window of three blocks
// or more it waits one block more: h may come from a node ahead of the one whose CheckTx takes
// the reveal, which would refuse it as early (49).
func stepAt(h int64, w window) revealStep {
	first := w.from
	if w.until-w.from >= 2 {
		first++
	}
	switch {
	case h+1 > w.until:
		return stepMissed
	case h+1 < first:
		return stepWait
	}
	return stepReveal
}

// Sides of the commit-reveal counts.
const (
	sideHonest    = "honest"
	sideAdversary = "adversary"
)

// commitment is one payload a miner committed to (or is committing to), with its salt, until
// it is revealed or its window has passed.
type commitment struct {
	payload *subnetv1.MsgSubmit
	salt    client.Salt
	target  client.Target
	track   string
	round   int
	miner   int      // the honest miner's index (for its reports' values); -1 for the adversary's
	task    *taskRun // the honest task it is for (reports follow its reveal); nil otherwise
	kind    string   // record kind of its reveal
	side    string   // sideHonest or sideAdversary
	// The adversary's variants: reveal once with a wrong salt first (code 50 expected); never
	// reveal (the commit expires unrevealed).
	wrongSalt bool
	withhold  bool
	// onReveal, when set, runs once the reveal is committed; it must not block.
	onReveal func(c *commitment)

	// miner.mu: seen once the commit was seen committed, as submission sub (ids start at 0);
	// sending while the commit is being sent (the revealer leaves it alone until its outcome
	// is known).
	sub     uint64
	seen    bool
	sending bool
}

// miner is an actor with a uid and the commitments it has not revealed yet.
type miner struct {
	*actor
	uid        uint32
	registered bool

	mu   sync.Mutex
	open []*commitment
}

// keep adds c, whose commit is being sent, to the open commitments.
func (m *miner) keep(c *commitment) {
	m.mu.Lock()
	c.sending = true
	m.open = append(m.open, c)
	m.mu.Unlock()
}

// sent records the outcome of c's commit: seen committed as submission sub, or not seen.
func (m *miner) sent(c *commitment, sub uint64, seen bool) {
	m.mu.Lock()
	c.sending, c.sub, c.seen = false, sub, seen
	m.mu.Unlock()
}

func (m *miner) drop(c *commitment) {
	m.mu.Lock()
	m.open = slices.DeleteFunc(m.open, func(o *commitment) bool { return o == c })
	m.mu.Unlock()
}

func (m *miner) pending() []*commitment {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.open)
}

// settledCommits are the open commitments whose commit is no longer being sent.
func (m *miner) settledCommits() []*commitment {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*commitment
	for _, c := range m.open {
		if !c.sending {
			out = append(out, c)
		}
	}
	return out
}

// subOf is c's submission id, if its commit was seen committed.
func (m *miner) subOf(c *commitment) (uint64, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return c.sub, c.seen
}

// commitTo commits m to c.payload under a fresh salt. c is kept (salt and all) before the
// broadcast: a commit whose outcome is unknown may have been included all the same, and its
// reveal will tell (code 48 if it was not). kind is the commit's record kind. It returns the
// submission id, or the send's error (the commit is dropped unless its outcome is unknown).
func (g *generator) commitTo(ctx context.Context, m *miner, kind string, c *commitment) (uint64, error) {
	salt, err := client.NewSalt()
	if err != nil {
		return 0, err
	}
	t, err := client.TargetOf(c.payload)
	if err != nil {
		return 0, err
	}
	msg, err := client.Commit(g.net.ChainID, m.s.PubKey(), m.uid, c.payload, salt)
	if err != nil {
		return 0, err
	}
	c.salt, c.target = salt, t
	m.keep(c)
	res, err := m.send(ctx, kind, msg)
	if err != nil {
		if !errors.Is(err, errUncertain) {
			m.drop(c)
			g.settled(c)
		}
		m.sent(c, 0, false)
		return 0, err
	}
	sub, err := res.AttrU64(wire.EventSubmissionAdded, "submission_id")
	m.sent(c, sub, err == nil)
	if err != nil {
		return 0, fmt.Errorf("%s: %s: %w", m.name, kind, err)
	}
	g.rec.committedTo(c.side, sub)
	rec := Record{Kind: kind, Sender: m.name, SubmissionID: sub, UID: uint64(m.uid)}
	if !t.Gas {
		rec.TaskID = t.TaskID
	}
	g.commit(res, rec)
	return sub, nil
}

// revealPoll is how often a revealer looks at the height.
const revealPoll = 200 * time.Millisecond

// revealLoop reveals m's commitments as their windows open, until ctx ends.
func (g *generator) revealLoop(ctx context.Context, m *miner) {
	tick := time.NewTicker(revealPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		g.revealDue(ctx, m)
	}
}

// revealDue reveals every commitment of m whose window is open at the current height, and
// gives up those whose window has passed (or will never open).
func (g *generator) revealDue(ctx context.Context, m *miner) {
	open := m.settledCommits()
	if len(open) == 0 {
		return
	}
	h, err := g.heights.get(ctx)
	if err != nil {
		return
	}
	for _, c := range open {
		w, ok, gone := g.win.of(ctx, c.target, h)
		if gone {
			m.drop(c)
			g.unrevealed(m, c)
			continue
		}
		if !ok {
			continue
		}
		switch stepAt(h, w) {
		case stepWait:
			continue
		case stepMissed:
			m.drop(c)
			g.unrevealed(m, c)
			continue
		}
		if !c.withhold {
			g.reveal(ctx, m, c)
		}
	}
}

// reveal sends c's reveal (after a wrong-salt one, for the adversary's variant).
func (g *generator) reveal(ctx context.Context, m *miner, c *commitment) {
	if c.wrongSalt {
		c.wrongSalt = false
		bad := c.salt
		bad[0] ^= 0xff
		_, err := m.send(ctx, kindWrongSalt, client.Reveal(c.payload, bad))
		code, refused := refusedWith(err)
		g.rec.wrongSalt(refused && code == wire.CodeRevealMismatch)
		if err == nil {
			g.logf("%s: a reveal with a wrong salt was taken", m.name)
		}
	}
	res, err := m.send(ctx, c.kind, client.Reveal(c.payload, c.salt))
	code, refused := refusedWith(err)
	switch {
	case err == nil:
		m.drop(c)
		sub, err := res.AttrU64(wire.EventSubmissionRevealed, "submission_id")
		if err != nil {
			g.fail(fmt.Errorf("%s: %s: %w", m.name, c.kind, err))
		}
		rec := Record{Kind: c.kind, Sender: m.name, SubmissionID: sub, UID: uint64(m.uid)}
		if !c.target.Gas {
			rec.TaskID = c.target.TaskID
		}
		g.commit(res, rec)
		g.revealed(c, sub, err == nil, res)
	case refused && code == wire.CodeDuplicateSubmission:
		// an earlier reveal whose outcome was unknown was included
		m.drop(c)
		sub, seen := m.subOf(c)
		g.revealed(c, sub, seen, client.TxResult{})
	case refused && code == wire.CodeRevealWindow:
		// a lagging node's height: the next look decides
		g.fail(err)
	case refused:
		// 48: a commit whose outcome was unknown was not included; anything else is a bug
		m.drop(c)
		g.fail(err)
		g.settled(c)
	default:
		g.fail(err) // unknown outcome: tried again while the window is open
	}
}

// kindWrongSalt is the record kind of the adversary's reveals with a wrong salt.
const kindWrongSalt = "adversary/wrong-salt-reveal"

// revealed counts c's reveal as submission sub (known: the id is known), with the duplicates
// its block named, hands an honest task's submission to the reports and runs c's hook.
func (g *generator) revealed(c *commitment, sub uint64, known bool, res client.TxResult) {
	g.rec.revealed(c.side)
	for _, e := range res.Events {
		if e.Type != wire.EventSubmissionDuplicate {
			continue
		}
		for _, a := range e.Attributes {
			if a.Key == "submission_id" {
				var id uint64
				if _, err := fmt.Sscan(a.Value, &id); err == nil {
					g.rec.duplicate(id)
				}
			}
		}
	}
	if c.task != nil && known {
		c.task.add(submission{id: sub, miner: c.miner, track: c.track, round: c.round})
	}
	g.settled(c)
	if c.onReveal != nil {
		c.onReveal(c)
	}
}

// unrevealed counts a commit whose reveal window passed without its reveal.
func (g *generator) unrevealed(m *miner, c *commitment) {
	if _, seen := m.subOf(c); seen {
		g.rec.unrevealed(c.side, c.withhold)
	}
	g.settled(c)
}

// settled: c is revealed or given up; its honest task stops waiting for it.
func (g *generator) settled(c *commitment) {
	if c.task != nil {
		c.task.done()
	}
}

// heights is the last committed height of a live node, read at most every heightsTTL.
type heights struct {
	pool *pool
	mu   sync.Mutex
	h    int64
	at   time.Time
}

const heightsTTL = 100 * time.Millisecond

func (x *heights) get(ctx context.Context) (int64, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if time.Since(x.at) < heightsTTL {
		return x.h, nil
	}
	h, err := x.pool.Height(ctx)
	if err != nil {
		return 0, err
	}
	x.h, x.at = h, time.Now()
	return h, nil
}

// taskHeights are the heights of a task that the generator acts on (task/<id>).
type taskHeights struct {
	reveal         window
	reportDeadline int64
}

// windows are the reveal windows of tasks and EVM blocks, read from the chain and kept.
type windows struct {
	pool   *pool
	mu     sync.Mutex
	tasks  map[uint64]taskHeights
	truths map[client.Target]*truthState
	// swept: per EVM chain, the highest block whose close (the end of its reveal window) has
	// passed: the commits for the blocks below it were swept as unscored.
	swept map[uint64]uint64
	// settleBy, once set (the drain: every truth that will be sent was sent), is the height by
	// which every truth round is over (final, or dropped at its deadline): an EVM block still
	// without a final truth then never gets a reveal window.
	settleBy int64
}

type truthState struct {
	w     window
	final bool
	gone  bool
	asked time.Time
}

// truthPoll is how often one EVM block's truth round is asked for before it is final.
const truthPoll = 250 * time.Millisecond

func newWindows(p *pool) *windows {
	return &windows{pool: p, tasks: map[uint64]taskHeights{}, truths: map[client.Target]*truthState{}, swept: map[uint64]uint64{}}
}

// task is the task's heights, once a node knows the task.
func (w *windows) task(ctx context.Context, id uint64) (taskHeights, bool) {
	w.mu.Lock()
	th, ok := w.tasks[id]
	w.mu.Unlock()
	if ok {
		return th, true
	}
	var v wire.TaskView
	found, err := w.pool.query(ctx, fmt.Sprintf("task/%d", id), &v)
	if err != nil || !found {
		return taskHeights{}, false
	}
	th = taskHeights{reveal: window{v.SubmitDeadline + 1, v.RevealDeadline}, reportDeadline: v.ReportDeadline}
	w.mu.Lock()
	w.tasks[id] = th
	w.mu.Unlock()
	return th, true
}

// noMoreTruths: from height h on, no truth is sent any more; every round is over once
// truth_report_blocks more blocks have passed.
func (w *windows) noMoreTruths(h, truthReportBlocks int64) {
	w.mu.Lock()
	w.settleBy = h + truthReportBlocks + 1
	w.mu.Unlock()
}

// of is the reveal window of a target at height h: ok once it is known; gone when it never
// will be (the EVM block's truth round expired or was contested, or a later block's close
// swept its commits).
func (w *windows) of(ctx context.Context, t client.Target, h int64) (win window, ok, gone bool) {
	if !t.Gas {
		th, ok := w.task(ctx, t.TaskID)
		return th.reveal, ok, false
	}
	w.mu.Lock()
	s := w.truths[t]
	if s == nil {
		s = &truthState{}
		w.truths[t] = s
	}
	if s.final || s.gone {
		if s.final && h > s.w.until && t.EVMBlock > w.swept[t.EVMChainID] {
			w.swept[t.EVMChainID] = t.EVMBlock
		}
		w.mu.Unlock()
		return s.w, s.final, s.gone
	}
	if t.EVMBlock < w.swept[t.EVMChainID] {
		s.gone = true
		w.mu.Unlock()
		return window{}, false, true
	}
	if time.Since(s.asked) < truthPoll {
		w.mu.Unlock()
		return window{}, false, false
	}
	s.asked = time.Now()
	w.mu.Unlock()

	var v wire.TruthRoundView
	found, err := w.pool.query(ctx, fmt.Sprintf("truth/%d/%d", t.EVMChainID, t.EVMBlock), &v)
	if err != nil {
		return window{}, false, false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case !found || v.Status == "pending":
		s.gone = w.settleBy > 0 && h > w.settleBy
	case v.Status == "final" && v.RevealFrom != nil && v.RevealUntil != nil:
		s.final, s.w = true, window{*v.RevealFrom, *v.RevealUntil}
		if h > s.w.until && t.EVMBlock > w.swept[t.EVMChainID] {
			w.swept[t.EVMChainID] = t.EVMBlock
		}
	case v.Status == "expired" || v.Status == "contested":
		s.gone = true
	}
	return s.w, s.final, s.gone
}
