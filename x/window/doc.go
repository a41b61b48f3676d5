// Package window keeps the subnet's state over time, exactly and in bounded
// memory: each miner's rolling task window with its warm-up
// (subnet-scoring-v1.md), each gas agent's memory array and history over block
// time (gas-agent-evaluation.md), each arena task's baseline over its most
// recent K submissions (agentic-arena-metrics.md), and the epoch that turns
// the tracks' aggregates into capped weights. Validators' reports are settled
// by x/quorum (the 2/3 quorum, the 1/3 deadline rule and the power-weighted
// median), which this package does not need: imports point down, so
// x/window may import x/quorum, never the reverse.
//
// It is pure: block height and block time are arguments, there is no clock,
// storage, randomness or float. Every update is a value method that copies,
// applies, checks its invariants and returns the new value or an error; the
// receiver is never modified, so a failed update leaves no half-changed state.
//
//	p := window.DefaultParams()
//	w, err := window.MinerWindow{}.Push(p, decimal.RequireFromString("0.8"))
//	// w.Mean() = 0.8, w.Aggregate(p) = 0.8 × 1/20 = 0.04 (warm-up)
//
// The rules, their rounding points and the departures from the seeds are in
// docs/scoring.md, section 6.
package window
