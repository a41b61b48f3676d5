package rounds

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

// The flood (--flood-rate) is an open-loop load beside the honest rounds: --flood-rate
// workflow commits a second on a fixed schedule (the i-th at start + i/rate) whether or not
// the earlier ones were included, from --flood-miners miners of their own, miner i%M
// committing to its next task of the tasks the validators posted ahead. Each flood miner
// pipelines its nonces through one node (client.Signer over a pinned pool) and never waits
// for a block: a watcher matches every block's transactions against those CheckTx took,
// and each miner's signer runs Recover every second, so a transaction lost in a killed
// node's mempool (or behind one) is sent again and counted. After the drain the watcher reads
// up to the chain's height, and what it did not match is looked up by /tx (found_by_tx, or
// lost with its hash in lost_hashes). Its records (kind flood/commit) go to --out with the
// honest ones: the e2e checks look each up on every node.

// floodKind is the record kind of the flood's commits.
const floodKind = "flood/commit"

// floodOptions are the flood's flags.
type floodOptions struct {
	rate      float64
	miners    int
	lostAfter int64
}

// floodCounts are the flood's figures (stats.Flood).
type floodCounts struct {
	Offered  int            `json:"offered"`  // schedule slots
	Skipped  int            `json:"skipped"`  // slots whose miner was still busy with earlier ones
	Accepted int            `json:"accepted"` // taken by CheckTx
	Refused  map[string]int `json:"refused"`  // by "code N" (CheckTx)
	Failed   int            `json:"failed"`   // broadcasts no node answered
	// Committed of the accepted were seen in a block (under their first hash or, re-signed,
	// their new one); Lost are accepted ones no block showed by the end of the drain.
	Committed int `json:"committed"`
	Lost      int `json:"lost"`
	// Recovered: what the flood miners' Recover did (a subset of stats.Recovered).
	Resent   int `json:"resent"`
	Resigned int `json:"resigned"`
	Dropped  int `json:"dropped"` // refused when sent again
	// StuckSenders: flood miners with transactions in flight at the end.
	StuckSenders int `json:"stuck_senders"`
	Tasks        int `json:"tasks"`
	// FoundByTx of the committed were found by /tx after the watcher had read every block:
	// a block the watcher missed (0 unless the watcher is wrong); LostHashes are the first
	// maxLostHashes of the lost, to look up by hand.
	FoundByTx  int      `json:"found_by_tx"`
	LostHashes []string `json:"lost_hashes,omitempty"`
	// WatchLag is the most blocks the watcher was behind the chain's height; WatchedTo the
	// last height it read.
	WatchLag  int64 `json:"watch_lag_blocks"`
	WatchedTo int64 `json:"watched_to"`
}

// maxLostHashes bounds floodCounts.LostHashes.
const maxLostHashes = 100

// floodMiner is one key of the flood.
type floodMiner struct {
	name  string
	s     *client.Signer
	uid   uint32
	next  int
	queue chan struct{}
}

// flood runs the open-loop commits.
type flood struct {
	g      *generator
	o      floodOptions
	miners []*floodMiner
	tasks  []uint64

	mu      sync.Mutex
	counts  floodCounts
	pending map[string]*floodMiner // accepted, not yet in a block, by hash
	// inBlock holds the block's height of every transaction the watcher read that was not
	// pending then: a transaction can reach a block before its hash is pending (one that
	// Recover signed again is sent before OnRecover names its new hash; a first send's
	// answer can come late on a loaded machine), and is matched when it becomes pending.
	inBlock map[string]int64
	from    int64 // the first height the watcher reads
	read    int64 // the last height the watcher read
}

func newFlood(g *generator, o floodOptions) *flood {
	return &flood{g: g, o: o, pending: map[string]*floodMiner{}, inBlock: map[string]int64{}, counts: floodCounts{Refused: map[string]int{}}}
}

// setup registers the flood miners and has the validators post enough tasks ahead.
func (f *flood) setup(ctx context.Context, duration time.Duration) error {
	g := f.g
	f.miners = make([]*floodMiner, f.o.miners)
	errs := make([]error, f.o.miners)
	sem := make(chan struct{}, 16)
	var wg sync.WaitGroup
	for i := range f.miners {
		node := floodNode{pinned: pinned{pool: g.pool, home: uint64(i)}, heights: g.heights}
		s := client.NewSigner(node, g.net.ChainID, setup.Key(fmt.Sprintf("%s/flood/%d", g.o.seed, i)))
		s.LostAfter = f.o.lostAfter
		m := &floodMiner{name: fmt.Sprintf("flood%d", i), s: s, queue: make(chan struct{}, 64)}
		s.OnRecover = func(r client.Recovery) { f.recovered(m, r) }
		f.miners[i] = m
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[i] = f.register(ctx, m)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	perMiner := int(f.o.rate*duration.Seconds()*1.2)/f.o.miners + 2
	return f.postTasks(ctx, perMiner)
}

// register gives m a uid (or reads the one it has from an earlier run).
func (f *flood) register(ctx context.Context, m *floodMiner) error {
	var v wire.AccountView
	for attempt := 0; ; attempt++ {
		if found, err := f.g.pool.query(ctx, "account/"+fmt.Sprintf("%x", m.s.PubKey()), &v); err == nil && found && v.UID != nil {
			m.uid = *v.UID
			return nil
		}
		msg, err := client.RegisterWork(ctx, f.g.pool, f.g.net.ChainID, m.s.PubKey(), nil)
		if err != nil {
			return fmt.Errorf("%s: registration work: %w", m.name, err)
		}
		res, err := m.s.SendWait(ctx, msg, time.Minute)
		if err == nil {
			uid, err := res.AttrU64(wire.EventMinerRegistered, "uid")
			m.uid = uint32(uid)
			return err
		}
		if attempt >= 5 || ctx.Err() != nil {
			return fmt.Errorf("%s: register: %w", m.name, err)
		}
	}
}

// postTasks has the honest validators post n workflow tasks, taking the whole submission
// window the chain allows, in pipelined batches.
func (f *flood) postTasks(ctx context.Context, n int) error {
	st := f.g.net.State
	task := setup.WorkflowTask(setup.Windows{Submission: st.Chain.MaxSubmissionBlocks, Report: 40})
	V := len(f.g.validators)
	ids := make([][]uint64, V)
	errs := make([]error, V)
	each(f.g.validators, func(v int, a *actor) {
		ids[v], errs[v] = f.postBatches(ctx, a, uint64(v), task, setup.Share(n, V, v))
	})
	for v := range V {
		if errs[v] != nil {
			return fmt.Errorf("flood tasks of %s: %w", f.g.validators[v].name, errs[v])
		}
		f.tasks = append(f.tasks, ids[v]...)
	}
	f.counts.Tasks = len(f.tasks)
	return nil
}

// postBatches sends n copies of task from a's key, at most 100 in the mempool at once,
// through node home first (pipelined nonces must reach one mempool in order), with a signer
// of its own while it holds a's lock; a's signer reads the nonce again afterwards.
func (f *flood) postBatches(ctx context.Context, a *actor, home uint64, task *subnetv1.Msg, n int) ([]uint64, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	defer a.s.Resync()
	s := client.NewSigner(pinned{pool: f.g.pool, home: home}, f.g.net.ChainID, a.key)
	s.OnRecover = f.g.rec.recovered
	return setup.PostTasks(ctx, s, task, n, 100, time.Minute)
}

// run offers the load for duration, then watches and recovers for at most drain until every
// accepted commit is in a block.
func (f *flood) run(ctx context.Context, duration, drain time.Duration) {
	h, err := f.g.pool.Height(ctx)
	if err != nil {
		f.g.logf("flood: no height: %v", err)
		return
	}
	f.from = h + 1
	wctx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	var watcher, senders sync.WaitGroup
	watcher.Go(func() { f.watch(wctx) })
	sctx, stopSenders := context.WithCancel(ctx)
	for _, m := range f.miners {
		senders.Go(func() { f.sendLoop(sctx, m) })
	}
	f.offer(ctx, duration)
	for _, m := range f.miners {
		close(m.queue)
	}
	deadline := time.Now().Add(drain)
	for ctx.Err() == nil && time.Now().Before(deadline) && f.outstanding() > 0 {
		time.Sleep(250 * time.Millisecond)
	}
	stopSenders()
	senders.Wait()
	f.readThrough(ctx, watchTail)
	stopWatch()
	watcher.Wait()
	f.lookUpPending(ctx)
	for _, m := range f.miners {
		if m.s.InFlight() > 0 {
			f.counts.StuckSenders++
		}
	}
}

// offer fills the schedule: slot i at start + i/rate goes to miner i%M, or is skipped when
// that miner's queue is full.
func (f *flood) offer(ctx context.Context, duration time.Duration) {
	start := time.Now()
	for i := 0; ; i++ {
		at := start.Add(time.Duration(float64(i) / f.o.rate * float64(time.Second)))
		if at.Sub(start) >= duration {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Until(at)):
		}
		m := f.miners[i%len(f.miners)]
		f.mu.Lock()
		f.counts.Offered++
		select {
		case m.queue <- struct{}{}:
		default:
			f.counts.Skipped++
		}
		f.mu.Unlock()
	}
}

// sendLoop sends m's commits as their slots come, and runs its signer's Recover every
// second while some are in flight, until the queue is closed and nothing is in flight (or
// ctx ends).
func (f *flood) sendLoop(ctx context.Context, m *floodMiner) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	queue := m.queue
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-queue:
			if !ok {
				queue = nil
				continue
			}
			f.send(ctx, m)
		case <-tick.C:
			if m.s.InFlight() > 0 {
				if _, err := m.s.Recover(ctx); err != nil && ctx.Err() == nil {
					f.g.logf("%s: recover: %v", m.name, err)
				}
			}
		}
	}
}

// send commits m to its next task.
func (f *flood) send(ctx context.Context, m *floodMiner) {
	if m.next >= len(f.tasks) {
		return
	}
	task := f.tasks[m.next]
	m.next++
	payload := client.WorkflowPayload(task, client.ArtifactHash("flood", int(m.uid), task))
	var salt client.Salt
	copy(salt[:], m.name)
	msg, err := client.Commit(f.g.net.ChainID, m.s.PubKey(), m.uid, payload, salt)
	if err != nil {
		f.g.logf("%s: %v", m.name, err)
		return
	}
	f.g.rec.sent(floodKind)
	res, err := m.s.Send(ctx, msg)
	var te *client.TxError
	f.mu.Lock()
	height, inBlock := int64(0), false
	switch {
	case err == nil:
		f.counts.Accepted++
		if height, inBlock = f.inBlock[res.Hash]; inBlock {
			delete(f.inBlock, res.Hash)
			f.counts.Committed++
		} else {
			f.pending[res.Hash] = m
		}
	case errors.As(err, &te):
		f.counts.Refused[fmt.Sprintf("code %d", te.Code)]++
		f.g.rec.rejected(floodKind, te.Code)
	case ctx.Err() == nil:
		f.counts.Failed++
	}
	f.mu.Unlock()
	if inBlock { // after f.mu: Confirmed takes the signer's lock, under which recovered takes f.mu
		m.s.Confirmed(res.Hash)
		f.record(m, res.Hash, height)
	}
}

// recovered follows m's re-signed transactions under their new hashes and counts.
func (f *flood) recovered(m *floodMiner, r client.Recovery) {
	f.g.rec.recovered(r)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.counts.Resent += len(r.Resent)
	f.counts.Resigned += len(r.Resigned)
	f.counts.Dropped += len(r.Refused)
	for _, rs := range r.Resigned {
		if _, ok := f.pending[rs.Old]; ok {
			delete(f.pending, rs.Old)
			if height, ok := f.inBlock[rs.New]; ok {
				// in a block already: tell the signer once its lock, under which this
				// runs, is released
				delete(f.inBlock, rs.New)
				f.counts.Committed++
				f.record(m, rs.New, height)
				go m.s.Confirmed(rs.New)
				continue
			}
			f.pending[rs.New] = m
		}
	}
	for _, rf := range r.Refused {
		delete(f.pending, rf.Hash)
	}
}

func (f *flood) outstanding() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.pending)
}

// watchAhead is how many blocks the watcher fetches at once (from different nodes): one
// /block of a full block is a large answer, and a watcher that reads them one by one falls
// behind a chain at 900 commits/s.
const watchAhead = 4

// watchTail bounds the wait at the end for the watcher to read the last blocks.
const watchTail = 2 * time.Minute

// watch reads every block from f.from on and records the flood's transactions in it.
func (f *flood) watch(ctx context.Context) {
	next := f.from
	for ctx.Err() == nil {
		h, err := f.g.heights.get(ctx)
		if err != nil || h < next {
			sleepCtx(ctx, 100*time.Millisecond)
			continue
		}
		n := min(h-next+1, watchAhead)
		got := make([][]string, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				errs[i] = f.g.pool.doFrom(ctx, uint64(next+i), func(c *client.Client) error {
					bctx, cancel := context.WithTimeout(ctx, 10*time.Second)
					defer cancel()
					var err error
					got[i], err = c.BlockTxHashes(bctx, next+i)
					return err
				})
			})
		}
		wg.Wait()
		for i := range n {
			if errs[i] != nil {
				break
			}
			f.seen(next, got[i])
			f.mu.Lock()
			f.read, f.counts.WatchedTo = next, next
			f.counts.WatchLag = max(f.counts.WatchLag, h-next)
			f.mu.Unlock()
			next++
		}
	}
}

// readThrough waits, at most limit, until the watcher has read the block at the chain's
// height now (the senders are done: no later block holds one of theirs that is not in it).
func (f *flood) readThrough(ctx context.Context, limit time.Duration) {
	h, err := f.g.pool.Height(ctx)
	if err != nil {
		return
	}
	deadline := time.Now().Add(limit)
	for ctx.Err() == nil && time.Now().Before(deadline) {
		f.mu.Lock()
		read := f.read
		f.mu.Unlock()
		if read >= h {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	f.g.logf("flood: the watcher read to %d of %d in %v", f.read, h, limit)
}

// lookUpPending asks /tx for every commit still pending once the watcher is done: one a
// block holds is committed (and counted in FoundByTx: the watcher missed it), the others
// are lost.
func (f *flood) lookUpPending(ctx context.Context) {
	f.mu.Lock()
	type left struct {
		hash string
		m    *floodMiner
	}
	var ls []left
	for h, m := range f.pending {
		ls = append(ls, left{h, m})
	}
	f.mu.Unlock()
	sort.Slice(ls, func(i, j int) bool { return ls[i].hash < ls[j].hash })
	for _, l := range ls {
		res, err := f.g.pool.answered(ctx, 5*time.Second, func(ctx context.Context, c *client.Client) (client.TxResult, error) {
			return c.Tx(ctx, l.hash)
		})
		var te *client.TxError
		if err != nil && !errors.As(err, &te) {
			f.mu.Lock()
			f.counts.Lost++
			if len(f.counts.LostHashes) < maxLostHashes {
				f.counts.LostHashes = append(f.counts.LostHashes, l.hash)
			}
			f.mu.Unlock()
			continue
		}
		f.mu.Lock()
		delete(f.pending, l.hash)
		f.counts.Committed++
		f.counts.FoundByTx++
		f.mu.Unlock()
		f.record(l.m, l.hash, res.Height)
	}
}

// seen records the flood's transactions among a block's and tells their signers (after
// f.mu: a signer calls recovered under its own lock).
func (f *flood) seen(height int64, hashes []string) {
	type done struct {
		m    *floodMiner
		hash string
	}
	var ds []done
	f.mu.Lock()
	for _, h := range hashes {
		if m, ok := f.pending[h]; ok {
			delete(f.pending, h)
			f.counts.Committed++
			ds = append(ds, done{m, h})
		} else {
			f.inBlock[h] = height
		}
	}
	f.mu.Unlock()
	byMiner := map[*floodMiner][]string{}
	for _, d := range ds {
		byMiner[d.m] = append(byMiner[d.m], d.hash)
		f.record(d.m, d.hash, height)
	}
	// Each signer is told in a goroutine of its own: a signer's lock is held through its
	// Recover, which looks its old transactions up one by one, and a watcher waiting for it
	// fell 50–60 blocks behind at 900 commits/s — so every signer's Recover found its
	// transactions unconfirmed and looked them up by /tx (58,000 look-ups a run), a load on
	// the nodes that made the watcher later still.
	for m, hashes := range byMiner {
		go func() {
			for _, h := range hashes {
				m.s.Confirmed(h)
			}
		}()
	}
}

// record writes a flood commit seen in the block at height to --out.
func (f *flood) record(m *floodMiner, hash string, height int64) {
	if err := f.g.rec.committed(Record{Kind: floodKind, Sender: m.name, Hash: hash, Height: height, UID: uint64(m.uid)}); err != nil {
		f.g.logf("flood: write record: %v", err)
	}
}

// floodNode is a flood miner's client.Node and client.Tracker: its broadcasts go to one node
// first, and its height is the generator's (read at most every heightsTTL, not once per
// miner and Recover).
type floodNode struct {
	pinned
	heights *heights
}

// Height is the last committed height of a live node.
func (n floodNode) Height(ctx context.Context) (int64, error) { return n.heights.get(ctx) }

func sleepCtx(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
