package mempoolconn

import (
	"context"
	"sync"

	abcicli "github.com/cometbft/cometbft/abci/client"
	abcitypes "github.com/cometbft/cometbft/abci/types"
	cmtsync "github.com/cometbft/cometbft/libs/sync"
	"github.com/cometbft/cometbft/proxy"

	"github.com/scoringsubnet/validatord/app/wire"
)

// MaxRun is the most requests handed to the app at once.
const MaxRun = 64

// QueueSize is the most requests waiting for the worker.
const QueueSize = 256

// stopping is the answer to requests the app never saw because the client
// stopped: code_internal, in the app's codespace.
func stopping() *abcitypes.ResponseCheckTx {
	return &abcitypes.ResponseCheckTx{Code: wire.CodeInternal, Codespace: wire.Codespace,
		Log: "the node is stopping; the transaction was not checked"}
}

// Checker is an application that answers a run of CheckTx requests at once,
// in order, as it would answer them one after the other (app.App).
type Checker interface {
	CheckTxs(ctx context.Context, reqs []*abcitypes.RequestCheckTx) ([]*abcitypes.ResponseCheckTx, error)
}

// DryChecker is an application that answers a CheckTx request without
// keeping anything (app.App.CheckTxDry): the synchronous CheckTx goes
// there, which CometBFT calls only for its /check_tx RPC.
type DryChecker interface {
	CheckTxDry(ctx context.Context, req *abcitypes.RequestCheckTx) (*abcitypes.ResponseCheckTx, error)
}

// Locking is how the clients of one Creator share the app.
type Locking int

const (
	// SharedLock: one lock over every connection, as
	// proxy.NewLocalClientCreator (validatord's default).
	SharedLock Locking = iota
	// PerConnection: a lock per connection, as
	// proxy.NewConnSyncLocalClientCreator, so CheckTx runs beside block
	// execution (app.toml [abci] concurrent_check_tx).
	PerConnection
)

// Creator makes the node's ABCI clients (a proxy.ClientCreator).
type Creator struct {
	app     abcitypes.Application
	locking Locking
	runs    bool
	mtx     *cmtsync.Mutex

	mu      sync.Mutex
	clients []*Client
}

var _ proxy.ClientCreator = (*Creator)(nil)

// NewClientCreator returns the creator of clients over app. With runs,
// CheckTxAsync queues and a worker answers in runs (to CheckTxs if app is
// a Checker, otherwise to CheckTx one by one); without, CheckTxAsync is
// answered before it returns, as by CometBFT's local client (app.toml
// check_tx_runs = false). Either way the synchronous CheckTx goes to
// CheckTxDry if app is a DryChecker.
func NewClientCreator(app abcitypes.Application, locking Locking, runs bool) *Creator {
	return &Creator{app: app, locking: locking, runs: runs, mtx: new(cmtsync.Mutex)}
}

// NewABCIClient returns one connection's client. CometBFT makes one per
// connection (consensus, mempool, query, snapshot); only the mempool's
// calls CheckTxAsync, so only it ever starts a worker.
func (cr *Creator) NewABCIClient() (abcicli.Client, error) {
	mtx := cr.mtx
	if cr.locking == PerConnection {
		mtx = new(cmtsync.Mutex)
	}
	c := newClient(mtx, cr.app)
	c.inline = !cr.runs
	cr.mu.Lock()
	cr.clients = append(cr.clients, c)
	cr.mu.Unlock()
	return c, nil
}

// Stats sums the counts of every client this creator made.
func (cr *Creator) Stats() Stats {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	var s Stats
	for _, c := range cr.clients {
		cs := c.Stats()
		s.Requests += cs.Requests
		s.Runs += cs.Runs
		s.Largest = max(s.Largest, cs.Largest)
	}
	return s
}

// Stats counts what a client's worker did: requests answered, the runs
// they were answered in, and the largest run.
type Stats struct {
	Requests, Runs, Largest int
}

// Client is one connection's client: the local client, with CheckTxAsync
// queued (see the package doc).
type Client struct {
	abcicli.Client // the local client: every call but those below

	mtx     *cmtsync.Mutex // the app's lock, as the local client takes it
	app     abcitypes.Application
	checker Checker    // nil: one CheckTx at a time
	dry     DryChecker // nil: the synchronous CheckTx is the app's CheckTx
	inline  bool       // answer CheckTxAsync before returning (no queue, no worker)

	mu      sync.Mutex
	work    sync.Cond // the queue has requests, or stopped
	room    sync.Cond // the queue has room, or stopped
	idle    sync.Cond // the queue is empty and no run is being answered
	queue   []*abcicli.ReqRes
	busy    bool // the worker holds a run not yet answered
	running bool // the worker was started
	stopped bool
	done    chan struct{} // closed when the worker has returned
	cb      abcicli.Callback
	stats   Stats
}

func newClient(mtx *cmtsync.Mutex, app abcitypes.Application) *Client {
	c := &Client{Client: abcicli.NewLocalClient(mtx, app), mtx: mtx, app: app, done: make(chan struct{})}
	c.checker, _ = app.(Checker)
	c.dry, _ = app.(DryChecker)
	c.work.L, c.room.L, c.idle.L = &c.mu, &c.mu, &c.mu
	return c
}

// SetResponseCallback sets the callback every answer goes to first (the
// mempool's, which handles rechecks).
func (c *Client) SetResponseCallback(cb abcicli.Callback) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cb = cb
}

// CheckTxAsync queues req and returns its ReqRes, answered later by the
// worker. It waits while the queue is full. It never returns an error:
// after Stop the request is answered at once with code_internal.
func (c *Client) CheckTxAsync(_ context.Context, req *abcitypes.RequestCheckTx) (*abcicli.ReqRes, error) {
	rr := abcicli.NewReqRes(abcitypes.ToRequestCheckTx(req))
	if c.inline {
		res := c.check([]*abcicli.ReqRes{rr})
		c.mu.Lock()
		cb := c.cb
		c.count(1)
		c.mu.Unlock()
		answer(cb, rr, res[0])
		return rr, nil
	}
	c.mu.Lock()
	for len(c.queue) >= QueueSize && !c.stopped {
		c.room.Wait()
	}
	if c.stopped {
		cb := c.cb
		c.mu.Unlock()
		answer(cb, rr, stopping())
		return rr, nil
	}
	c.queue = append(c.queue, rr)
	if !c.running {
		c.running = true
		go c.worker()
	}
	c.work.Signal()
	c.mu.Unlock()
	return rr, nil
}

// CheckTx answers one request at once and keeps nothing, when the app is
// a DryChecker: CometBFT calls it only for the /check_tx RPC, whose
// answers must not hold a nonce as pending (app.App.CheckTxDry).
func (c *Client) CheckTx(ctx context.Context, req *abcitypes.RequestCheckTx) (*abcitypes.ResponseCheckTx, error) {
	if c.dry == nil {
		return c.Client.CheckTx(ctx, req)
	}
	c.mtx.Lock()
	defer c.mtx.Unlock()
	return c.dry.CheckTxDry(ctx, req)
}

// Flush returns when every request queued before it has been answered
// (or the client stopped).
func (c *Client) Flush(context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for (len(c.queue) > 0 || c.busy) && !c.stopped {
		c.idle.Wait()
	}
	return nil
}

// Stop stops the worker, answering what is still queued with
// code_internal, then the local client.
func (c *Client) Stop() error {
	c.mu.Lock()
	c.stopped = true
	running := c.running
	c.work.Broadcast()
	c.room.Broadcast()
	c.idle.Broadcast()
	c.mu.Unlock()
	if running {
		<-c.done
	}
	return c.Client.Stop()
}

// Stats returns the worker's counts.
func (c *Client) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// worker answers the queue in runs until Stop.
func (c *Client) worker() {
	defer close(c.done)
	for {
		c.mu.Lock()
		for len(c.queue) == 0 && !c.stopped {
			c.work.Wait()
		}
		if c.stopped {
			rest, cb := c.queue, c.cb
			c.queue = nil
			c.mu.Unlock()
			for _, rr := range rest {
				answer(cb, rr, stopping())
			}
			return
		}
		n := min(len(c.queue), MaxRun)
		run := append([]*abcicli.ReqRes(nil), c.queue[:n]...)
		c.queue = append(c.queue[:0], c.queue[n:]...)
		c.busy = true
		cb := c.cb
		c.room.Broadcast()
		c.mu.Unlock()

		res := c.check(run)
		for i, rr := range run {
			answer(cb, rr, res[i])
		}

		c.mu.Lock()
		c.busy = false
		c.count(n)
		c.idle.Broadcast()
		c.mu.Unlock()
	}
}

// count adds a run of n requests to the stats. Called with c.mu held.
func (c *Client) count(n int) {
	c.stats.Requests += n
	c.stats.Runs++
	c.stats.Largest = max(c.stats.Largest, n)
}

// check has the app answer a run under the app's lock.
func (c *Client) check(run []*abcicli.ReqRes) []*abcitypes.ResponseCheckTx {
	reqs := make([]*abcitypes.RequestCheckTx, len(run))
	for i, rr := range run {
		reqs[i] = rr.Request.GetCheckTx()
	}
	c.mtx.Lock()
	defer c.mtx.Unlock()
	ctx := context.Background()
	if c.checker != nil {
		res, err := c.checker.CheckTxs(ctx, reqs)
		if err == nil && len(res) == len(reqs) {
			return res
		}
		// An app that cannot answer the run answers each request alone.
	}
	res := make([]*abcitypes.ResponseCheckTx, len(reqs))
	for i, req := range reqs {
		r, err := c.app.CheckTx(ctx, req)
		if err != nil || r == nil {
			msg := "the app returned no answer"
			if err != nil {
				msg = err.Error()
			}
			r = &abcitypes.ResponseCheckTx{Code: wire.CodeInternal, Codespace: wire.Codespace, Log: msg}
		}
		res[i] = r
	}
	return res
}

// answer delivers res to the response callback, then to the request's own,
// and marks the request done: the socket client's order.
func answer(cb abcicli.Callback, rr *abcicli.ReqRes, res *abcitypes.ResponseCheckTx) {
	resp := abcitypes.ToResponseCheckTx(res)
	rr.Response = resp
	if cb != nil {
		cb(rr.Request, resp)
	}
	rr.InvokeCallback()
	rr.Done()
}
