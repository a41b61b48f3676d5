// Package governance is the governance unit (docs/governance.md):
// validator and params proposals, approvals and what a passed proposal
// does; the end of block's "governance" step (expired proposals, evidence,
// one step of the queue of approved validator changes, pruning); and the
// chain's rules by height — the validator registry and sets
// (store.KeyValset) and the params (store.KeyParams) — from which the
// shell builds the kernel.Chain in force at a height. The rules of sets and
// changes are x/valset's; the params rules genesis'.
//
//	err := governance.Init(st, gen, initialHeight)           // InitChain
//	var chains governance.ChainCache
//	chain, err := chains.At(st, chainID, height)             // the rules in force
//	terr := governance.Unit.Check(env, tx)                   // proposals, approvals
//	evs := governance.Unit.Execute(env, tx)
//	evs, carried := governance.End(env, meter)               // end of block, "governance"
package governance
