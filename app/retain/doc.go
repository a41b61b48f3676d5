// Package retain is state retention (docs/retention.md): settled tasks
// with their submissions, receipts and index entries, ended truth rounds
// with the gas predictions their close judged, and epochs are deleted
// chain.retain_state_blocks after the height they were settled, closed or
// written, identically on every node, in bounded batches.
//
// The track units schedule an item when it is done with (one entry of the
// store.DueRetire schedule at that height, whatever retain_state_blocks
// is, so that a chain that turns retention on later also retires what it
// settled before); the end of block's last step deletes what is due under
// the value in force at that height, asking the meter before each record
// and carrying the rest, mid-task when needed, to the next blocks.
//
//	retain.Task(st, h, taskID)                  // tasks.SettleDue, settlement done
//	retain.Round(st, h, chain, block, subIDs)   // gas close, or a round ended expired or contested
//	retain.Epoch(st, h, n)                      // an epoch written
//	evs, carried := retain.Due(env, meter)      // end of block, last step
//
// Miner records, windows, gas agents and chains, baselines of live tasks,
// the prune queue and everything governance keeps are live state: retain
// never touches them.
package retain
