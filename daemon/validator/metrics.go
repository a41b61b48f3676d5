package validator

import (
	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the daemon's Prometheus series (docs/metrics.md), namespace
// validatord, subsystem validator, on a registry of their own. A nil
// *Metrics records nothing.
type Metrics struct {
	reg            *prometheus.Registry
	reports        *prometheus.CounterVec // track, outcome
	fetchFailures  *prometheus.CounterVec // reason
	measureFails   *prometheus.CounterVec // reason
	conflicts      prometheus.Counter
	tasksPosted    *prometheus.CounterVec // track
	pendingReports prometheus.Gauge
}

// Report outcomes (the outcome label of validatord_validator_reports_total).
const (
	// OutcomeReported: the chain took a measurement the command produced.
	OutcomeReported = "reported"
	// OutcomeNoArtifact: the chain took the no-usable-artifact measurement.
	OutcomeNoArtifact = "no_artifact"
	// OutcomeRefused: the chain refused the report for good (its entry's
	// code: the submission settled, its window closed …).
	OutcomeRefused = "refused"
	// OutcomeMissed: no report of this validator reached the chain in time
	// (the command kept failing, or the sends did not land by the margin).
	OutcomeMissed = "missed"
)

// NewMetrics makes the series on a registry of their own.
func NewMetrics() *Metrics {
	opts := func(name, help string) prometheus.Opts {
		return prometheus.Opts{Namespace: "validatord", Subsystem: "validator", Name: name, Help: help}
	}
	m := &Metrics{
		reg:            prometheus.NewRegistry(),
		reports:        prometheus.NewCounterVec(prometheus.CounterOpts(opts("reports_total", "Reports finished, by track and outcome (reported, no_artifact, refused, missed).")), []string{"track", "outcome"}),
		fetchFailures:  prometheus.NewCounterVec(prometheus.CounterOpts(opts("fetch_failures_total", "Failed artifact fetches, by reason (no_address, bad_address, unreachable, status, too_large, timeout, mismatch).")), []string{"reason"}),
		measureFails:   prometheus.NewCounterVec(prometheus.CounterOpts(opts("measure_failures_total", "Failed runs of the measurement command, by reason (start, exit, timeout, output_too_large, bad_output).")), []string{"reason"}),
		conflicts:      prometheus.NewCounter(prometheus.CounterOpts(opts("signrec_conflicts_total", "Measurements the signing record refused because another one of the same submission was signed before (expected 0)."))),
		tasksPosted:    prometheus.NewCounterVec(prometheus.CounterOpts(opts("tasks_posted_total", "Tasks the daemon posted, by track.")), []string{"track"}),
		pendingReports: prometheus.NewGauge(prometheus.GaugeOpts(opts("pending", "Submissions with an open report window that this validator has not reported yet, at the last poll."))),
	}
	m.reg.MustRegister(m.reports, m.fetchFailures, m.measureFails, m.conflicts, m.tasksPosted, m.pendingReports)
	return m
}

// Registry is where the series are registered.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

func (m *Metrics) report(track, outcome string) {
	if m != nil {
		m.reports.WithLabelValues(track, outcome).Inc()
	}
}

func (m *Metrics) fetchFailure(reason string) {
	if m != nil {
		m.fetchFailures.WithLabelValues(reason).Inc()
	}
}

func (m *Metrics) measureFailure(reason string) {
	if m != nil {
		m.measureFails.WithLabelValues(reason).Inc()
	}
}

func (m *Metrics) conflict() {
	if m != nil {
		m.conflicts.Inc()
	}
}

func (m *Metrics) posted(track string) {
	if m != nil {
		m.tasksPosted.WithLabelValues(track).Inc()
	}
}

func (m *Metrics) pending(n int) {
	if m != nil {
		m.pendingReports.Set(float64(n))
	}
}
