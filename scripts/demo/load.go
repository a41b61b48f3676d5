package main

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/keyfile"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// The load of one demo run.
const (
	workflowTasks    = 2
	workflowSteps    = 5
	arenaCriteria    = 10
	gasFirstBlock    = 20_000_000
	submissionBlocks = 60
	reportBlocks     = 200
)

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
	vkey, err := keyfile.Load(home, keyfile.ReportKeyName)
	if err != nil {
		return err
	}
	val := newActor(c, "validator", vkey)
	miners := make([]*actor, nMiners)
	for i := range miners {
		seed := sha256.Sum256([]byte("validatord demo miner " + strconv.Itoa(i)))
		miners[i] = newActor(c, fmt.Sprintf("miner%d", i), ed25519.NewKeyFromSeed(seed[:]))
	}
	tasks, err := setup(ctx, out, p, val, miners)
	if err != nil {
		return err
	}
	subs, err := submitAll(ctx, out, miners, tasks)
	if err != nil {
		return err
	}
	if err := reportAll(ctx, out, val, subs); err != nil {
		return err
	}
	if err := gasRounds(ctx, out, p, val, miners); err != nil {
		return err
	}
	return printResults(ctx, out, c, p)
}

// demoTasks are the ids of the posted tasks.
type demoTasks struct {
	workflow []uint64
	arena    []uint64
}

// setup registers the miners, in order so that miner i gets the i-th uid,
// while the validator posts the tasks.
func setup(ctx context.Context, out io.Writer, p plan, val *actor, miners []*actor) (demoTasks, error) {
	var tasks demoTasks
	post := func() error {
		var msgs []*subnetv1.Msg
		for i := 0; p.workflow && i < workflowTasks; i++ {
			msgs = append(msgs, workflowTaskMsg())
		}
		if p.arena {
			msgs = append(msgs, arenaTaskMsg(p.category, p.difficulty))
		}
		res, err := val.send(ctx, "post-task", msgs...)
		if err != nil {
			return err
		}
		for _, r := range res {
			id, err := r.AttrU64(wire.EventTaskPosted, "task_id")
			if err != nil {
				return err
			}
			if track, _ := r.Attr(wire.EventTaskPosted, "track"); track == "arena" {
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
			h, err := m.broadcast(ctx, "register-miner", client.RegisterMiner())
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
			uid, ok := res.Attr(wire.EventMinerRegistered, "uid")
			if !ok {
				return fmt.Errorf("%s: register-miner: no uid in the result's events", m.name)
			}
			m.name = fmt.Sprintf("%s (uid %s)", m.name, uid)
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

// demoSubs are the submissions to report on, per miner index.
type demoSubs struct {
	workflow [][]uint64 // [miner][task]
	arena    [][]uint64 // [miner][task]
}

// submitAll: every miner submits to every task.
func submitAll(ctx context.Context, out io.Writer, miners []*actor, tasks demoTasks) (demoSubs, error) {
	subs := demoSubs{workflow: make([][]uint64, len(miners)), arena: make([][]uint64, len(miners))}
	jobs := make([]func() error, len(miners))
	for i, m := range miners {
		jobs[i] = func() error {
			var msgs []*subnetv1.Msg
			for _, t := range tasks.workflow {
				msgs = append(msgs, workflowSubmitMsg(i, t))
			}
			for _, t := range tasks.arena {
				msgs = append(msgs, arenaSubmitMsg(i, t))
			}
			res, err := m.send(ctx, "submit", msgs...)
			if err != nil {
				return err
			}
			for k, r := range res[:len(tasks.workflow)+len(tasks.arena)] {
				id, err := r.AttrU64(wire.EventSubmissionAdded, "submission_id")
				if err != nil {
					return err
				}
				if k < len(tasks.workflow) {
					subs.workflow[i] = append(subs.workflow[i], id)
				} else {
					subs.arena[i] = append(subs.arena[i], id)
				}
			}
			return nil
		}
	}
	if err := parallel(jobs); err != nil {
		return demoSubs{}, err
	}
	fmt.Fprintf(out, "miners sent %d workflow submissions, %d arena runs\n",
		len(miners)*len(tasks.workflow), len(miners)*len(tasks.arena))
	return subs, nil
}

// reportAll: the validator measures every submission.
func reportAll(ctx context.Context, out io.Writer, val *actor, subs demoSubs) error {
	var msgs []*subnetv1.Msg
	for i := range subs.workflow {
		for _, id := range subs.workflow[i] {
			msgs = append(msgs, workflowReport(id, i))
		}
		for _, id := range subs.arena[i] {
			msgs = append(msgs, arenaReport(id, i))
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	if _, err := val.send(ctx, "report", msgs...); err != nil {
		return err
	}
	fmt.Fprintf(out, "validator reported %d measurements\n", len(msgs))
	return nil
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
