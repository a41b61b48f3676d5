// Package kernel is what the ABCI shell (package app) and its units share:
// the contract between the shell and the units (app/tasks for the workflow and arena tracks, app/gas for the
// gas track): the chain fixed at genesis (Chain), the block being executed
// (Block), a transaction that passed the envelope checks (Tx), the state
// they work on (Env), and the Track interface the shell's epochs call. It
// also holds what every unit shares: statuses, decimal and proto
// conversions, vote aggregation and the miner windows.
//
//	env := kernel.Env{Chain: chain, St: store.State{O: ov}, Block: &kernel.Block{Height: h, Time: t}}
//	for _, tr := range tracks {
//		score, ok := tr.Aggregate(env, uid)
//	}
package kernel
