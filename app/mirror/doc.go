// Package mirror is the unit of mirror mode (chain.registration = mirror,
// docs/mirror.md §4): AttestMetagraph and BindHotkey, their checks and
// execution, and the end of block's "mirror" step, which makes a snapshot
// final once more than 2/3 of the power attested it and resets the uids
// whose entry changed (membership.Clear). The rules are x/mirror's; this
// package loads their inputs and stores their results, and gives the
// querier its reads (LoadState, LoadEntry, LoadBinding, CurrentSnapshot).
//
// A bound uid is a miner as in pow mode: its tx key's account holds the uid
// (Account.Miner, Account.Uid: the reverse index from tx key to uid) and
// its Miner record names the key, so commits, reveals, scoring and epochs
// run unchanged, under the parent's uid.
//
//	mirror.Init(st, gen)                     // InitChain
//	terr := mirror.Unit.Check(env, tx)       // AttestMetagraph, BindHotkey
//	terr = mirror.Unit.VerifySigs(env, tx)   // after the envelope's signature
//	evs := mirror.Unit.Execute(env, tx)
//	evs, carried := mirror.End(env, meter)   // end of block, "mirror"
package mirror
