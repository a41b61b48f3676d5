// Package metrics exports what a validatord node does as Prometheus series
// (namespace validatord), served on CometBFT's instrumentation endpoint
// (config.toml [instrumentation] prometheus = true, prometheus_listen_addr).
//
// It watches the application from outside: Wrap forwards every ABCI call to
// the app unchanged and observes the requests and responses (transactions by
// message type and result code, the scoring events, FinalizeBlock's
// duration), then after each Commit reads what it needs through the app's
// own Query and its read-only accessors (app.App.PendingWork, app.App.Backlog,
// app.App.Counts).
// Nothing here runs inside block execution, so consensus never depends on it.
//
//	m, err := metrics.Default(chainID) // registered once per chain id on prometheus' default registry, labelled chain_id
//	...
//	node.NewNode(..., mempoolconn.NewClientCreator(metrics.Wrap(application, m), mempoolconn.SharedLock, true), ...)
//
// docs/metrics.md lists every series.
package metrics
