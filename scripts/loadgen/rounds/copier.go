package rounds

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
)

// copiers are the adversary's two miners, beside its validator: they try to profit from other
// miners' work under commit-reveal (docs/commit-reveal.md §1, §5, §7), and each attempt must be
// refused or score 0.
//   - early copies honest miner 0's artifacts, which it knows before any reveal (leaked, or
//     guessed), by committing them after miner 0's commit: the earlier commit keeps the
//     artifact and the copy is a duplicate, score 0. Each round it also commits a gas
//     prediction after the EVM block's time, at the truth's price: late, never counted.
//   - watcher commits its own artifacts and reveals each first with a wrong salt (50); every
//     other round it then never reveals them (unrevealed). Once it sees the last honest miner's
//     reveal it commits the same artifact or price for the same target: refused, since nothing
//     is revealed while the target still takes commits (27 for a task, 33 for an EVM block).
type copiers struct {
	g              *generator
	early, watcher *miner

	running sync.WaitGroup
	busyN   sync.Mutex
	n       int // attempts under way

	mu     sync.Mutex
	checks []copyCheck
}

// copyCheck is a submission whose final status must be want.
type copyCheck struct {
	sub  uint64
	want string // statusDuplicate or statusLate
}

const (
	statusDuplicate = "duplicate"
	statusLate      = "late"
)

// lateAfter is how long after the EVM block's timestamp T the late commit is sent. Its
// block's time (BFT time: at most one block interval Δ before the send, truncated to seconds)
// is then at least T + lateAfter − Δ − 1, and the commit is late (block time + margin > T)
// whenever lateAfter > Δ + 1 − margin: with the default margin of 2 s, for blocks up to 2 s
// apart.
const lateAfter = time.Second

func newCopiers(g *generator) *copiers {
	limit := newLimiter(g.o.adv.rate)
	return &copiers{g: g,
		early:   g.newMiner("copier0", g.o.seed+"/adversary/copier/0", limit),
		watcher: g.newMiner("copier1", g.o.seed+"/adversary/copier/1", limit)}
}

func (cp *copiers) miners() []*miner { return []*miner{cp.early, cp.watcher} }

func (cp *copiers) owns(m *miner) bool { return cp != nil && (m == cp.early || m == cp.watcher) }

// spawn runs f in its own goroutine, counted as under way until it returns.
func (cp *copiers) spawn(f func()) {
	cp.busyN.Lock()
	cp.n++
	cp.busyN.Unlock()
	cp.running.Go(func() {
		defer func() {
			cp.busyN.Lock()
			cp.n--
			cp.busyN.Unlock()
		}()
		f()
	})
}

func (cp *copiers) busy() bool {
	if cp == nil {
		return false
	}
	cp.busyN.Lock()
	defer cp.busyN.Unlock()
	return cp.n > 0
}

func (cp *copiers) check(sub uint64, want string) {
	cp.mu.Lock()
	cp.checks = append(cp.checks, copyCheck{sub, want})
	cp.mu.Unlock()
}

// watch makes the watcher copy honest miner i's commitment c once it is revealed, when i is
// the last honest miner.
func (cp *copiers) watch(ctx context.Context, i int, c *commitment) {
	if cp == nil || i != len(cp.g.miners)-1 {
		return
	}
	c.onReveal = func(c *commitment) { cp.spawn(func() { cp.afterReveal(ctx, c) }) }
}

// afterReveal commits c's revealed payload as the watcher's own.
func (cp *copiers) afterReveal(ctx context.Context, c *commitment) {
	m := cp.watcher
	if !m.registered {
		return
	}
	cc := &commitment{payload: c.payload, track: c.track, round: c.round, miner: -1, kind: "adversary/copy-reveal", side: sideAdversary}
	sub, err := cp.g.commitTo(ctx, m, "adversary/copy-after-reveal", cc)
	code, refused := refusedWith(err)
	if err != nil && !refused {
		cp.g.fail(err)
		return
	}
	cp.g.rec.copies(func(n *copyCounts) {
		n.AfterReveal++
		if refused {
			n.AfterRevealRefused[fmt.Sprintf("%d %s", code, wire.CodeName(code))]++
		} else {
			n.AfterRevealAccepted++
		}
	})
	if err == nil {
		cp.g.logf("%s: a commit after the reveal it copies was taken (submission %d)", m.name, sub)
		if c.track != genesis.TrackGas {
			cp.check(sub, statusDuplicate)
		}
	}
}

// copyEarly makes the early copier commit honest miner 0's commitment c (just seen committed)
// as its own.
func (cp *copiers) copyEarly(ctx context.Context, i int, c *commitment) {
	if cp == nil || i != 0 || !cp.early.registered {
		return
	}
	cp.spawn(func() {
		cc := &commitment{payload: c.payload, track: c.track, round: c.round, miner: -1, kind: "adversary/copy-reveal", side: sideAdversary}
		sub, err := cp.g.commitTo(ctx, cp.early, "adversary/copy", cc)
		if err != nil {
			cp.g.fail(err)
			return
		}
		cp.g.rec.copies(func(c *copyCounts) { c.Early++ })
		cp.check(sub, statusDuplicate)
	})
}

// commitOwn makes the watcher commit its own artifacts for the round's tasks, to be revealed
// with a wrong salt first, and not at all in odd rounds.
func (cp *copiers) commitOwn(ctx context.Context, r *round) {
	if cp == nil || !cp.watcher.registered {
		return
	}
	runs := r.runs
	cp.spawn(func() {
		for _, t := range runs {
			payload := client.WorkflowPayload(t.id, client.ArtifactHash("copier1", t.id))
			if t.track == genesis.TrackArena {
				payload = client.ArenaPayload(t.id, client.ArtifactHash("copier1", t.id))
			}
			c := &commitment{payload: payload, track: t.track, round: r.n, miner: -1, kind: "adversary/reveal", side: sideAdversary,
				wrongSalt: true, withhold: r.n%2 == 1}
			if _, err := cp.g.commitTo(ctx, cp.watcher, "adversary/commit", c); err != nil {
				cp.g.fail(err)
			}
		}
	})
}

// lateCommit makes the early copier commit, lateAfter past the round's EVM block time, a
// prediction of that block at the price its truths will state; the returned channel is
// closed once the commit is done (the truths wait for it: after them the block is closed).
func (cp *copiers) lateCommit(ctx context.Context, chain uint64, r *round) <-chan struct{} {
	done := make(chan struct{})
	if cp == nil || !cp.early.registered {
		close(done)
		return done
	}
	cp.spawn(func() {
		defer close(done)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Until(time.Unix(r.evmTime, 0).Add(lateAfter))):
		}
		c := &commitment{payload: client.GasPayload(chain, r.evmBlock, truthPrice(r.n)), track: genesis.TrackGas, round: r.n, miner: -1,
			kind: "adversary/late-reveal", side: sideAdversary}
		sub, err := cp.g.commitTo(ctx, cp.early, "adversary/late-commit", c)
		if err != nil {
			cp.g.fail(err)
			return
		}
		cp.g.rec.copies(func(c *copyCounts) { c.Late++ })
		cp.check(sub, statusLate)
	})
	return done
}

// verifyWait bounds how long verify waits for the verdicts (a gas close comes at the end of
// its reveal window).
const verifyWait = 60 * time.Second

// verify waits for the attempts under way, then reads each copy's and late commit's final
// status from the chain: a copy must be a duplicate with score 0, a late commit late.
func (cp *copiers) verify(ctx context.Context) {
	cp.running.Wait()
	cp.mu.Lock()
	checks := cp.checks
	cp.mu.Unlock()
	deadline := time.Now().Add(verifyWait)
	for _, c := range checks {
		verdict, ok := cp.verdict(ctx, c, deadline)
		cp.g.rec.copies(func(n *copyCounts) {
			switch {
			case !ok:
				n.Unchecked++
			case c.want == statusDuplicate && verdict:
				n.EarlyDuplicate++
			case c.want == statusDuplicate:
				n.EarlyKept++
			case verdict:
				n.LateFound++
			}
		})
		if ok && !verdict {
			cp.g.logf("submission %d: not %s", c.sub, c.want)
		}
	}
}

// verdict polls submission/<id> until its status is final for the check (a duplicate's is
// final once revealed, a gas prediction's at its close) or the deadline: whether it is what
// the check wants, and whether a final status was seen.
func (cp *copiers) verdict(ctx context.Context, c copyCheck, deadline time.Time) (want, ok bool) {
	for {
		var v wire.SubmissionView
		found, err := cp.g.pool.query(ctx, fmt.Sprintf("submission/%d", c.sub), &v)
		if err == nil && found {
			switch {
			case v.Status == "committed", c.want == statusLate && v.Status == "pending":
			case c.want == statusDuplicate:
				return v.Status == statusDuplicate && v.Duplicate && v.Receipt != nil && zeroScore(v.Receipt.Score), true
			default:
				return v.Status == statusLate, true
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return false, false
		}
		select {
		case <-ctx.Done():
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func zeroScore(s string) bool {
	d, err := decimal.NewFromString(s)
	return err == nil && d.IsZero()
}
