package metrics

import (
	"errors"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// Namespace prefixes every series.
const Namespace = "validatord"

// Metrics are the node's series. Build them with New (tests) or Default
// (a node process).
type Metrics struct {
	Height          prometheus.Gauge
	FinalizeSeconds prometheus.Histogram
	Txs             *prometheus.CounterVec // msg_type, code

	Submissions *prometheus.CounterVec // track, event
	Pending     *prometheus.GaugeVec   // track

	WorkUnits      *prometheus.GaugeVec // part
	WorkLimitUnits *prometheus.GaugeVec // part
	WrittenBytes   prometheus.Gauge
	WriteLimit     prometheus.Gauge
	Carried        *prometheus.CounterVec // step
	Starved        prometheus.Counter
	QueueItems     *prometheus.GaugeVec // queue
	QueueOldest    *prometheus.GaugeVec // queue

	EpochNumber         prometheus.Gauge
	EpochHeight         prometheus.Gauge
	EpochComputeSeconds prometheus.Gauge
	EpochUnallocated    prometheus.Gauge

	MinerScore     *prometheus.GaugeVec // track, uid
	MinerWeight    *prometheus.GaugeVec // uid
	MinerWeightU16 *prometheus.GaugeVec // uid

	TruthBlock      *prometheus.GaugeVec // evm_chain_id
	TruthLagSeconds *prometheus.GaugeVec // evm_chain_id

	CheckTxRuns       prometheus.Counter
	CheckTxBatches    *prometheus.CounterVec // result
	CheckTxBatchedSig prometheus.Counter

	UIDs           prometheus.Gauge
	OpenTasks      prometheus.Gauge
	TrackOpenTasks *prometheus.GaugeVec // track
	AwaitingReveal *prometheus.GaugeVec // track
}

func gauge(name, help string) prometheus.Gauge {
	return prometheus.NewGauge(prometheus.GaugeOpts{Namespace: Namespace, Name: name, Help: help})
}

func gaugeVec(name, help string, labels ...string) *prometheus.GaugeVec {
	return prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: Namespace, Name: name, Help: help}, labels)
}

func counterVec(name, help string, labels ...string) *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: name, Help: help}, labels)
}

// New builds the series and registers them on reg.
func New(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		Height: gauge("height", "The last committed height."),
		FinalizeSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: Namespace, Name: "finalize_block_seconds",
			Help: "FinalizeBlock's duration (the block's transactions and end of block), measured around the app.", Buckets: prometheus.ExponentialBuckets(0.001, 2, 14)}),
		Txs: counterVec("txs_total", "Transactions of finalized blocks by message type and result code (docs/codes.md).", "msg_type", "code"),

		Submissions: counterVec("submissions_total", "Submission events by track: received (a commit), scored, expired, contested, duplicate, closed (a gas prediction's EVM block closed).", "track", "event"),
		Pending:     gaugeVec("submissions_pending", "Submissions received since this process started that are not settled yet, by track.", "track"),

		WorkUnits:      gaugeVec("block_work_units", "Units of work the last block used: part tx (its transactions) or end (its end of block).", "part"),
		WorkLimitUnits: gaugeVec("block_work_limit_units", "The block's work budget of each part (x/budget.Limits).", "part"),
		WrittenBytes:   gauge("block_written_bytes", "Counted bytes the last block wrote."),
		WriteLimit:     gauge("block_write_limit_bytes", "What a block's transactions and end of block may write (BlockWrites + EndWrites)."),
		Carried:        counterVec("block_carried_total", "Blocks whose end-of-block step carried work to the next block, by step.", "step"),
		Starved:        prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "block_starved_total", Help: "Blocks whose end of block ran starved (a broken bound; expected 0)."}),
		QueueItems:     gaugeVec("carryover_queue_items", "Entries of each end-of-block schedule due by the committed height and not done (counted up to 1000).", "queue"),
		QueueOldest:    gaugeVec("carryover_queue_oldest_due_height", "The height the oldest undone due entry of each schedule fell due at (0: none).", "queue"),

		EpochNumber:         gauge("epoch_number", "The latest epoch's number."),
		EpochHeight:         gauge("epoch_height", "The height the latest epoch was computed at."),
		EpochComputeSeconds: gauge("epoch_compute_seconds", "FinalizeBlock's duration of the last block that computed an epoch, seen by this process."),
		EpochUnallocated:    gauge("epoch_unallocated", "The latest epoch's unallocated weight (0..1)."),

		MinerScore:     gaugeVec("miner_score", "A miner's aggregate on a track (the leaderboard's score); absent when it has none.", "track", "uid"),
		MinerWeight:    gaugeVec("miner_weight", "A uid's weight in the latest epoch (0..1).", "uid"),
		MinerWeightU16: gaugeVec("miner_weight_u16", "A uid's u16 weight in the latest epoch (the parent chain's set_weights value).", "uid"),

		TruthBlock:      gaugeVec("truth_final_evm_block", "The EVM block of the last truth that became final, by EVM chain.", "evm_chain_id"),
		TruthLagSeconds: gaugeVec("truth_lag_seconds", "The last block's time minus the EVM timestamp of the last final truth, by EVM chain.", "evm_chain_id"),

		CheckTxRuns: prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "checktx_runs_total",
			Help: "Runs of CheckTx requests the app answered (mempoolconn: one request each when the node is idle, more under load)."}),
		CheckTxBatches: counterVec("checktx_batches_total", "Runs whose signatures were checked in one batch, by result: ok, or failed (the run's signatures then checked one at a time, and the senders of the bad ones kept out of later batches).", "result"),
		CheckTxBatchedSig: prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "checktx_batched_signatures_total",
			Help: "Signatures CheckTx checked in batches."}),

		UIDs:           gauge("uids_registered", "Uids held by a miner in the committed state."),
		OpenTasks:      gauge("tasks_open", "Posted tasks whose settlement is not done, in the committed state (all tracks)."),
		TrackOpenTasks: gaugeVec("track_tasks_open", "Posted tasks whose settlement is not done, in the committed state, by track (0 on gas, which has no tasks).", "track"),
		AwaitingReveal: gaugeVec("commits_awaiting_reveal", "Commits whose reveal has not come and whose reveal window the chain has not closed, in the committed state, by track.", "track"),
	}
	for _, c := range m.collectors() {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	m.initStatic()
	return m, nil
}

func (m *Metrics) collectors() []prometheus.Collector {
	return []prometheus.Collector{m.Height, m.FinalizeSeconds, m.Txs, m.Submissions, m.Pending, m.WorkUnits, m.WorkLimitUnits,
		m.WrittenBytes, m.WriteLimit, m.Carried, m.Starved, m.QueueItems, m.QueueOldest, m.EpochNumber, m.EpochHeight,
		m.EpochComputeSeconds, m.EpochUnallocated, m.MinerScore, m.MinerWeight, m.MinerWeightU16, m.TruthBlock, m.TruthLagSeconds,
		m.CheckTxRuns, m.CheckTxBatches, m.CheckTxBatchedSig, m.UIDs, m.OpenTasks,
		m.TrackOpenTasks, m.AwaitingReveal}
}

var (
	defaultMu sync.Mutex
	defaultM  = map[string]*Metrics{}
)

// ChainLabel is the label every series of Default carries: the chain id,
// as on CometBFT's own series, so one Prometheus can tell nodes of two
// chains apart.
const ChainLabel = "chain_id"

// Default is the process's set of series for chainID, registered on
// prometheus' default registry with the constant label chain_id: the
// registry CometBFT's instrumentation endpoint serves
// (node.startPrometheusServer gathers prometheus.DefaultGatherer, and its
// own metrics register there through go-kit). Later calls with the same
// chain id return the same series, so a process that starts nodes one
// after another registers once.
func Default(chainID string) (*Metrics, error) {
	defaultMu.Lock()
	defer defaultMu.Unlock()
	if m, ok := defaultM[chainID]; ok {
		return m, nil
	}
	reg := prometheus.WrapRegistererWith(prometheus.Labels{ChainLabel: chainID}, prometheus.DefaultRegisterer)
	m, err := New(reg)
	if err != nil {
		return nil, errors.Join(errors.New("metrics: register on the default registry"), err)
	}
	defaultM[chainID] = m
	return m, nil
}
