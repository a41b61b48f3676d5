// Package promserve serves Prometheus series at /metrics for the
// sidecars and daemons (the oracle, `miner run`, `validator run`), each on
// a registry of its own, until their context ends.
package promserve
