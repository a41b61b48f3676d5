// Package gas is the unit of the gas track (gas-agent-evaluation.md): miners
// predict the minimum gas price of an EVM block, validators report its truth
// (price and timestamp), and the aggregated truth closes that block for
// every agent of the chain: each agent's 10-window memory and 60 s history
// take the counting prediction (or none), and a full memory gives a
// TotalScore. A block with no priced transaction gets an empty truth: it
// closes the chain like a priced one, but its predictions end unscored and
// no agent's window closes (empty.go). Every open prediction lies within max_prediction_ahead of the
// last closed block, so one close is bounded at genesis
// (genesis.GasCloseBytes). Governance may pause an EVM chain
// (chain.gas_paused): its messages are refused, its open predictions end
// unscored block by block, and a resume closes it up to the window before
// its resume block (pause.go, Transition at the block before a change).
//
//	terr := gas.Check(env, tx)                 // a gas Submit or a Truth
//	evs := gas.Execute(env, tx)
//	evs := gas.SettleDueTruths(env, due, meter) // end of block
//	evs = gas.Transition(env, meter, next.Chain)  // params in force next block
package gas
