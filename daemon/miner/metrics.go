package miner

import (
	"context"
	"net"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/scoringsubnet/validatord/internal/promserve"
)

// Metrics are the daemon's Prometheus series (docs/metrics.md).
type Metrics struct {
	reg      *prometheus.Registry
	commits  *prometheus.CounterVec
	reveals  *prometheus.CounterVec
	misses   *prometheus.CounterVec
	outcomes *prometheus.CounterVec
	score    *prometheus.GaugeVec
	pending  prometheus.Gauge
	height   prometheus.Gauge
}

// Tracks and the reasons of misses are known up front, so that every
// series exists from the start (a counter absent until its first event
// reads as "no data", not as 0).
var (
	tracks       = []string{"workflow", "arena", "gas"}
	missReasons  = []string{MissSolver, MissPrice, MissCommitRefused, MissRevealClosed, MissTooLate}
	outcomeNames = []string{"scored", "counted", "late", "unscored", "unrevealed", "expired", "duplicate", "contested", "failed"}
)

// Reasons a commit or reveal that was due did not happen.
const (
	MissSolver        = "solver"         // the solver failed on every attempt
	MissPrice         = "price"          // the price command or feed gave no price
	MissCommitRefused = "commit_refused" // the chain refused the commit entry
	MissRevealClosed  = "reveal_closed"  // the reveal window closed before the reveal
	MissTooLate       = "too_late"       // the task's submit deadline came before the solver finished
)

// NewMetrics registers the series in a registry of their own.
func NewMetrics() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	f := func(name, help string, labels ...string) *prometheus.CounterVec {
		v := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
		m.reg.MustRegister(v)
		return v
	}
	m.commits = f("validatord_miner_daemon_commits_total", "commit entries the chain applied, by track", "track")
	m.reveals = f("validatord_miner_daemon_reveals_total", "reveal entries the chain applied, by track", "track")
	m.misses = f("validatord_miner_daemon_misses_total", "commits or reveals that were due and did not happen, by track and reason", "track", "reason")
	m.outcomes = f("validatord_miner_daemon_outcomes_total", "the final statuses of the daemon's submissions, by track and status", "track", "status")
	m.score = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "validatord_miner_daemon_score", Help: "the uid's aggregate score per track (the miner query's)"}, []string{"track"})
	m.pending = prometheus.NewGauge(prometheus.GaugeOpts{Name: "validatord_miner_daemon_pending_reveals", Help: "commits stored and not revealed yet"})
	m.height = prometheus.NewGauge(prometheus.GaugeOpts{Name: "validatord_miner_daemon_height", Help: "the chain height the daemon last read"})
	m.reg.MustRegister(m.score, m.pending, m.height)
	for _, t := range tracks {
		m.commits.WithLabelValues(t)
		m.reveals.WithLabelValues(t)
		for _, r := range missReasons {
			m.misses.WithLabelValues(t, r)
		}
		for _, o := range outcomeNames {
			m.outcomes.WithLabelValues(t, o)
		}
	}
	return m
}

// Handler serves the series.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Serve serves /metrics on ln until ctx ends.
func (m *Metrics) Serve(ctx context.Context, ln net.Listener) error {
	return promserve.Serve(ctx, ln, m.reg)
}
