package demo

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/keyfile"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

// The load of one demo run.
const (
	workflowTasks = 2
	gasFirstBlock = 20_000_000
)

// demoWindows are the tasks' windows: the miners commit within a block or two
// of the post, and reveals open only after the commit window.
var demoWindows = setup.Windows{Submission: 10, Report: 200}

// run drives the load and prints the results.
func run(ctx context.Context, out io.Writer, home, node string, nMiners int) error {
	p, err := loadPlan(home)
	if err != nil {
		return err
	}
	c, err := connect(ctx, node)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "chain %s at %s, tracks %v\n", c.id, node, p.tracks())
	fmt.Fprintf(out, "commit-reveal: a miner commits to a hash of its payload, then reveals payload and salt in the reveal window (%s)\n", p.revealWindows())
	vkey, err := keyfile.Load(home, keyfile.ReportKeyName)
	if err != nil {
		return err
	}
	val := newActor(c, "validator", vkey)
	miners := make([]*actor, nMiners)
	for i := range miners {
		miners[i] = newActor(c, fmt.Sprintf("miner%d", i), setup.Key("validatord demo miner "+strconv.Itoa(i)))
	}
	tasks, err := registerAndPost(ctx, out, p, val, miners)
	if err != nil {
		return err
	}
	tc, err := commitTasks(ctx, out, c, miners, tasks)
	if err != nil {
		return err
	}
	if err := revealTasks(ctx, out, c, miners, tc); err != nil {
		return err
	}
	if err := reportAll(ctx, out, c, val, tc); err != nil {
		return err
	}
	gc, err := gasRounds(ctx, out, p, val, miners)
	if err != nil {
		return err
	}
	ex := examples{{"miner0's first workflow submission", first(tc.byMiner[0])}, {"the copy", tc.copy}, {"miner0's first gas prediction", gc}}
	return printResults(ctx, out, c, p, ex)
}

func first(cs []*commitment) *commitment {
	if len(cs) == 0 {
		return nil
	}
	return cs[0]
}

// demoTasks are the ids of the posted tasks.
type demoTasks struct {
	workflow []uint64
	arena    []uint64
}

// registerAndPost registers the miners, in order so that miner i gets the i-th uid,
// while the validator posts the tasks.
func registerAndPost(ctx context.Context, out io.Writer, p plan, val *actor, miners []*actor) (demoTasks, error) {
	var tasks demoTasks
	post := func() error {
		var msgs []*subnetv1.Msg
		for i := 0; p.workflow && i < workflowTasks; i++ {
			msgs = append(msgs, setup.WorkflowTask(demoWindows))
		}
		if p.arena {
			msgs = append(msgs, setup.ArenaTask(p.category, p.difficulty, demoWindows))
		}
		res, err := val.send(ctx, "post-task", msgs...)
		if err != nil {
			return err
		}
		for _, r := range res {
			id, track, err := setup.TaskPosted(r)
			if err != nil {
				return err
			}
			if track == genesis.TrackArena {
				tasks.arena = append(tasks.arena, id)
			} else {
				tasks.workflow = append(tasks.workflow, id)
			}
		}
		return nil
	}
	register := func() error {
		hashes := make([]string, len(miners))
		for i, m := range miners {
			msg, err := client.RegisterWork(ctx, m.c, m.c.id, m.s.PubKey(), nil)
			if err != nil {
				return fmt.Errorf("%s: register-miner: the work: %w", m.name, err)
			}
			h, err := m.broadcast(ctx, "register-miner", msg)
			if err != nil {
				return err
			}
			hashes[i] = h
		}
		for i, m := range miners {
			res, err := m.wait(ctx, "register-miner", hashes[i])
			if err != nil {
				return err
			}
			uid, err := res.AttrU64(wire.EventMinerRegistered, "uid")
			if err != nil {
				return fmt.Errorf("%s: register-miner: %w", m.name, err)
			}
			m.uid = uint32(uid)
			m.name = fmt.Sprintf("%s (uid %d)", m.name, uid)
		}
		return nil
	}
	if err := parallel([]func() error{post, register}); err != nil {
		return demoTasks{}, err
	}
	names := make([]string, len(miners))
	for i, m := range miners {
		names[i] = m.name
	}
	fmt.Fprintf(out, "registered %s\nposted workflow tasks %v, arena tasks %v\n", strings.Join(names, ", "), tasks.workflow, tasks.arena)
	return tasks, nil
}

// taskCommits are the demo's task commitments: per miner, in task order
// (workflow tasks, then arena), and the copy.
type taskCommits struct {
	tasks   demoTasks
	byMiner [][]*commitment
	// copy: the last miner commits miner 0's artifact for the last workflow
	// task (after miner 0's commit) instead of its own; nil with one miner.
	copy *commitment
	// the tasks' windows (task/<id>): commits up to submitDeadline, reveals
	// up to revealDeadline
	submitDeadline, revealDeadline int64
}

// commitTasks: every miner commits to every task, keeping each payload and
// its salt in memory; then the last miner commits a copy of miner 0's
// artifact for the last workflow task.
func commitTasks(ctx context.Context, out io.Writer, c *chain, miners []*actor, tasks demoTasks) (*taskCommits, error) {
	tc := &taskCommits{tasks: tasks, byMiner: make([][]*commitment, len(miners))}
	last := len(miners) - 1
	copying := last > 0 && len(tasks.workflow) > 0
	jobs := make([]func() error, len(miners))
	for i, m := range miners {
		jobs[i] = func() error {
			var payloads []*subnetv1.MsgSubmit
			for k, t := range tasks.workflow {
				if copying && i == last && k == len(tasks.workflow)-1 {
					continue
				}
				payloads = append(payloads, setup.WorkflowPayload(i, t))
			}
			for _, t := range tasks.arena {
				payloads = append(payloads, setup.ArenaPayload(i, t))
			}
			cs, err := commit(ctx, m, payloads)
			tc.byMiner[i] = cs
			return err
		}
	}
	if err := parallel(jobs); err != nil {
		return nil, err
	}
	n, lo, hi := 0, int64(0), int64(0)
	for _, cs := range tc.byMiner {
		for _, cm := range cs {
			n++
			lo, hi = minNonZero(lo, cm.commitHeight), max(hi, cm.commitHeight)
		}
	}
	for _, id := range append(slices.Clone(tasks.workflow), tasks.arena...) {
		t, err := c.Task(ctx, id)
		if err != nil {
			return nil, err
		}
		tc.submitDeadline, tc.revealDeadline = max(tc.submitDeadline, t.SubmitDeadline), minNonZero(tc.revealDeadline, t.RevealDeadline)
	}
	fmt.Fprintf(out, "miners committed %d workflow submissions and %d arena runs at %s (commits close at height %d)\n",
		len(miners)*len(tasks.workflow)-b2i(copying), len(miners)*len(tasks.arena), heights(lo, hi), tc.submitDeadline)
	if copying {
		orig := tc.byMiner[0][len(tasks.workflow)-1]
		cs, err := commit(ctx, miners[last], []*subnetv1.MsgSubmit{orig.payload})
		if err != nil {
			return nil, err
		}
		tc.copy = cs[0]
		fmt.Fprintf(out, "%s copies miner0's artifact for workflow task %d: its commit at height %d comes after miner0's at height %d\n",
			miners[last].name, tasks.workflow[len(tasks.workflow)-1], tc.copy.commitHeight, orig.commitHeight)
	}
	return tc, nil
}

// revealTasks waits until the tasks' commit windows have closed, then every
// miner reveals what it committed to (the copy too).
func revealTasks(ctx context.Context, out io.Writer, c *chain, miners []*actor, tc *taskCommits) error {
	if tc.submitDeadline >= tc.revealDeadline {
		return fmt.Errorf("the tasks' reveal windows do not overlap (commits close at %d, the first reveal window ends at %d)", tc.submitDeadline, tc.revealDeadline)
	}
	if err := c.waitPast(ctx, tc.submitDeadline); err != nil {
		return err
	}
	jobs := make([]func() error, len(miners))
	for i, m := range miners {
		jobs[i] = func() error {
			cs := tc.byMiner[i]
			if tc.copy != nil && tc.copy.m == m {
				cs = append(slices.Clone(cs), tc.copy)
			}
			return reveal(ctx, m, cs)
		}
	}
	if err := parallel(jobs); err != nil {
		return err
	}
	lo, hi := int64(0), int64(0)
	for _, cs := range tc.byMiner {
		for _, cm := range cs {
			lo, hi = minNonZero(lo, cm.revealHeight), max(hi, cm.revealHeight)
		}
	}
	fmt.Fprintf(out, "miners revealed them at %s (reveal windows: the blocks after the commit window, up to height %d)\n", heights(lo, hi), tc.revealDeadline)
	if cp := tc.copy; cp != nil {
		v, err := c.Submission(ctx, cp.sub)
		if err != nil {
			return err
		}
		verdict := "it kept the artifact"
		if v.Duplicate && v.DuplicateOfUID != nil && v.DuplicateOfHeight != nil {
			verdict = fmt.Sprintf("uid %d's commit (height %d) revealed the same artifact first, so the copy scores 0 and is never measured",
				*v.DuplicateOfUID, *v.DuplicateOfHeight)
		}
		fmt.Fprintf(out, "%s's copy (submission %d), revealed at height %d, has status %s: %s\n", cp.m.name, cp.sub, cp.revealHeight, v.Status, verdict)
	}
	return nil
}

// reportAll: once the reveal windows have closed, the validator measures
// every revealed submission but the copy (a duplicate is final, never
// measured).
func reportAll(ctx context.Context, out io.Writer, c *chain, val *actor, tc *taskCommits) error {
	var msgs []*subnetv1.Msg
	for i, cs := range tc.byMiner {
		for _, cm := range cs {
			if cm.payload.GetWorkflow() != nil {
				msgs = append(msgs, workflowReport(cm.sub, i))
			} else {
				msgs = append(msgs, arenaReport(cm.sub, i))
			}
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	if err := c.waitPast(ctx, tc.revealDeadline); err != nil {
		return err
	}
	res, err := val.send(ctx, "report", msgs...)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "validator reported %d measurements at height %d (reports open after the reveal windows)\n", len(msgs), res[0].Height)
	return nil
}

func minNonZero(a, b int64) int64 {
	if a == 0 || b != 0 && b < a {
		return b
	}
	return a
}

// heights is "height 7" or "heights 7-9".
func heights(lo, hi int64) string {
	if lo == hi {
		return fmt.Sprintf("height %d", lo)
	}
	return fmt.Sprintf("heights %d-%d", lo, hi)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// parallel runs jobs at once and returns the first error.
func parallel(jobs []func() error) error {
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = j()
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
