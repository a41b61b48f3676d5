package oracle

import (
	"context"
	"net"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/scoringsubnet/validatord/internal/promserve"
)

// Metrics are the oracle's own Prometheus series (docs/metrics.md), in the
// node's namespace; a nil *Metrics records nothing.
type Metrics struct {
	reg        *prometheus.Registry
	evmHead    *prometheus.GaugeVec   // evm_chain_id
	lastTruth  *prometheus.GaugeVec   // evm_chain_id
	lagBlocks  *prometheus.GaugeVec   // evm_chain_id
	rpcErrors  *prometheus.CounterVec // evm_chain_id, endpoint, kind
	endpointUp *prometheus.GaugeVec   // evm_chain_id, endpoint
	windows    *prometheus.CounterVec // evm_chain_id, outcome
	deepReorgs *prometheus.CounterVec // evm_chain_id
}

// metricsNamespace is the node's (node/metrics.Namespace): one prefix for
// everything a validator runs.
const metricsNamespace = "validatord"

// NewMetrics makes the series on a registry of their own (Serve serves it).
func NewMetrics() *Metrics {
	gv := func(name, help string, labels ...string) *prometheus.GaugeVec {
		return prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: metricsNamespace, Subsystem: "oracle", Name: name, Help: help}, labels)
	}
	cv := func(name, help string, labels ...string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: metricsNamespace, Subsystem: "oracle", Name: name, Help: help}, labels)
	}
	m := &Metrics{
		reg:        prometheus.NewRegistry(),
		evmHead:    gv("evm_head", "The last EVM head the oracle read.", "evm_chain_id"),
		lastTruth:  gv("last_truth_evm_block", "The first EVM block of the last window whose truth this oracle sent (or found on chain).", "evm_chain_id"),
		lagBlocks:  gv("lag_blocks", "The EVM head minus the last block of the last window the oracle finished.", "evm_chain_id"),
		rpcErrors:  cv("rpc_errors_total", "Failed calls by endpoint (evm, node) and kind (timeout, refused, garbage, wrong_chain, rpc_error, other).", "evm_chain_id", "endpoint", "kind"),
		endpointUp: gv("endpoint_up", "1 while the endpoint's last call answered, 0 while it fails.", "evm_chain_id", "endpoint"),
		windows:    cv("windows_total", "Windows finished, by outcome (sent, already_reported, closed, empty, refused, resent).", "evm_chain_id", "outcome"),
		deepReorgs: cv("deep_reorgs_total", "Reorgs of the EVM chain that replaced blocks this oracle had reported (deeper than --confirmations); their truths are not sent again.", "evm_chain_id"),
	}
	m.reg.MustRegister(m.evmHead, m.lastTruth, m.lagBlocks, m.rpcErrors, m.endpointUp, m.windows, m.deepReorgs)
	return m
}

// Registry is where the series are registered.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Serve serves /metrics on ln until ctx ends.
func (m *Metrics) Serve(ctx context.Context, ln net.Listener) error {
	return promserve.Serve(ctx, ln, m.reg)
}

// known drops the endpoint_up series of evm_chain_id 0, recorded before
// the endpoint's chain id was known (the counters keep theirs).
func (m *Metrics) known() {
	if m != nil {
		m.endpointUp.DeletePartialMatch(prometheus.Labels{"evm_chain_id": "0"})
	}
}

func chainLabel(id uint64) string { return strconv.FormatUint(id, 10) }

// head records the EVM head read and the lag behind it of the last
// finished window (done), if any.
func (m *Metrics) head(id, head uint64, done *uint64) {
	if m == nil {
		return
	}
	m.evmHead.WithLabelValues(chainLabel(id)).Set(float64(head))
	if done != nil && head >= *done {
		m.lagBlocks.WithLabelValues(chainLabel(id)).Set(float64(head - *done))
	}
}

func (m *Metrics) rpcError(id uint64, endpoint string, kind ErrKind) {
	if m != nil {
		m.rpcErrors.WithLabelValues(chainLabel(id), endpoint, string(kind)).Inc()
	}
}

func (m *Metrics) up(id uint64, endpoint string, up bool) {
	if m != nil {
		v := 0.0
		if up {
			v = 1
		}
		m.endpointUp.WithLabelValues(chainLabel(id), endpoint).Set(v)
	}
}

// window records a finished window: its outcome, the lag behind head and,
// for a truth on chain, its block.
func (m *Metrics) window(id uint64, r Report) {
	if m == nil {
		return
	}
	l := chainLabel(id)
	m.windows.WithLabelValues(l, outcomeLabel(r.Outcome)).Inc()
	switch r.Outcome {
	case Sent, Resent, AlreadyReported:
		m.lastTruth.WithLabelValues(l).Set(float64(r.Truth.Window.First))
	}
	if last := r.Truth.Window.Last(); r.Head >= last {
		m.lagBlocks.WithLabelValues(l).Set(float64(r.Head - last))
	}
}

// deepReorg counts a reorg past the blocks the oracle reported.
func (m *Metrics) deepReorg(id uint64) {
	if m != nil {
		m.deepReorgs.WithLabelValues(chainLabel(id)).Inc()
	}
}

func outcomeLabel(o Outcome) string {
	if o == AlreadyReported {
		return "already_reported"
	}
	return string(o)
}
