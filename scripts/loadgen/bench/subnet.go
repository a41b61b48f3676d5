package bench

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"
	"time"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	rpchttp "github.com/cometbft/cometbft/rpc/client/http"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/cpuclock"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
	"github.com/scoringsubnet/validatord/scripts/loadgen/subnetload"
)

// subnetWindows are the subnet load's task windows in blocks: internal/simsubnet's
// (SubmissionBlocks, ReportBlocks); the reveal window is the genesis track's.
var subnetWindows = setup.Windows{Submission: 4, Report: 12}

// steadyLimit bounds the wait for the subnet load's steady state (the first task's report
// deadline, about 27 blocks after the first posts on the localnet's genesis).
const steadyLimit = 5 * time.Minute

// runSubnet is --subnet M: M miners registered with RegisterMiner transactions and the
// testnet's report keys as validators run the subnet's task tracks against the network as the
// plan of scripts/loadgen/subnetload says, reacting to the events of every committed block.
// The counted window starts once every phase runs (the height after the first task's report
// deadline) at a height where a round of posts starts, and ends at one too once --duration has
// passed, so it holds whole rounds of the cadence; its blocks are counted (scored submissions,
// committed transactions by kind) and the nodes' CPU (--pids) is read at its two ends. Then
// nothing more is sent; the transactions in flight get --drain to commit.
func runSubnet(ctx context.Context, o options, rpcs []string) (*Summary, error) {
	net, err := setup.LoadTestnet(o.testnet, o.nodes)
	if err != nil {
		return nil, err
	}
	return runSubnetOn(ctx, o, rpcs, net)
}

// runSubnetOn is runSubnet on a testnet already read (its report keys the validators').
func runSubnetOn(ctx context.Context, o options, rpcs []string, net *setup.Testnet) (*Summary, error) {
	var err error
	if max := net.State.Chain.MaxUIDs; uint64(o.subnet) > uint64(max) {
		return nil, fmt.Errorf("--subnet %d: the chain has %d uids (chain.max_uids)", o.subnet, max)
	}
	if !net.State.HasTrack(genesis.TrackWorkflow) {
		return nil, errors.New("--subnet: the chain does not run the workflow track")
	}
	clients := make([]*client.Client, len(rpcs))
	for i, a := range rpcs {
		if clients[i], err = client.Dial(a); err != nil {
			return nil, err
		}
	}
	o.miners = o.subnet
	miners, err := registerMiners(ctx, o, clients, net.ChainID, logf)
	if err != nil {
		return nil, err
	}
	validators := make([]*benchMiner, len(net.ReportKeys))
	for v, k := range net.ReportKeys {
		m := &benchMiner{key: k, pub: k.Public().(ed25519.PublicKey), node: v % len(rpcs)}
		m.rewind.Store(noRewind)
		if m.nonce, err = clients[m.node].NextNonce(ctx, m.pub); err != nil {
			return nil, fmt.Errorf("validator %d: %w", v, err)
		}
		validators[v] = m
	}
	cfg := subnetload.Config{ChainID: net.ChainID, Seed: o.seed, Validators: len(validators), TaskEvery: o.taskEvery,
		Windows: o.windows, MaxTxBytes: net.State.Chain.MaxTxBytes}
	for _, m := range miners {
		cfg.UIDs, cfg.MinerPubs = append(cfg.UIDs, m.uid), append(cfg.MinerPubs, m.pub)
	}
	if setup.ArenaRuns(net.State) {
		cfg.ArenaCategory, cfg.ArenaDifficulty = net.State.Arena.Categories[0].Name, net.State.Arena.Difficulties[0].Name
	}
	plan, err := subnetload.New(cfg)
	if err != nil {
		return nil, err
	}
	d := &subnetDriver{o: o, cfg: cfg, plan: plan, validators: validators, miners: miners,
		t: newTracker(0, false), sent: map[[32]byte]sentTx{}, refused: map[string]int{}}
	return d.run(ctx, rpcs)
}

// sentTx is what the driver sent: its kind and size.
type sentTx struct {
	kind  subnetload.Kind
	bytes int
}

// subnetDriver runs one --subnet load: only run's goroutine touches its fields but t.
type subnetDriver struct {
	o          options
	cfg        subnetload.Config
	plan       *subnetload.Plan
	validators []*benchMiner
	miners     []*benchMiner
	t          *tracker
	// chans: per node, one channel per worker; a key always uses the same one, so that its
	// transactions reach the node's mempool in nonce order.
	chans [][]chan job
	sent  map[[32]byte]sentTx
	// refused counts CheckTx's refusals and failed broadcasts by "kind code"; retry holds the
	// transactions to send again (the workers' callbacks add, run's goroutine takes).
	refusedMu sync.Mutex
	refused   map[string]int
	retry     []subnetload.Tx
}

// maxTries bounds how often one message is sent after nonce refusals.
const maxTries = 3

// again is what to do with a refused tx (code 0: its broadcast failed): a refusal for its
// nonce, or a failed broadcast, means the message itself was not judged (a transaction before it
// of the same key was refused, and the key rewinds), so it is sent again at the key's next
// nonce, at most maxTries times; any other refusal is the message's own and final.
func again(tries int, code uint32) bool {
	return tries < maxTries && (code == 0 || wire.IsNonceCode(code))
}

// key is the key of an actor and its index among all keys (validators first).
func (d *subnetDriver) key(a subnetload.Actor) (*benchMiner, int) {
	if a.Validator {
		return d.validators[a.Index], a.Index
	}
	return d.miners[a.Index], len(d.validators) + a.Index
}

// takeRetries is the transactions to send again, in the order their refusals came.
func (d *subnetDriver) takeRetries() []subnetload.Tx {
	d.refusedMu.Lock()
	defer d.refusedMu.Unlock()
	r := d.retry
	d.retry = nil
	return r
}

// send signs txs, each at its key's next nonce, and hands them to their key's worker; it
// returns how many bytes it sent. A message refused for its nonce is queued to be sent again
// (again).
func (d *subnetDriver) send(txs []subnetload.Tx) (int, error) {
	bytes := 0
	for _, tx := range txs {
		k, g := d.key(tx.From)
		k.takeRewind()
		nonce := k.nonce
		bz, err := wire.SignTx(d.cfg.ChainID, k.key, nonce, tx.Msg)
		if err != nil {
			return bytes, err
		}
		k.nonce++
		h := sha256.Sum256(bz)
		d.t.add(h, time.Now())
		d.sent[h] = sentTx{kind: tx.Kind, bytes: len(bz)}
		bytes += len(bz)
		ws := d.chans[k.node]
		ws[g%len(ws)] <- job{tx: bz, hash: h, refused: func(code uint32, data []byte) {
			k.refused(nonce, code, data)
			d.refusedMu.Lock()
			d.refused[fmt.Sprintf("%s %d", tx.Kind, code)]++
			if again(tx.Tries, code) {
				tx.Tries++
				d.retry = append(d.retry, tx)
			}
			d.refusedMu.Unlock()
		}}
	}
	return bytes, nil
}

// window is the counted window's bookkeeping.
type window struct {
	phase           int // 0 before the window, 1 in it, 2 after
	startH, endH    int64
	startAt, endAt  time.Time
	cpu0, cpu1      time.Duration
	busy0, total0   uint64
	busy1, total1   uint64
	node0, node1    []time.Duration
	sent, sentBytes int
	scored          int
	committedByKind map[string]int
}

func (d *subnetDriver) run(ctx context.Context, rpcs []string) (*Summary, error) {
	watchC, last, err := dialWatch(ctx, rpcs[d.o.watch])
	if err != nil {
		return nil, err
	}

	var workers sync.WaitGroup
	d.chans = make([][]chan job, len(rpcs))
	for i, a := range rpcs {
		c, err := dial(a, d.o.workers)
		if err != nil {
			return nil, err
		}
		for range d.o.workers {
			ch := make(chan job, 1<<14)
			d.chans[i] = append(d.chans[i], ch)
			workers.Go(func() { broadcast(ctx, c, d.o.async, d.t, ch) })
		}
	}
	closed := false
	closeChans := func() {
		if !closed {
			closed = true
			for _, ws := range d.chans {
				for _, ch := range ws {
					close(ch)
				}
			}
		}
	}
	defer func() { closeChans(); workers.Wait() }()

	start := time.Now()
	w := window{committedByKind: map[string]int{}}
	var drainEnd time.Time
	for {
		if st, err := watchC.Status(ctx); err == nil {
			for h := last + 1; h <= st.SyncInfo.LatestBlockHeight; h++ {
				txs, r, err := blockAndResults(ctx, watchC, h)
				if err != nil {
					break
				}
				at := time.Now()
				d.t.block(h, at, txs)
				scored := d.plan.Observe(h, r)
				if w.phase == 1 { // heights startH+1 .. endH
					w.scored += scored
					for _, tx := range txs {
						if s, ok := d.sent[sha256.Sum256(tx)]; ok {
							w.committedByKind[string(s.kind)]++
						}
					}
				}
				d.transition(&w, h, at)
				if w.phase == 2 && drainEnd.IsZero() {
					d.plan.StopPosting()
					closeChans()
					drainEnd = at.Add(d.o.drain)
				}
				if w.phase < 2 {
					packed, err := subnetload.Pack(d.cfg, d.plan.Due(h))
					if err != nil {
						return nil, err
					}
					packed = append(d.takeRetries(), packed...)
					n, err := d.send(packed)
					if err != nil {
						return nil, err
					}
					if w.phase == 1 {
						w.sent += len(packed)
						w.sentBytes += n
					}
				}
				last = h
			}
		}
		if w.phase == 0 && time.Since(start) > steadyLimit {
			return nil, fmt.Errorf("--subnet: no steady state after %s (height %d, first posts at %d, steady from %d)",
				steadyLimit, last, d.plan.FirstPost(), d.plan.SteadyFrom())
		}
		if w.phase == 2 && (time.Now().After(drainEnd) || d.t.outstanding() == 0) {
			break
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
	}
	closeChans()
	workers.Wait()
	return d.summary(w, start), nil
}

// transition opens the counted window at height h (seen at at) once every phase runs and a
// round of posts starts at h, and closes it at the first such height after --duration.
func (d *subnetDriver) transition(w *window, h int64, at time.Time) {
	round := d.plan.FirstPost() > 0 && (h-d.plan.FirstPost())%d.cfg.TaskEvery == 0
	switch {
	case w.phase == 0 && round && d.plan.SteadyFrom() > 0 && h >= d.plan.SteadyFrom():
		w.phase, w.startH, w.startAt = 1, h, at
		w.cpu0, w.node0 = cpuclock.Process(), ProcessCPU(d.o.pids)
		w.busy0, w.total0 = machineCPU()
		logf("subnet: counting from height %d", h)
	case w.phase == 1 && round && at.Sub(w.startAt) >= d.o.duration:
		w.phase, w.endH, w.endAt = 2, h, at
		w.cpu1, w.node1 = cpuclock.Process(), ProcessCPU(d.o.pids)
		w.busy1, w.total1 = machineCPU()
		logf("subnet: counted heights %d-%d (%.1fs), draining", w.startH+1, h, at.Sub(w.startAt).Seconds())
	}
}

// blockAndResults is height h's transactions and the events of its transactions and of its
// end of block.
func blockAndResults(ctx context.Context, c *rpchttp.HTTP, h int64) ([][]byte, []abcitypes.Event, error) {
	b, err := c.Block(ctx, &h)
	if err != nil {
		return nil, nil, err
	}
	r, err := c.BlockResults(ctx, &h)
	if err != nil {
		return nil, nil, err
	}
	txs := blockTxs(b)
	var evs []abcitypes.Event
	for _, res := range r.TxsResults {
		evs = append(evs, res.Events...)
	}
	return txs, append(evs, r.FinalizeBlockEvents...), nil
}

// summary is the run's summary from the window's counts and the tracker.
func (d *subnetDriver) summary(w window, start time.Time) *Summary {
	o := d.o
	s := &Summary{App: "validatord", Mode: "subnet", Level: fmt.Sprintf("subnet:%d", o.subnet), Miners: o.subnet,
		TaskEvery: o.taskEvery, Nodes: len(d.chans), Note: o.note, StartUTC: w.startAt.UTC().Format(time.RFC3339),
		DurationS: round3(w.endAt.Sub(w.startAt).Seconds()), WarmupS: round3(w.startAt.Sub(start).Seconds())}
	dur := w.endAt.Sub(w.startAt).Seconds()
	t := d.t
	t.mu.Lock()
	defer t.mu.Unlock()
	s.CheckTxOK, s.CheckTxFailed, s.RPCErrors, s.TimedOut = t.checkOK, t.checkFail, t.rpcErrors, t.timedOut
	for _, st := range t.txs {
		if !st.committed && !st.failed {
			s.NeverCommitted++
		}
	}
	for _, k := range append(d.validators[:len(d.validators):len(d.validators)], d.miners...) {
		s.NonceRewinds += k.rewinds.Load()
	}
	// blocks startH+1 .. endH: seen after startAt, up to endAt included
	summarize(s, t.latencies, t.blocks, w.startAt.Add(time.Nanosecond), w.endAt.Add(time.Nanosecond))
	s.Sent = w.sent
	if dur > 0 {
		s.OfferedTPS = round1(float64(w.sent) / dur)
		s.OfferedBytesPerS = round1(float64(w.sentBytes) / dur)
		s.ScoredPerS = round1(float64(w.scored) / dur)
	}
	s.Scored, s.CommittedByKind = w.scored, w.committedByKind
	d.refusedMu.Lock()
	s.RefusedByKind = d.refused
	d.refusedMu.Unlock()
	if w.scored > 0 {
		s.TxsPerScored = round3(float64(s.CommittedInWindow) / float64(w.scored))
	}
	nodeFigures(s, w.node0, w.node1, s.CommittedInWindow, w.scored)
	if s.CommittedTPS > 0 && w.cpu1 > w.cpu0 {
		s.LoadgenCPUPerTxUS = round1(float64((w.cpu1 - w.cpu0).Microseconds()) / dur / s.CommittedTPS)
	}
	if w.total1 > w.total0 {
		s.MachineBusy = round3(float64(w.busy1-w.busy0) / float64(w.total1-w.total0))
	}
	return s
}
