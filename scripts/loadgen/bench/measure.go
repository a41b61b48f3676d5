package bench

import (
	"context"
	"crypto/sha256"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	rpchttp "github.com/cometbft/cometbft/rpc/client/http"
	coretypes "github.com/cometbft/cometbft/rpc/core/types"

	"github.com/scoringsubnet/validatord/internal/cpuclock"
)

// txState is one sent transaction.
type txState struct {
	sent      time.Time
	checked   bool // CheckTx said 0
	failed    bool // CheckTx refused it or its broadcast failed
	committed bool
	freed     bool // its in-flight slot was given back
	timedOut  bool
}

// tracker matches the sent transactions with the blocks the watcher sees.
type tracker struct {
	mu        sync.Mutex
	txs       map[[32]byte]*txState
	latencies []time.Duration
	blocks    []blockSeen
	checkFail map[string]int
	checkOK   int
	rpcErrors int
	timedOut  int
	slots     chan struct{} // in-flight mode: one token per outstanding tx; nil in rate mode
	// freeOnCheck: a tx's slot is freed once CheckTx answered (--until checktx).
	freeOnCheck bool
}

func newTracker(inFlight int, freeOnCheck bool) *tracker {
	t := &tracker{txs: map[[32]byte]*txState{}, checkFail: map[string]int{}, freeOnCheck: freeOnCheck}
	if inFlight > 0 {
		t.slots = make(chan struct{}, inFlight)
	}
	return t
}

// free gives back s's slot once; t.mu is held.
func (t *tracker) free(s *txState) {
	if t.slots != nil && !s.freed {
		s.freed = true
		<-t.slots
	}
}

func (t *tracker) add(h [32]byte, at time.Time) {
	t.mu.Lock()
	t.txs[h] = &txState{sent: at}
	t.mu.Unlock()
}

// checked records CheckTx's answer (code 0: accepted) or a broadcast error (err set).
func (t *tracker) checked(h [32]byte, code uint32, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.txs[h]
	if s != nil && t.freeOnCheck {
		t.free(s)
	}
	switch {
	case err != nil:
		t.rpcErrors++
	case code == 0:
		t.checkOK++
		if s != nil {
			s.checked = true
		}
		return
	default:
		t.checkFail[strconv.FormatUint(uint64(code), 10)]++
	}
	if s != nil && !s.committed {
		s.failed = true
		t.free(s)
	}
}

// block records a block seen at `at` and the run's transactions in it.
func (t *tracker) block(height int64, at time.Time, txs [][]byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	ours := 0
	for _, tx := range txs {
		s := t.txs[sha256.Sum256(tx)]
		if s == nil || s.committed {
			continue
		}
		ours++
		s.committed = true
		t.latencies = append(t.latencies, at.Sub(s.sent))
		t.free(s)
	}
	t.blocks = append(t.blocks, blockSeen{height: height, at: at, ours: ours})
}

// expire frees the slots of transactions outstanding for longer than timeout.
func (t *tracker) expire(now time.Time, timeout time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, s := range t.txs {
		if !s.committed && !s.failed && !s.timedOut && now.Sub(s.sent) > timeout {
			s.timedOut = true
			t.timedOut++
			t.free(s)
		}
	}
}

// outstanding counts the transactions neither committed nor refused.
func (t *tracker) outstanding() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, s := range t.txs {
		if !s.committed && !s.failed {
			n++
		}
	}
	return n
}

type job struct {
	tx      []byte
	hash    [32]byte
	refused func(code uint32, data []byte) // nil: nothing to do
}

// fail tells the source that j was refused (code, CheckTx's data) or not delivered (code 0).
func (j job) fail(code uint32, data []byte) {
	if j.refused != nil {
		j.refused(code, data)
	}
}

// dial makes an RPC client whose HTTP transport keeps a connection per worker.
func dial(addr string, conns int) (*rpchttp.HTTP, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = conns
	tr.MaxConnsPerHost = conns
	return rpchttp.NewWithClient(addr, "/websocket", &http.Client{Transport: tr, Timeout: 30 * time.Second})
}

// broadcast sends the jobs of one channel to one node, in their order, and tells t (and a
// refused job's source) what CheckTx said.
func broadcast(ctx context.Context, c *rpchttp.HTTP, async bool, t *tracker, jobs <-chan job) {
	for j := range jobs {
		if async {
			if _, err := c.BroadcastTxAsync(ctx, j.tx); err != nil {
				t.checked(j.hash, 0, err)
				j.fail(0, nil)
			}
			continue
		}
		res, err := c.BroadcastTxSync(ctx, j.tx)
		if err != nil {
			t.checked(j.hash, 0, err)
			j.fail(0, nil)
			continue
		}
		t.checked(j.hash, res.Code, nil)
		if res.Code != 0 {
			j.fail(res.Code, res.Data)
		}
	}
}

// dialWatch dials the watched node and reads its height.
func dialWatch(ctx context.Context, addr string) (*rpchttp.HTTP, int64, error) {
	c, err := dial(addr, 4)
	if err != nil {
		return nil, 0, err
	}
	st, err := c.Status(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("watch node: %w", err)
	}
	return c, st.SyncInfo.LatestBlockHeight, nil
}

// blockTxs are a block's transactions as bytes.
func blockTxs(b *coretypes.ResultBlock) [][]byte {
	txs := make([][]byte, len(b.Block.Txs))
	for i, tx := range b.Block.Txs {
		txs[i] = tx
	}
	return txs
}

// measure runs the measured phase and the drain and returns the summary.
func measure(ctx context.Context, o options, rpcs []string, src source) (*Summary, error) {
	t := newTracker(o.inFlight, o.until == "checktx")
	watchC, last, err := dialWatch(ctx, rpcs[o.watch])
	if err != nil {
		return nil, err
	}

	// Workers: o.workers per node, each node's transactions through its own channel.
	chans := make([]chan job, len(rpcs))
	var workers sync.WaitGroup
	for i, a := range rpcs {
		c, err := dial(a, o.workers)
		if err != nil {
			return nil, err
		}
		chans[i] = make(chan job, 1<<16)
		for range o.workers {
			workers.Go(func() { broadcast(ctx, c, o.async, t, chans[i]) })
		}
	}

	// Watcher: every new block of the watched node, until stopped.
	wctx, stopWatch := context.WithCancel(ctx)
	var watcher sync.WaitGroup
	watcher.Go(func() {
		for {
			if st, err := watchC.Status(wctx); err == nil {
				for h := last + 1; h <= st.SyncInfo.LatestBlockHeight; h++ {
					b, err := watchC.Block(wctx, &h)
					if err != nil {
						break
					}
					t.block(h, time.Now(), blockTxs(b))
					last = h
				}
			}
			select {
			case <-wctx.Done():
				return
			case <-time.After(25 * time.Millisecond):
			}
		}
	})
	// Sweeper: gives up on transactions outstanding for longer than --tx-timeout.
	var sweeper sync.WaitGroup
	sweeper.Go(func() {
		for {
			select {
			case <-wctx.Done():
				return
			case now := <-time.After(time.Second):
				t.expire(now, o.txTimeout)
			}
		}
	})

	s := &Summary{App: o.app, DurationS: o.duration.Seconds(), WarmupS: o.warmup.Seconds(), Nodes: len(rpcs), Note: o.note}
	if o.rate > 0 {
		s.Mode, s.Rate = "rate", o.rate
	} else {
		s.Mode, s.InFlight, s.Until = "in_flight", o.inFlight, o.until
	}
	start := time.Now()
	end := start.Add(o.duration)
	cpu0 := cpuclock.Process()
	busy0, total0 := machineCPU()
	// The nodes' CPU is read over the counted window (the measured one less its warm-up).
	var nodeMu sync.Mutex
	var node0 []time.Duration
	warmed := time.AfterFunc(o.warmup, func() {
		nodeMu.Lock()
		node0 = ProcessCPU(o.pids)
		nodeMu.Unlock()
	})
	sentBytes := 0
	s.StartUTC = start.UTC().Format(time.RFC3339)
	endTimer := time.NewTimer(o.duration)
	var maxLag time.Duration
dispatch:
	for i := 0; ; i++ {
		if o.rate > 0 {
			at := schedule(start, o.rate, i)
			if !at.Before(end) {
				break
			}
			if d := time.Until(at); d > 0 {
				select {
				case <-ctx.Done():
					break dispatch
				case <-time.After(d):
				}
			} else if -d > maxLag {
				maxLag = -d
			}
		} else {
			select {
			case <-ctx.Done():
				break dispatch
			case <-endTimer.C:
				break dispatch
			case t.slots <- struct{}{}:
			}
		}
		tx, node, refused, err := src.next()
		if err != nil {
			s.Note = fmt.Sprintf("%s; stopped after %d txs at %.1fs: %v", s.Note, i, time.Since(start).Seconds(), err)
			logf("%v", err)
			if t.slots != nil {
				<-t.slots
			}
			break
		}
		h := sha256.Sum256(tx)
		t.add(h, time.Now())
		s.Sent++
		sentBytes += len(tx)
		chans[node] <- job{tx: tx, hash: h, refused: refused}
	}
	for _, c := range chans {
		close(c)
	}
	if d := time.Until(end); d > 0 {
		select {
		case <-ctx.Done():
		case <-time.After(d):
		}
	}
	cpuWindow := cpuclock.Process() - cpu0
	busy1, total1 := machineCPU()
	busyWindow, totalWindow := busy1-busy0, total1-total0
	node1 := ProcessCPU(o.pids)
	warmed.Stop()
	nodeMu.Lock()
	nodeStart := node0
	nodeMu.Unlock()
	// Drain: wait for the outstanding transactions' blocks.
	drainEnd := time.Now().Add(o.drain)
	workers.Wait()
	for time.Now().Before(drainEnd) && t.outstanding() > 0 && ctx.Err() == nil {
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	stopWatch()
	watcher.Wait()
	sweeper.Wait()

	t.mu.Lock()
	defer t.mu.Unlock()
	s.CheckTxOK, s.CheckTxFailed, s.RPCErrors, s.TimedOut = t.checkOK, t.checkFail, t.rpcErrors, t.timedOut
	for _, st := range t.txs {
		if !st.committed && !st.failed {
			s.NeverCommitted++
		}
	}
	s.MaxLagS = round3(maxLag.Seconds())
	if c, ok := src.(*commitSource); ok {
		s.NonceRewinds = c.rewinds()
	}
	summarize(s, t.latencies, t.blocks, start.Add(o.warmup), end)
	s.OfferedTPS = round1(float64(s.Sent) / o.duration.Seconds())
	s.OfferedBytesPerS = round1(float64(sentBytes) / o.duration.Seconds())
	nodeFigures(s, nodeStart, node1, s.CommittedInWindow, 0)
	if s.CommittedTPS > 0 && cpuWindow > 0 { // CPU a second over the window ÷ committed tx a second
		s.LoadgenCPUPerTxUS = round1(float64(cpuWindow.Microseconds()) / o.duration.Seconds() / s.CommittedTPS)
	}
	if totalWindow > 0 {
		s.MachineBusy = round3(float64(busyWindow) / float64(totalWindow))
	}
	return s, nil
}
