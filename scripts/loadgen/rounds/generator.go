package rounds

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

// generator runs rounds until the duration is over. A round: validators post a workflow and
// an arena task; every miner commits to both and to a prediction of the round's EVM block;
// every validator reports the submissions whose task's reveal window has closed, then the
// block's truth. Each miner's revealer reveals its commits as their windows open (the tasks'
// after their submission deadline, the EVM block's once its truth is final), so a round's
// reports are on the submissions of earlier rounds. After the last round the generator drains:
// it reveals and reports what is still in flight, for at most --drain.
type generator struct {
	o       options
	net     *setup.Testnet
	pool    *pool
	rec     *recorder
	limit   *limiter
	elapsed time.Duration

	validators []*actor // the honest ones: every validator but the adversary
	miners     []*miner // the honest ones
	adv        *adversary
	cp         *copiers // the adversary's miners (nil unless --adversary)
	// closed is the last EVM block whose round's truths the honest validators sent.
	closed atomic.Uint64

	heights *heights
	win     *windows
	margin  int64 // the gas track's commit_margin_seconds

	mu       sync.Mutex
	inflight []*taskRun // honest tasks whose submissions are not all reported
}

// round is what one round's phases hand to the next.
type round struct {
	n        int
	runs     []*taskRun // the tasks posted this round
	evmBlock uint64
	// evmTime is the EVM block's timestamp in the honest truths (evmTime()).
	evmTime int64
	// late is closed once the adversary's late commit for the EVM block is done (nil: none).
	late <-chan struct{}
}

// submission is a revealed honest submission to report on.
type submission struct {
	id    uint64
	miner int
	track string
	round int
}

// taskRun is one honest task from its post until its submissions are reported.
type taskRun struct {
	id    uint64
	track string
	round int

	mu    sync.Mutex
	open  int          // honest commits neither revealed nor given up
	ready []submission // revealed submissions not yet handed to the reports
}

func (t *taskRun) committing() {
	t.mu.Lock()
	t.open++
	t.mu.Unlock()
}

func (t *taskRun) add(s submission) {
	t.mu.Lock()
	t.ready = append(t.ready, s)
	t.mu.Unlock()
}

func (t *taskRun) done() {
	t.mu.Lock()
	t.open--
	t.mu.Unlock()
}

// take hands over the revealed submissions and says how many commits are still open.
func (t *taskRun) take() (subs []submission, open int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	subs, t.ready = t.ready, nil
	return subs, t.open
}

func (g *generator) run(ctx context.Context) error {
	start := time.Now()
	defer func() { g.elapsed = time.Since(start) }()
	g.heights, g.win = &heights{pool: g.pool}, newWindows(g.pool)
	if t, ok := g.net.State.Track(genesis.TrackGas); ok {
		g.margin = t.CommitMarginSeconds
	}
	for i, k := range g.net.ReportKeys {
		if i != g.o.adv.validator {
			g.validators = append(g.validators, newActor(fmt.Sprintf("validator%d", i), g.pool, g.net.ChainID, k, g.limit, g.rec, g.o.timeout))
		}
	}
	for i := 0; i < g.o.miners; i++ {
		g.miners = append(g.miners, g.newMiner(fmt.Sprintf("miner%d", i), fmt.Sprintf("%s/miner/%d", g.o.seed, i), g.limit))
	}
	if g.o.adv.validator >= 0 {
		g.cp = newCopiers(g)
	}
	var fl *flood
	if g.o.flood.rate > 0 {
		fl = newFlood(g, g.o.flood)
		if err := fl.setup(ctx, g.o.duration); err != nil {
			return fmt.Errorf("flood setup: %w", err)
		}
		g.logf("flood: %d miners, %d tasks ahead", len(fl.miners), len(fl.tasks))
	}
	rctx, stopReveals := context.WithCancel(ctx)
	defer stopReveals()
	var revealers sync.WaitGroup
	for _, m := range g.allMiners() {
		revealers.Go(func() { g.revealLoop(rctx, m) })
	}

	evmBase := uint64(start.Unix())
	g.anchor(ctx, evmBase-1)
	g.closed.Store(evmBase - 1)
	var attack sync.WaitGroup
	if g.adv != nil {
		attack.Go(func() { g.adv.run(ctx) })
	}
	var flooding sync.WaitGroup
	if fl != nil {
		flooding.Go(func() { fl.run(ctx, g.o.duration, g.o.drain) })
	}
	loopStart := time.Now()
	for n := 0; time.Since(loopStart) < g.o.duration && ctx.Err() == nil; n++ {
		r := &round{n: n, evmBlock: evmBase + uint64(n)}
		g.register(ctx)
		g.postTasks(ctx, r)
		g.commitRound(ctx, r)
		g.report(ctx, r)
		g.closed.Store(r.evmBlock)
	}
	g.drain(ctx) // beside the adversary's last cycle: the reports in flight cannot wait for it
	flooding.Wait()
	if fl != nil {
		g.rec.flood(fl.counts)
	}
	attack.Wait()
	stopReveals()
	revealers.Wait()
	if g.cp != nil {
		g.cp.verify(ctx)
	}
	return nil
}

// newMiner is a miner whose key comes from seed.
func (g *generator) newMiner(name, seed string, limit *limiter) *miner {
	return &miner{actor: newActor(name, g.pool, g.net.ChainID, setup.Key(seed), limit, g.rec, g.o.timeout)}
}

// allMiners: the honest miners, then the adversary's.
func (g *generator) allMiners() []*miner {
	if g.cp == nil {
		return g.miners
	}
	return append(slices.Clone(g.miners), g.cp.miners()...)
}

// anchor: every validator reports the truth of EVM block `block`, the one
// before the first round's, so that the gas chain has a closed block: a chain
// takes predictions only from then on, and only within max_prediction_ahead
// blocks of its last closed one (one round ahead here). On a chain already
// past that block (code 33) there is nothing to anchor.
func (g *generator) anchor(ctx context.Context, block uint64) {
	st := g.net.State
	if !st.HasTrack(genesis.TrackGas) || len(st.Chain.GasChains) == 0 {
		return
	}
	ts := time.Now().Unix()
	each(g.validators, func(_ int, a *actor) {
		res, err := a.send(ctx, "truth", truth(st.Chain.GasChains[0], block, 0, ts))
		code, refused := refusedWith(err)
		switch {
		case err == nil:
			g.commit(res, Record{Kind: "truth", Sender: a.name})
		case refused && code == wire.CodeEVMBlockClosed:
		default:
			g.fail(err)
		}
	})
}

// register registers every miner without a uid yet; a miner whose registration was lost (a
// node killed with it in its mempool) tries again next round, and one already registered
// (a second run with the same seed) reads its uid from its account.
func (g *generator) register(ctx context.Context) {
	var todo []*miner
	for _, m := range g.allMiners() {
		if !m.registered {
			todo = append(todo, m)
		}
	}
	each(todo, func(_ int, m *miner) {
		kind := "register-miner"
		if g.cp.owns(m) {
			kind = "adversary/" + kind
		}
		msg, err := client.RegisterWork(ctx, g.pool, g.net.ChainID, m.s.PubKey(), nil)
		if err != nil {
			g.fail(fmt.Errorf("%s: %s: the registration's work: %w", m.name, kind, err))
			return
		}
		res, err := m.send(ctx, kind, msg)
		code, refused := refusedWith(err)
		switch {
		case err == nil:
			uid, err := res.AttrU64(wire.EventMinerRegistered, "uid")
			if err != nil {
				g.fail(fmt.Errorf("%s: %s: %w", m.name, kind, err))
				return
			}
			m.uid, m.registered = uint32(uid), true
			g.commit(res, Record{Kind: kind, Sender: m.name, UID: uid})
		case refused && code == wire.CodeAlreadyMiner:
			if uid, ok := g.uidOf(ctx, m); ok {
				m.uid, m.registered = uid, true
			}
		default:
			g.fail(err)
		}
	})
}

// uidOf reads a registered miner's uid from its account.
func (g *generator) uidOf(ctx context.Context, m *miner) (uint32, bool) {
	var v wire.AccountView
	found, err := g.pool.query(ctx, "account/"+hex.EncodeToString(m.s.PubKey()), &v)
	if err != nil || !found || v.UID == nil {
		g.fail(fmt.Errorf("%s: no uid in its account (%v)", m.name, err))
		return 0, false
	}
	return *v.UID, true
}

// postTasks: validator n%V posts the workflow task, validator (n+1)%V the arena task.
func (g *generator) postTasks(ctx context.Context, r *round) {
	st := g.net.State
	type post struct {
		track string
		a     *actor
		msg   *subnetv1.Msg
	}
	var posts []post
	V := len(g.validators)
	if st.HasTrack(genesis.TrackWorkflow) {
		posts = append(posts, post{genesis.TrackWorkflow, g.validators[r.n%V], setup.WorkflowTask(roundWindows)})
	}
	if setup.ArenaRuns(st) {
		c := st.Arena.Categories[r.n%len(st.Arena.Categories)].Name
		d := st.Arena.Difficulties[r.n%len(st.Arena.Difficulties)].Name
		posts = append(posts, post{genesis.TrackArena, g.validators[(r.n+1)%V], setup.ArenaTask(c, d, roundWindows)})
	}
	// One goroutine per posting validator: an actor sends one transaction at a time.
	byActor := map[*actor][]post{}
	var order []*actor
	for _, p := range posts {
		if _, ok := byActor[p.a]; !ok {
			order = append(order, p.a)
		}
		byActor[p.a] = append(byActor[p.a], p)
	}
	var mu sync.Mutex
	each(order, func(_ int, a *actor) {
		for _, p := range byActor[a] {
			kind := "post-task/" + p.track
			res, ok := g.send(ctx, p.a, kind, p.msg)
			if !ok {
				continue
			}
			id, err := res.AttrU64(wire.EventTaskPosted, "task_id")
			if err != nil {
				g.fail(fmt.Errorf("%s: %w", kind, err))
				continue
			}
			g.commit(res, Record{Kind: kind, Sender: p.a.name, TaskID: id})
			mu.Lock()
			r.runs = append(r.runs, &taskRun{id: id, track: p.track, round: r.n})
			mu.Unlock()
		}
	})
	// Workflow first, whatever order the posts committed in: the miners commit in this order.
	slices.SortFunc(r.runs, func(a, b *taskRun) int { return trackOrder(a.track) - trackOrder(b.track) })
	g.mu.Lock()
	g.inflight = append(g.inflight, r.runs...)
	g.mu.Unlock()
}

func trackOrder(track string) int { return slices.Index(genesis.TrackNames, track) }

// payloadFor is honest miner i's payload for a task of the track.
func payloadFor(track string, miner int, task uint64) *subnetv1.MsgSubmit {
	if track == genesis.TrackArena {
		return setup.ArenaPayload(miner, task)
	}
	return setup.WorkflowPayload(miner, task)
}

// commitRound: every miner commits to the round's tasks and to its prediction of the round's
// EVM block; the adversary's miners copy and commit beside them.
func (g *generator) commitRound(ctx context.Context, r *round) {
	st := g.net.State
	gas := st.HasTrack(genesis.TrackGas) && len(st.Chain.GasChains) > 0
	if g.cp != nil {
		g.cp.commitOwn(ctx, r)
	}
	each(g.miners, func(i int, m *miner) {
		if !m.registered {
			return
		}
		for _, t := range r.runs {
			c := &commitment{payload: payloadFor(t.track, i, t.id), track: t.track, round: r.n, miner: i, task: t,
				kind: "reveal/" + t.track, side: sideHonest}
			g.cp.watch(ctx, i, c)
			t.committing()
			if _, err := g.commitTo(ctx, m, "commit/"+t.track, c); err != nil {
				g.fail(err)
				continue
			}
			g.cp.copyEarly(ctx, i, c)
		}
		if gas {
			c := &commitment{payload: gasPayload(st.Chain.GasChains[0], r.evmBlock, i, r.n), track: genesis.TrackGas, round: r.n, miner: i,
				kind: "reveal/" + genesis.TrackGas, side: sideHonest}
			g.cp.watch(ctx, i, c)
			if _, err := g.commitTo(ctx, m, "commit/"+genesis.TrackGas, c); err != nil {
				g.fail(err)
			}
		}
	})
	r.evmTime = evmTime(time.Now(), g.margin)
	if gas && g.cp != nil {
		r.late = g.cp.lateCommit(ctx, st.Chain.GasChains[0], r)
	}
}

// awaitLate waits (at most lateWait) for the adversary's late commit of the round.
func (r *round) awaitLate(ctx context.Context) {
	if r.late == nil {
		return
	}
	select {
	case <-r.late:
	case <-ctx.Done():
	case <-time.After(lateWait):
	}
}

// evmTime is the timestamp the honest truths give a round's EVM block: commit_margin_seconds
// and one second after now, once every prediction of the round is committed. Each of those
// (its block time at most now) counts; a commit sent after the block's time is late.
func evmTime(now time.Time, margin int64) int64 { return now.Unix() + margin + 1 }

// lateWait bounds how long the truths of a round wait for the adversary's late commit.
const lateWait = 30 * time.Second

// report: every validator reports each revealed submission whose task's reveal window has
// closed, then the truth of the round's EVM block (after the adversary's late commit for it,
// which must come before the truth closes the block). r nil: reports only.
func (g *generator) report(ctx context.Context, r *round) {
	st := g.net.State
	subs := g.readyReports(ctx)
	if g.adv != nil {
		g.adv.hold(subs)
	}
	gas := r != nil && st.HasTrack(genesis.TrackGas) && len(st.Chain.GasChains) > 0
	each(g.validators, func(v int, a *actor) {
		for _, s := range subs {
			if g.rec.isDuplicate(s.id) {
				continue // not measured: a duplicate is final with score 0
			}
			var msg *subnetv1.Msg
			switch s.track {
			case genesis.TrackWorkflow:
				msg = workflowReport(s.id, s.miner, v, s.round)
			case genesis.TrackArena:
				msg = arenaReport(s.id, s.miner, v, s.round)
			default:
				continue
			}
			kind := "report/" + s.track
			if res, ok := g.send(ctx, a, kind, msg); ok {
				g.commit(res, Record{Kind: kind, Sender: a.name, SubmissionID: s.id})
			}
		}
		if gas {
			r.awaitLate(ctx)
			if res, ok := g.send(ctx, a, "truth", truth(st.Chain.GasChains[0], r.evmBlock, r.n, r.evmTime)); ok {
				g.commit(res, Record{Kind: "truth", Sender: a.name})
			}
		}
	})
}

// readyReports takes the revealed submissions of every task whose reveal window has closed
// (with a block to spare: a report sent now lands after it even where CheckTx runs on a node
// a block behind) and whose report deadline has not passed; a task leaves the flight once
// none of its commits is open any more, or once its report deadline passed.
func (g *generator) readyReports(ctx context.Context) []submission {
	h, err := g.heights.get(ctx)
	if err != nil {
		return nil
	}
	g.mu.Lock()
	runs := slices.Clone(g.inflight)
	g.mu.Unlock()
	var out []submission
	finished := map[*taskRun]bool{}
	for _, t := range runs {
		th, ok := g.win.task(ctx, t.id)
		if !ok || h <= th.reveal.until {
			continue
		}
		subs, open := t.take()
		if h+1 > th.reportDeadline {
			if len(subs) > 0 {
				g.logf("task %d: report deadline %d passed before %d revealed submissions were reported", t.id, th.reportDeadline, len(subs))
			}
			finished[t] = true
			continue
		}
		out = append(out, subs...)
		if open <= 0 {
			finished[t] = true
		}
	}
	g.mu.Lock()
	g.inflight = slices.DeleteFunc(g.inflight, func(t *taskRun) bool { return finished[t] })
	g.mu.Unlock()
	return out
}

// drainPoll is how often the drain looks for reports to send.
const drainPoll = 500 * time.Millisecond

// drain: no new round; the commits in flight are revealed and the revealed submissions
// reported, until nothing is in flight or --drain has passed.
func (g *generator) drain(ctx context.Context) {
	deadline := time.Now().Add(g.o.drain)
	if h, err := g.heights.get(ctx); err == nil {
		g.win.noMoreTruths(h, g.net.State.Chain.TruthReportBlocks)
	}
	for ctx.Err() == nil && time.Now().Before(deadline) && g.busy() {
		g.report(ctx, nil)
		select {
		case <-ctx.Done():
		case <-time.After(drainPoll):
		}
	}
	if commits, tasks := g.inFlight(); commits+tasks > 0 && ctx.Err() == nil {
		g.logf("drain: %d commits and %d tasks still in flight after %s", commits, tasks, g.o.drain)
	}
}

func (g *generator) busy() bool {
	commits, tasks := g.inFlight()
	return commits+tasks > 0 || g.cp.busy()
}

// inFlight counts the commits not yet revealed or given up and the tasks not yet reported.
func (g *generator) inFlight() (commits, tasks int) {
	for _, m := range g.allMiners() {
		commits += len(m.pending())
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return commits, len(g.inflight)
}

// each runs f for every element concurrently (each actor stays serial) and waits.
func each[T any](xs []T, f func(i int, x T)) {
	var wg sync.WaitGroup
	for i, x := range xs {
		wg.Go(func() { f(i, x) })
	}
	wg.Wait()
}

// send is actor.send that reports failures and says whether the transaction committed.
func (g *generator) send(ctx context.Context, a *actor, kind string, msg *subnetv1.Msg) (client.TxResult, bool) {
	res, err := a.send(ctx, kind, msg)
	if err != nil {
		g.fail(err)
		return client.TxResult{}, false
	}
	return res, true
}

// fail reports a transaction that did not commit; the load goes on.
func (g *generator) fail(err error) {
	if errors.Is(err, context.Canceled) {
		return
	}
	if errors.Is(err, errUncertain) {
		g.rec.uncertain()
	}
	fmt.Fprintln(os.Stderr, "loadgen:", err)
}

func (g *generator) logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "loadgen: "+format+"\n", args...)
}

// commit records a committed transaction with its hash and height.
func (g *generator) commit(res client.TxResult, rec Record) {
	rec.Hash = res.Hash
	rec.Height = res.Height
	if err := g.rec.committed(rec); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen: write record:", err)
	}
}
