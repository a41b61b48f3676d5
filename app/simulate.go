package app

import (
	"context"
	"encoding/json"
	"fmt"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/query"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/x/budget"
)

// simulate answers the query "simulate" (RequestQuery.Data: a signed
// transaction): what CheckTx would answer for it now, against the same
// pending state, without keeping anything — a dry run (`validatord tx
// --dry-run`). CometBFT's /check_tx cannot be one: it calls the app's
// CheckTx, which counts an accepted tx's nonce as pending until the next
// commit, so the real tx sent after it would be refused as a used nonce.
// It holds CheckTx's lock for one transaction's validation, as CheckTx does.
func (a *App) simulate(raw []byte) (*wire.SimulateView, *query.Error) {
	if len(raw) == 0 {
		return nil, query.BadRequest("simulate: the query's data must hold a signed transaction (validatord tx --dry-run sends it)")
	}
	a.checkMu.Lock()
	defer a.checkMu.Unlock()
	if a.chain == nil {
		return nil, query.NotFound("the chain is not initialised yet")
	}
	r, height := a.dryCheck(raw)
	v := &wire.SimulateView{Code: r.Code, Name: wire.CodeName(r.Code), Log: r.Log, Height: height,
		Data: checkTxResponse(store.State{O: a.check}, raw, r).Data}
	for _, ev := range r.Events {
		e := wire.SimulatedEvent{Type: ev.Type}
		for _, at := range ev.Attributes {
			e.Attributes = append(e.Attributes, wire.SimulatedAttribute{Key: at.Key, Value: at.Value})
		}
		v.Events = append(v.Events, e)
	}
	return v, nil
}

// dryCheck runs CheckTx's validation of raw on a scratch copy of the
// check state, which it drops, and returns the result and the height it
// was checked for. Called with checkMu held and the chain initialised.
func (a *App) dryCheck(raw []byte) (*abcitypes.ExecTxResult, int64) {
	blk := &kernel.Block{Height: a.nextHeight(), Time: a.time, Mempool: true, Chain: a.chain}
	scratch := store.NewOverlay(a.check) // dropped: the check state stays as it was
	return a.deliverTx(scratch, raw, blk, budget.NewMeter(a.limits, scratch)), blk.Height
}

// CheckTxDry answers as CheckTx would now, keeping nothing: the check state
// and the mempool's pending nonces stay as they were. mempoolconn gives it
// CometBFT's synchronous CheckTx, which only the /check_tx RPC calls: with
// CheckTx itself there, anyone who can reach the RPC could hold a copy of a
// sender's broadcast tx as pending without it entering the mempool, and
// the real one would be refused as nonce_used on this node
// (TestCheckTxRPCKeepsNothing).
func (a *App) CheckTxDry(_ context.Context, req *abcitypes.RequestCheckTx) (*abcitypes.ResponseCheckTx, error) {
	a.checkMu.Lock()
	defer a.checkMu.Unlock()
	if a.chain == nil {
		return &abcitypes.ResponseCheckTx{Code: wire.CodeInternal, Log: errNotInitialised.Error(), Codespace: wire.Codespace}, nil
	}
	r, _ := a.dryCheck(req.Tx)
	return checkTxResponse(store.State{O: a.check}, req.Tx, r), nil
}

// answerSimulate fills a query response with simulate's answer.
func (a *App) answerSimulate(resp *abcitypes.ResponseQuery, raw []byte) (out *abcitypes.ResponseQuery) {
	defer func() {
		if r := recover(); r != nil { // as every query: never a panic
			resp.Code, resp.Log, resp.Value = wire.QueryInternal, fmt.Sprintf("simulate failed: %v", r), nil
			out = resp
		}
	}()
	v, qerr := a.simulate(raw)
	if qerr != nil {
		resp.Code, resp.Log = qerr.Code, qerr.Msg
		return resp
	}
	bz, err := json.Marshal(v)
	if err != nil {
		resp.Code, resp.Log = wire.QueryInternal, err.Error()
		return resp
	}
	resp.Height, resp.Value = v.Height-1, bz
	return resp
}
