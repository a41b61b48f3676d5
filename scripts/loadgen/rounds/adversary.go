package rounds

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"iter"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

// adversaryOptions are the command line of the adversary mode (--adversary and its flags).
type adversaryOptions struct {
	validator int           // index of the validator whose report key it signs with; -1: off
	duration  time.Duration // how long it attacks (0: as long as the honest load)
	rate      float64       // its own transactions per second, beside the honest --rate
	tasks     int           // tasks per flood burst
	lead      int64         // blocks from the current height to a new stacked deadline
	wait      time.Duration // how long a burst's blocks are waited for
}

// adversary is one validator below 1/3 of the power sending the attack sequences (adversary_plan.go) beside
// the honest load: task floods stacked on one report deadline up to chain.max_open_tasks
// (then 43), truth floods past the gas window (44), stamped in the future (45) and opening
// rounds up to its cap (46), and its reports on the honest miners' submissions held back and
// released in one burst. Every refusal is counted by code; none is an error.
type adversary struct {
	o      adversaryOptions
	st     genesis.AppState
	b      *burster
	height func(ctx context.Context) (int64, error)
	// closed is the last EVM block the honest generator closed (or is closing the next).
	closed func() uint64
	index  int // the adversary's validator index, for its reports' values
	// deadline is the report deadline its task floods stack on (run's goroutine only).
	deadline int64

	mu   sync.Mutex
	held []submission
}

// maxHeld bounds the reports held back (the oldest are dropped past it).
const maxHeld = 4096

// hold queues reports on the workflow and arena submissions the honest validators report now
// (their reveal windows have closed), to be released at once.
func (a *adversary) hold(subs []submission) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, s := range subs {
		if s.track == genesis.TrackWorkflow || s.track == genesis.TrackArena {
			a.held = append(a.held, s)
		}
	}
	if len(a.held) > maxHeld {
		a.held = append([]submission(nil), a.held[len(a.held)-maxHeld:]...)
	}
}

// run attacks until its duration is over, a burst at a time, releasing the held reports
// between bursts; a pause after each cycle keeps a cycle of refusals from spinning.
func (a *adversary) run(ctx context.Context) {
	start := time.Now()
	for time.Since(start) < a.o.duration && ctx.Err() == nil {
		a.floodTasks(ctx)
		a.release(ctx)
		a.floodTruths(ctx)
		a.release(ctx)
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// floodTasks posts, in one burst, up to o.tasks tasks on the stacked deadline, reading the
// height every few tasks so that each lands on it; it stops at the first 43 (the validator's
// open tasks are at chain.max_open_tasks).
func (a *adversary) floodTasks(ctx context.Context) {
	a.b.send(ctx, "adversary/post-task", a.stackedTasks(ctx), wire.CodeTooManyOpenTasks)
}

// stackedTasks yields the flood's tasks; it ends early when the height cannot be read or the
// deadline does not fit the chain's windows.
func (a *adversary) stackedTasks(ctx context.Context) iter.Seq[*subnetv1.Msg] {
	const every = 10
	return func(yield func(*subnetv1.Msg) bool) {
		var next int64
		least := leastSpan(a.st)
		for i := 0; i < a.o.tasks; i++ {
			if i%every == 0 {
				h, err := a.height(ctx)
				if err != nil {
					a.b.logf("%s: height: %v", a.b.name, err)
					return
				}
				next = h + 1
				a.deadline = stackDeadline(a.deadline, next, a.o.lead, least)
			}
			m, ok := stackedTask(a.st, i, next, a.deadline)
			if !ok || !yield(m) {
				return
			}
		}
	}
}

// floodTruths sends one truth flood (truthFlood) in one burst.
func (a *adversary) floodTruths(ctx context.Context) {
	shots := truthFlood(a.st, a.closed(), time.Now().Unix())
	msgs := make([]*subnetv1.Msg, len(shots))
	for i, s := range shots {
		msgs[i] = s.msg()
	}
	if len(msgs) > 0 {
		a.b.send(ctx, "adversary/truth", slices.Values(msgs), 0)
	}
}

// release sends every held report in one burst.
func (a *adversary) release(ctx context.Context) {
	a.mu.Lock()
	held := a.held
	a.held = nil
	a.mu.Unlock()
	if len(held) == 0 {
		return
	}
	msgs := make([]*subnetv1.Msg, 0, len(held))
	for _, s := range held {
		if s.track == genesis.TrackWorkflow {
			msgs = append(msgs, workflowReport(s.id, s.miner, a.index, s.round))
		} else {
			msgs = append(msgs, arenaReport(s.id, s.miner, a.index, s.round))
		}
	}
	a.b.send(ctx, "adversary/report", slices.Values(msgs), 0)
}

// newAdversary signs with validator o.adv.validator's report key and broadcasts to that
// validator's own node first; it refuses a validator holding 1/3 of the power or more.
func newAdversary(o options, net *setup.Testnet, p *pool, rec *recorder, closed func() uint64) (*adversary, error) {
	i := o.adv.validator
	if i >= len(net.ReportKeys) {
		return nil, fmt.Errorf("--adversary %d: the testnet has %d validators", i, len(net.ReportKeys))
	}
	key := net.ReportKeys[i]
	if _, _, err := minority(net.State, key.Public().(ed25519.PublicKey)); err != nil {
		return nil, fmt.Errorf("--adversary %d: %w", i, err)
	}
	node := pinned{pool: p, home: uint64(i)}
	b := &burster{name: fmt.Sprintf("adversary%d", i), s: client.NewSigner(node, net.ChainID, key), node: node,
		limit: newLimiter(o.adv.rate), rec: rec, wait: o.adv.wait, log: os.Stderr}
	return &adversary{o: o.adv, st: net.State, b: b, height: p.Height, closed: closed, index: i}, nil
}
