package app

import "github.com/scoringsubnet/validatord/app/wire"

// gasChain answers "gaschain/<evm chain id>": the last closed window of an
// EVM chain of chain.gas_chains (not found for any other chain).
func (q *querier) gasChain(args []string) (*wire.GasChainView, *queryError) {
	id, qerr := parseU64("evm chain id", args[0])
	if qerr != nil {
		return nil, qerr
	}
	if !q.chain.HasGasChain(id) {
		return nil, notFound("EVM chain %d is not in chain.gas_chains", id)
	}
	out := &wire.GasChainView{EvmChainID: id, WindowBlocks: q.chain.Gen.Chain.WindowBlocks(id)}
	if gc := q.st.GasChain(id); gc.HasClosed {
		b, p, t := gc.LastClosedBlock, gc.LastMinPrice, gc.LastTimestamp
		out.LastClosedBlock, out.LastMinPrice, out.LastTimestamp = &b, &p, &t
	}
	return out, nil
}
