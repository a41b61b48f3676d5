package query

import "github.com/scoringsubnet/validatord/app/wire"

// gasChain answers "gaschain/<evm chain id>": the last closed window of an
// EVM chain of chain.gas_chains (not found for any other chain), and
// whether governance paused it or where it resumed.
func (q *View) gasChain(args []string) (*wire.GasChainView, *Error) {
	id, qerr := parseU64("evm chain id", args[0])
	if qerr != nil {
		return nil, qerr
	}
	if !q.Chain.HasGasChain(id) {
		return nil, NotFound("EVM chain %d is not in chain.gas_chains", id)
	}
	out := &wire.GasChainView{EvmChainID: id, WindowBlocks: q.Chain.Gen.Chain.WindowBlocks(id)}
	if gc := q.St.GasChain(id); gc.HasClosed {
		b, p, t := gc.LastClosedBlock, gc.LastMinPrice, gc.LastTimestamp
		out.LastClosedBlock, out.LastMinPrice, out.LastTimestamp = &b, &p, &t
	}
	if p, ok := q.Chain.Gen.Chain.GasPauseOf(id); ok {
		out.Paused = p.ResumeBlock == 0
		if p.ResumeBlock > 0 {
			out.ResumeBlock = &p.ResumeBlock
		}
	}
	return out, nil
}
