package main

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	cfg "github.com/cometbft/cometbft/config"
	cmtlog "github.com/cometbft/cometbft/libs/log"
	"github.com/cometbft/cometbft/store"

	"github.com/scoringsubnet/validatord/app"
	"github.com/scoringsubnet/validatord/node/leaderboard"
	"github.com/scoringsubnet/validatord/node/metrics"
)

// observed is the application CometBFT calls: the app itself, or, with
// config.toml [instrumentation] prometheus = true, the app wrapped by
// package metrics, whose series CometBFT's endpoint then serves beside its
// own (docs/metrics.md), labelled with the chain id as CometBFT labels its
// own.
func observed(conf *cfg.Config, chainID string, application *app.App) (abcitypes.Application, error) {
	if !conf.Instrumentation.Prometheus {
		return application, nil
	}
	m, err := metrics.Default(chainID)
	if err != nil {
		return nil, err
	}
	return metrics.Wrap(application, m), nil
}

// serveLeaderboard serves the leaderboard page of application on addr
// (app.toml [leaderboard] laddr; "" serves none) and returns what stops it.
// A port it cannot bind fails start with an error that names the address
// and the setting to change: the default port is the same on every node of
// a machine, and a page that quietly went missing (one log line, as
// CometBFT does with its Prometheus endpoint) was only found by whoever
// opened it.
func serveLeaderboard(addr string, application *app.App, blocks *atomic.Pointer[store.BlockStore], logger cmtlog.Logger) (stop func(), err error) {
	if addr == "" {
		return func() {}, nil
	}
	srv, err := leaderboard.Listen(addr, application, leaderboard.Options{Block: blockTime(blocks)})
	if err != nil {
		return nil, fmt.Errorf("leaderboard page: cannot listen on %s (%w): another node on this machine may have it; "+
			"set app.toml [leaderboard] laddr to a free loopback host:port, or \"\" to serve no page", addr, err)
	}
	logger.Info("leaderboard page", "url", "http://"+srv.Addr()+"/")
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Close(ctx); err != nil {
			logger.Error("leaderboard page close", "err", err)
		}
	}, nil
}

// blockTime reads a block's time from the node's block store, for the
// page's status line (the app's state keeps no block time). The page is
// served before the node opens its block store (so that a taken port stops
// start first); until then there is no time to show.
func blockTime(blocks *atomic.Pointer[store.BlockStore]) func(context.Context, int64) (time.Time, error) {
	return func(_ context.Context, height int64) (time.Time, error) {
		bs := blocks.Load()
		if bs == nil {
			return time.Time{}, fmt.Errorf("the block store is not open yet")
		}
		meta := bs.LoadBlockMeta(height)
		if meta == nil {
			return time.Time{}, fmt.Errorf("no block at height %d in the block store", height)
		}
		return meta.Header.Time, nil
	}
}
