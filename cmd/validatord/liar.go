//go:build liar

package main

import (
	"context"
	"fmt"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	cmtlog "github.com/cometbft/cometbft/libs/log"

	"github.com/scoringsubnet/validatord/app"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/node/mempoolconn"
)

// This file is compiled only under the build tag liar, into a test binary
// (make e2e: bin/validatord-liar) that scripts/e2e runs as a lying node: it
// answers every provable-store query (/store/<name>/key) with one byte of
// the value flipped and the proof left as it is, so that a light client
// checking the proof against the header's app hash must refuse the answer.
// Consensus is untouched: blocks, app hashes and every other answer are the
// honest node's. A validatord built without the tag has none of this
// (liar_off.go).

// lyingApp is the application with its provable-store answers altered. It
// forwards the mempool's batched and dry CheckTx, which mempoolconn finds on
// the application it is given.
type lyingApp struct {
	honestApp
}

// honestApp is what start hands CometBFT: the app, or its metrics wrapper.
type honestApp interface {
	abcitypes.Application
	mempoolconn.Checker
	mempoolconn.DryChecker
}

var _ honestApp = (*app.App)(nil)

// lying wraps a in the liar.
func lying(a abcitypes.Application, logger cmtlog.Logger) (abcitypes.Application, error) {
	h, ok := a.(honestApp)
	if !ok {
		return nil, fmt.Errorf("liar build: the application (%T) lacks CheckTxs or CheckTxDry", a)
	}
	logger.Info("LIAR BUILD: every /store/<name>/key answer has one byte of its value flipped; the proof is the honest one")
	return &lyingApp{honestApp: h}, nil
}

// Query answers as the app, then flips the last byte of a provable-store
// value.
func (l *lyingApp) Query(ctx context.Context, req *abcitypes.RequestQuery) (*abcitypes.ResponseQuery, error) {
	resp, err := l.honestApp.Query(ctx, req)
	if err != nil || resp == nil || resp.Code != 0 || len(resp.Value) == 0 {
		return resp, err
	}
	if _, ok := wire.ParseStoreQueryPath(req.Path); !ok {
		return resp, nil
	}
	lie := *resp
	lie.Value = append([]byte(nil), resp.Value...)
	lie.Value[len(lie.Value)-1] ^= 0x01
	return &lie, nil
}
