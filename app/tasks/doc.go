// Package tasks is the unit of the two task tracks, workflow
// (subnet-scoring-v1.md) and arena (agentic-arena-metrics.md). Both share
// one lifecycle: a validator posts a task, miners submit to it until its
// submission deadline, validators report measurements until its report
// deadline, and a submission settles at a > 2/3 quorum or, at the deadline,
// with more than chain.deadline_quorum of the power and every median
// bracketed by 1/3 of the power on each side (else it expires, or ends
// contested; x/quorum). They differ in the
// measurement, the formula and when they score: a workflow submission
// scores in the transaction that settles it; arena submissions that became
// final in a block score together at its end, against their task's baseline
// as it stood before the block.
//
//	terr := tasks.Check(env, tx)     // PostTask, Submit (workflow, arena), Report
//	evs := tasks.Execute(env, tx)    // after Check passed
//	evs, carried := tasks.SettleDue(env, meter)  // end of block
//	evs = tasks.ScoreArenaBatch(env)             // end of block
package tasks
