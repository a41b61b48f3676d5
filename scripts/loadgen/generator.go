package main

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// generator runs rounds until the duration is over. A round: validators post a workflow and
// an arena task; every miner submits to both and predicts the gas price of the round's EVM
// block; every validator reports every submission of the round and the block's truth.
type generator struct {
	o       options
	net     *testnet
	pool    *pool
	rec     *recorder
	limit   *limiter
	elapsed time.Duration

	validators []*actor // the honest ones: every validator but the adversary
	miners     []*actor
	adv        *adversary // nil unless --adversary
	// closed is the last EVM block whose round's truths the honest validators sent.
	closed atomic.Uint64
}

// round is what one round's phases hand to the next.
type round struct {
	n        int
	tasks    map[string]uint64 // track → task id posted this round
	mu       sync.Mutex
	subs     []submission
	evmBlock uint64
}

type submission struct {
	id    uint64
	miner int
	track string
}

func (g *generator) run(ctx context.Context) error {
	start := time.Now()
	defer func() { g.elapsed = time.Since(start) }()
	for i, k := range g.net.reportKeys {
		if i != g.o.adv.validator {
			g.validators = append(g.validators, &actor{name: fmt.Sprintf("validator%d", i), s: client.NewSigner(g.pool, g.net.chainID, k), g: g})
		}
	}
	for i := 0; i < g.o.miners; i++ {
		seed := sha256.Sum256([]byte(fmt.Sprintf("%s/miner/%d", g.o.seed, i)))
		key := ed25519.NewKeyFromSeed(seed[:])
		g.miners = append(g.miners, &actor{name: fmt.Sprintf("miner%d", i), s: client.NewSigner(g.pool, g.net.chainID, key), g: g})
	}
	evmBase := uint64(start.Unix())
	g.anchor(ctx, evmBase-1)
	g.closed.Store(evmBase - 1)
	var attack sync.WaitGroup
	if g.adv != nil {
		attack.Go(func() { g.adv.run(ctx) })
	}
	for n := 0; time.Since(start) < g.o.duration && ctx.Err() == nil; n++ {
		r := &round{n: n, tasks: map[string]uint64{}, evmBlock: evmBase + uint64(n)}
		g.register(ctx)
		g.postTasks(ctx, r)
		g.submit(ctx, r)
		g.report(ctx, r)
		g.closed.Store(r.evmBlock)
	}
	attack.Wait()
	return nil
}

// anchor: every validator reports the truth of EVM block `block`, the one
// before the first round's, so that the gas chain has a closed block: a chain
// takes predictions only from then on, and only within max_prediction_ahead
// blocks of its last closed one (one round ahead here). On a chain already
// past that block (code 33) there is nothing to anchor.
func (g *generator) anchor(ctx context.Context, block uint64) {
	st := g.net.state
	if !st.HasTrack(genesis.TrackGas) || len(st.Chain.GasChains) == 0 {
		return
	}
	ts := time.Now().Unix()
	g.each(g.validators, func(_ int, a *actor) {
		res, err := a.send(ctx, "truth", truth(st.Chain.GasChains[0], block, 0, ts))
		var rej *rejection
		switch {
		case err == nil:
			g.commit(res, Record{Kind: "truth", Sender: a.name})
		case errors.As(err, &rej) && rej.code == wire.CodeEVMBlockClosed:
		default:
			g.fail(err)
		}
	})
}

// register registers every miner not yet known to be registered; a miner whose
// registration was lost (a node killed with it in its mempool) tries again next round.
func (g *generator) register(ctx context.Context) {
	var todo []*actor
	for _, a := range g.miners {
		if !a.registered {
			todo = append(todo, a)
		}
	}
	g.each(todo, func(_ int, a *actor) {
		res, err := a.send(ctx, "register-miner", client.RegisterMiner())
		var rej *rejection
		switch {
		case err == nil:
			a.registered = true
			uid, _ := res.AttrU64(wire.EventMinerRegistered, "uid")
			g.commit(res, Record{Kind: "register-miner", Sender: a.name, UID: uid})
		case errors.As(err, &rej) && rej.code == wire.CodeAlreadyMiner:
			a.registered = true
		default:
			g.fail(err)
		}
	})
}

// postTasks: validator n%V posts the workflow task, validator (n+1)%V the arena task.
func (g *generator) postTasks(ctx context.Context, r *round) {
	st := g.net.state
	type post struct {
		track string
		a     *actor
		msg   *subnetv1.Msg
	}
	var posts []post
	V := len(g.validators)
	if st.HasTrack(genesis.TrackWorkflow) {
		posts = append(posts, post{genesis.TrackWorkflow, g.validators[r.n%V], workflowTask()})
	}
	if st.HasTrack(genesis.TrackArena) && len(st.Arena.Categories) > 0 && len(st.Arena.Difficulties) > 0 {
		c := st.Arena.Categories[r.n%len(st.Arena.Categories)].Name
		d := st.Arena.Difficulties[r.n%len(st.Arena.Difficulties)].Name
		posts = append(posts, post{genesis.TrackArena, g.validators[(r.n+1)%V], arenaTask(c, d)})
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
	g.each(order, func(_ int, a *actor) {
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
			r.mu.Lock()
			r.tasks[p.track] = id
			r.mu.Unlock()
		}
	})
}

// submit: every miner submits to the round's tasks and predicts the round's EVM block.
func (g *generator) submit(ctx context.Context, r *round) {
	st := g.net.state
	g.each(g.miners, func(i int, a *actor) {
		var msgs []submission
		if id, ok := r.tasks[genesis.TrackWorkflow]; ok {
			msgs = append(msgs, submission{id: id, miner: i, track: genesis.TrackWorkflow})
		}
		if id, ok := r.tasks[genesis.TrackArena]; ok {
			msgs = append(msgs, submission{id: id, miner: i, track: genesis.TrackArena})
		}
		if st.HasTrack(genesis.TrackGas) && len(st.Chain.GasChains) > 0 {
			msgs = append(msgs, submission{miner: i, track: genesis.TrackGas})
		}
		for _, s := range msgs {
			var msg *subnetv1.Msg
			switch s.track {
			case genesis.TrackWorkflow:
				msg = workflowSubmit(i, s.id)
			case genesis.TrackArena:
				msg = arenaSubmit(i, s.id)
			default:
				msg = gasPredict(st.Chain.GasChains[0], r.evmBlock, i, r.n)
			}
			kind := "submit/" + s.track
			res, ok := g.send(ctx, a, kind, msg)
			if !ok {
				continue
			}
			sub, err := res.AttrU64(wire.EventSubmissionAdded, "submission_id")
			if err != nil {
				g.fail(fmt.Errorf("%s: %w", kind, err))
				continue
			}
			rec := Record{Kind: kind, Sender: a.name, SubmissionID: sub}
			if s.track != genesis.TrackGas {
				rec.TaskID = s.id
			}
			g.commit(res, rec)
			r.mu.Lock()
			r.subs = append(r.subs, submission{id: sub, miner: i, track: s.track})
			r.mu.Unlock()
		}
	})
}

// report: every validator reports each workflow and arena submission of the round, then
// the truth of the round's EVM block (timestamped a minute ahead, so that the round's
// predictions, included before it, count).
func (g *generator) report(ctx context.Context, r *round) {
	st := g.net.state
	ts := time.Now().Unix() + 60
	if g.adv != nil {
		g.adv.hold(r.n, r.subs)
	}
	g.each(g.validators, func(v int, a *actor) {
		for _, s := range r.subs {
			var msg *subnetv1.Msg
			switch s.track {
			case genesis.TrackWorkflow:
				msg = workflowReport(s.id, s.miner, v, r.n)
			case genesis.TrackArena:
				msg = arenaReport(s.id, s.miner, v, r.n)
			default:
				continue
			}
			kind := "report/" + s.track
			if res, ok := g.send(ctx, a, kind, msg); ok {
				g.commit(res, Record{Kind: kind, Sender: a.name, SubmissionID: s.id})
			}
		}
		if st.HasTrack(genesis.TrackGas) && len(st.Chain.GasChains) > 0 {
			if res, ok := g.send(ctx, a, "truth", truth(st.Chain.GasChains[0], r.evmBlock, r.n, ts)); ok {
				g.commit(res, Record{Kind: "truth", Sender: a.name})
			}
		}
	})
}

// each runs f for every actor concurrently (each actor stays serial) and waits.
func (g *generator) each(actors []*actor, f func(i int, a *actor)) {
	var wg sync.WaitGroup
	for i, a := range actors {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(i, a)
		}()
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

// commit records a committed transaction with its hash and height.
func (g *generator) commit(res client.TxResult, rec Record) {
	rec.Hash = res.Hash
	rec.Height = res.Height
	if err := g.rec.committed(rec); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen: write record:", err)
	}
}
