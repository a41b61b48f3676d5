// Package kernel is what the ABCI shell (package app) and its units share:
// the contract between the shell and the units (app/tasks for the workflow
// and arena tracks, app/gas for the gas track, app/membership,
// app/mirror, app/governance): the rules in force (Chain), the block being
// executed (Block), a transaction that passed the envelope checks (Tx), the
// state they work on (Env), the Unit interface the shell's route table
// holds (with Verifier for messages that carry their own signatures), the
// EndStep of the shell's end-of-block list, and the Track interface the
// shell's epochs call. It also holds what every unit shares: statuses,
// decimal and proto conversions, formatting, vote aggregation and the
// miner windows.
//
//	env := kernel.Env{Chain: chain, St: store.State{O: ov}, Block: &kernel.Block{Height: h, Time: t}}
//	if terr := unit.Check(env, tx); terr == nil {
//		evs := unit.Execute(env, tx)
//	}
//	for _, tr := range tracks {
//		score, ok := tr.Aggregate(env, uid)
//	}
package kernel
