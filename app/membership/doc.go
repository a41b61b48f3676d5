// Package membership is the unit of pow-mode membership (docs/membership.md):
// RegisterMiner's checks and execution (a uid from the free ones, or a
// replacement out of the last epoch's prune queue), DeregisterMiner, Serve
// (a miner's artifact address, in either registration mode), the
// end of block's record of block hashes and difficulty, and the prune
// queue each epoch rewrites. The rules are x/membership's; this package
// loads their inputs and stores their results. Clear, which takes a uid
// from its owner, is shared with app/mirror's resets.
//
//	membership.Init(st, gen, initialHeight, appStateBytes) // InitChain
//	terr := membership.Unit.Check(env, tx)                 // RegisterMiner, DeregisterMiner, Serve
//	evs := membership.Unit.Execute(env, tx)
//	evs, _ = membership.End(env, meter)                     // end of block, "registration"
//	membership.WritePruneQueue(env, epoch.U16)              // at an epoch
package membership
