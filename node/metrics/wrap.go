package metrics

import (
	"context"
	"sync"
	"time"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app"
	"github.com/scoringsubnet/validatord/app/wire"
)

// WorkSource is the app's read-only view of the block awaiting Commit
// (app.App has it).
type WorkSource interface {
	PendingWork() (app.BlockWork, bool)
}

// BacklogSource is the app's read-only count of the end-of-block schedules'
// carried work (app.App has it).
type BacklogSource interface {
	Backlog(limit int) (int64, []app.QueueBacklog)
}

// CountSource is the app's read of the counts its committed state keeps
// (app.App has it).
type CountSource interface {
	Counts() (*wire.CountsView, bool)
}

// CheckRunSource is the app's count of CheckTx's runs since it started
// (app.App has it).
type CheckRunSource interface {
	CheckRuns() app.CheckRunStats
}

// backlogLimit bounds the entries counted per schedule after each Commit.
const backlogLimit = 1000

// observed is an application whose calls Metrics watch.
type observed struct {
	abcitypes.Application
	m   *Metrics
	obs *observer
}

// Wrap returns next with every ABCI call forwarded to it unchanged; after
// FinalizeBlock and Commit it updates m. If next has PendingWork, Backlog or
// Counts (app.App), block work, the carry-over queues and the state's counts
// are read through them. The per-track counters are created at 0 here when
// the app answers its params, else at the first Commit that does.
func Wrap(next abcitypes.Application, m *Metrics) abcitypes.Application {
	obs := newObserver(next, m)
	obs.tracked = obs.initTracks(context.Background())
	return &observed{Application: next, m: m, obs: obs}
}

// CheckTxs forwards a run of CheckTx requests (mempoolconn) to the app if it
// answers runs, or asks it one request at a time.
func (o *observed) CheckTxs(ctx context.Context, reqs []*abcitypes.RequestCheckTx) ([]*abcitypes.ResponseCheckTx, error) {
	if c, ok := o.Application.(interface {
		CheckTxs(context.Context, []*abcitypes.RequestCheckTx) ([]*abcitypes.ResponseCheckTx, error)
	}); ok {
		return c.CheckTxs(ctx, reqs)
	}
	out := make([]*abcitypes.ResponseCheckTx, len(reqs))
	for i, req := range reqs {
		r, err := o.Application.CheckTx(ctx, req)
		if err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}

// CheckTxDry forwards a CheckTx that keeps nothing (mempoolconn's answer
// to the /check_tx RPC) to the app if it has one, or to CheckTx.
func (o *observed) CheckTxDry(ctx context.Context, req *abcitypes.RequestCheckTx) (*abcitypes.ResponseCheckTx, error) {
	if d, ok := o.Application.(interface {
		CheckTxDry(context.Context, *abcitypes.RequestCheckTx) (*abcitypes.ResponseCheckTx, error)
	}); ok {
		return d.CheckTxDry(ctx, req)
	}
	return o.Application.CheckTx(ctx, req)
}

func (o *observed) FinalizeBlock(ctx context.Context, req *abcitypes.RequestFinalizeBlock) (*abcitypes.ResponseFinalizeBlock, error) {
	start := time.Now()
	resp, err := o.Application.FinalizeBlock(ctx, req)
	if err != nil || resp == nil {
		return resp, err
	}
	o.obs.finalized(req, resp, time.Since(start))
	return resp, nil
}

func (o *observed) Commit(ctx context.Context, req *abcitypes.RequestCommit) (*abcitypes.ResponseCommit, error) {
	resp, err := o.Application.Commit(ctx, req)
	if err != nil {
		return resp, err
	}
	o.obs.committed(ctx)
	return resp, nil
}

// observer holds what the series need between FinalizeBlock and Commit and
// across blocks. CometBFT calls both on its consensus connection; the lock
// makes it safe whatever the client creator.
type observer struct {
	mu      sync.Mutex
	app     abcitypes.Application
	m       *Metrics
	pending map[uint64]pendingSub // received since start, not settled
	block   blockSeen             // of the block awaiting Commit
	truths  map[string]truthSeen  // by EVM chain id
	started bool                  // the per-uid gauges were read once
	runs    app.CheckRunStats     // CheckRuns as last seen
	tracked bool                  // the per-track series exist
}

type pendingSub struct {
	track      string
	evmChain   string
	evmBlock   uint64
	hasEVMInfo bool
}

type truthSeen struct {
	block     uint64
	timestamp int64
}

// blockSeen is what one finalized block showed.
type blockSeen struct {
	unresolved  []uint64 // settled submissions whose track is not known here
	unresolvedE []string // and the event that settled each
	scores      bool     // a window, a miner or an epoch changed
}

func newObserver(a abcitypes.Application, m *Metrics) *observer {
	return &observer{app: a, m: m, pending: map[uint64]pendingSub{}, truths: map[string]truthSeen{}}
}

func (o *observer) finalized(req *abcitypes.RequestFinalizeBlock, resp *abcitypes.ResponseFinalizeBlock, took time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.m.FinalizeSeconds.Observe(took.Seconds())
	o.block = blockSeen{}
	for i, raw := range req.Txs {
		code := uint32(0)
		if i < len(resp.TxResults) {
			code = resp.TxResults[i].Code
		}
		o.m.Txs.WithLabelValues(MsgType(raw), wire.CodeName(code)).Inc()
		if i < len(resp.TxResults) && code == wire.CodeOK {
			o.events(resp.TxResults[i].Events, took)
		}
	}
	o.events(resp.Events, took)
	o.truthLag(req.Time.Unix())
	if ws, ok := o.app.(WorkSource); ok {
		if w, ok := ws.PendingWork(); ok {
			o.work(w)
		}
	}
}

func (o *observer) work(w app.BlockWork) {
	o.m.WorkUnits.WithLabelValues("tx").Set(float64(w.TxWork))
	o.m.WorkUnits.WithLabelValues("end").Set(float64(w.EndWork))
	o.m.WorkLimitUnits.WithLabelValues("tx").Set(float64(w.TxWorkLimit))
	o.m.WorkLimitUnits.WithLabelValues("end").Set(float64(w.EndWorkLimit))
	o.m.WrittenBytes.Set(float64(w.Written))
	o.m.WriteLimit.Set(float64(w.WriteLimit))
	for _, s := range w.Carried {
		o.m.Carried.WithLabelValues(s).Inc()
	}
	if w.Starved {
		o.m.Starved.Inc()
	}
}

func (o *observer) truthLag(blockTime int64) {
	for chain, t := range o.truths {
		o.m.TruthBlock.WithLabelValues(chain).Set(float64(t.block))
		o.m.TruthLagSeconds.WithLabelValues(chain).Set(float64(blockTime - t.timestamp))
	}
}

// committed reads, through the app's Query and accessors, what the block
// changed in the committed state.
func (o *observer) committed(ctx context.Context) {
	o.mu.Lock()
	defer o.mu.Unlock()
	q := querier{ctx: ctx, app: o.app}
	if st, ok := q.status(); ok {
		o.m.Height.Set(float64(st.Height))
	}
	for i, id := range o.block.unresolved {
		if sub, ok := q.submission(id); ok {
			o.m.Submissions.WithLabelValues(sub.Track, o.block.unresolvedE[i]).Inc()
		}
	}
	if bs, ok := o.app.(BacklogSource); ok {
		_, queues := bs.Backlog(backlogLimit)
		for _, b := range queues {
			o.m.QueueItems.WithLabelValues(b.Name).Set(float64(b.Items))
			o.m.QueueOldest.WithLabelValues(b.Name).Set(float64(b.Oldest))
		}
	}
	if o.block.scores || !o.started {
		o.started = o.refreshScores(q)
	}
	if rs, ok := o.app.(CheckRunSource); ok {
		o.countRuns(rs.CheckRuns())
	}
	if cs, ok := o.app.(CountSource); ok {
		if c, ok := cs.Counts(); ok {
			o.m.UIDs.Set(float64(c.UIDs))
			o.m.OpenTasks.Set(float64(c.OpenTasks))
			for _, tc := range c.Tracks {
				o.m.TrackOpenTasks.WithLabelValues(tc.Track).Set(float64(tc.OpenTasks))
				o.m.AwaitingReveal.WithLabelValues(tc.Track).Set(float64(tc.AwaitingReveal))
			}
		}
	}
	if !o.tracked {
		o.tracked = o.initTracks(ctx)
	}
	o.block = blockSeen{}
}

// countRuns adds to the CheckTx counters what the app counted since the
// last Commit.
func (o *observer) countRuns(now app.CheckRunStats) {
	last := o.runs
	o.m.CheckTxRuns.Add(float64(now.Runs - last.Runs))
	o.m.CheckTxBatches.WithLabelValues("ok").Add(float64((now.Batches - now.Failed) - (last.Batches - last.Failed)))
	o.m.CheckTxBatches.WithLabelValues("failed").Add(float64(now.Failed - last.Failed))
	o.m.CheckTxBatchedSig.Add(float64(now.Batched - last.Batched))
	o.runs = now
}
