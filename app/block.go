package app

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/track"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/x/budget"
)

// blockResult is one block executed into an overlay, awaiting Commit.
type blockResult struct {
	height    int64
	overlay   *store.Overlay
	lanes     store.Lanes
	appHash   []byte
	txResults []*abcitypes.ExecTxResult
	events    []abcitypes.Event
	rejected  int
	carried   []string // end-of-block steps that carried work to the next block
}

// executeBlock runs the block's transactions in order, each validated
// against the state left by the ones before it and applied through its own
// overlay (a rejected transaction leaves nothing behind, not even its
// nonce), then the end of block, then the app hash over the full state.
func (a *App) executeBlock(height, time int64, txs [][]byte) *blockResult {
	base, baseLanes := a.base()
	bo := store.NewOverlay(base)
	blk := &track.Block{Height: height, Time: time}
	m := budget.NewMeter(a.limits, bo)
	res := &blockResult{height: height, overlay: bo, txResults: make([]*abcitypes.ExecTxResult, len(txs))}
	for i, raw := range txs {
		res.txResults[i] = a.deliverTx(bo, raw, blk, m)
		if res.txResults[i].Code != wire.CodeOK {
			res.rejected++
		}
	}
	res.events, res.carried = a.endBlock(a.env(bo, blk), m)
	res.lanes = store.ApplyOverlay(baseLanes, bo, base)
	res.appHash = res.lanes.Sum()
	return res
}

// env is the track units' view of the overlay o in block blk.
func (a *App) env(o *store.Overlay, blk *track.Block) track.Env {
	return track.Env{Chain: a.chain, St: store.State{O: o}, Block: blk}
}

// deliverTx validates and applies one transaction inside bo. In a block
// (blk.Mempool unset) a transaction that would take the block's writes past
// the meter's budget is rejected; in CheckTx one whose own writes could fit
// no block is.
func (a *App) deliverTx(bo *store.Overlay, raw []byte, blk *track.Block, m *budget.Meter) *abcitypes.ExecTxResult {
	to := store.NewOverlay(bo)
	env := a.env(to, blk)
	tx, terr := a.validate(env, raw)
	if terr != nil {
		return txResult(terr)
	}
	// execute may queue arena submissions in blk; a rejection must take
	// them back with the tx's writes.
	queued := len(blk.ArenaBatch)
	evs := a.execute(env, tx)
	if blk.Mempool && !m.TxAlone(to.Size()) {
		return txResult(wire.Reject(wire.CodeBlockFull, "the transaction alone writes more than a block may; no block can include it"))
	}
	if !blk.Mempool && !m.TxFits(to.Size()) {
		blk.ArenaBatch = blk.ArenaBatch[:queued]
		return txResult(wire.Reject(wire.CodeBlockFull, "the block's write budget is spent; send the transaction again"))
	}
	to.MergeInto(bo)
	return &abcitypes.ExecTxResult{Code: wire.CodeOK, Events: evs}
}

func txResult(terr *wire.TxError) *abcitypes.ExecTxResult {
	return &abcitypes.ExecTxResult{Code: terr.Code, Log: terr.Error(), Codespace: wire.Codespace}
}
