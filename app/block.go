package app

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/scoringsubnet/validatord/app/wire"
)

// blockResult is one block executed into an overlay, awaiting Commit.
type blockResult struct {
	height    int64
	overlay   *overlay
	lanes     lanes
	appHash   []byte
	txResults []*abcitypes.ExecTxResult
	events    []abcitypes.Event
	rejected  int
}

// executeBlock runs the block's transactions in order, each validated
// against the state left by the ones before it and applied through its own
// overlay (a rejected transaction leaves nothing behind, not even its
// nonce), then the end of block, then the app hash over the full state.
func (a *App) executeBlock(height, time int64, txs [][]byte) *blockResult {
	base, baseLanes := a.base()
	bo := newOverlay(base)
	bs := &blockState{blockCtx: blockCtx{height: height, time: time}}
	res := &blockResult{height: height, overlay: bo, txResults: make([]*abcitypes.ExecTxResult, len(txs))}
	for i, raw := range txs {
		res.txResults[i] = a.deliverTx(bo, raw, bs, blockWriteBudget)
		if res.txResults[i].Code != wire.CodeOK {
			res.rejected++
		}
	}
	res.events = a.endBlock(state{bo}, bs)
	res.lanes = applyOverlay(baseLanes, bo, base)
	res.appHash = res.lanes.sum()
	return res
}

// deliverTx validates and applies one transaction inside bo. With a budget
// > 0 a transaction that would take bo's writes past it is rejected; with a
// budget < 0 (CheckTx) one whose own writes exceed −budget is rejected.
func (a *App) deliverTx(bo *overlay, raw []byte, bs *blockState, budget int) *abcitypes.ExecTxResult {
	to := newOverlay(bo)
	st := state{to}
	ct, terr := a.validate(st, raw, bs.blockCtx)
	if terr != nil {
		return txResult(terr)
	}
	// execute may queue arena submissions in bs; a rejection must take
	// them back with the tx's writes.
	queued := len(bs.arenaBatch)
	evs := a.execute(st, ct, bs)
	if budget < 0 && to.size > -budget {
		return txResult(wire.Reject(wire.CodeBlockFull, "the transaction alone writes more than a block may; no block can include it"))
	}
	if budget > 0 && bo.size+to.size > budget {
		bs.arenaBatch = bs.arenaBatch[:queued]
		return txResult(wire.Reject(wire.CodeBlockFull, "the block's write budget is spent; send the transaction again"))
	}
	to.mergeInto(bo)
	return &abcitypes.ExecTxResult{Code: wire.CodeOK, Events: evs}
}

func txResult(terr *wire.TxError) *abcitypes.ExecTxResult {
	return &abcitypes.ExecTxResult{Code: terr.Code, Log: terr.Error(), Codespace: wire.Codespace}
}
