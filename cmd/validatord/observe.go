package main

import (
	"context"
	"time"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	cfg "github.com/cometbft/cometbft/config"
	cmtlog "github.com/cometbft/cometbft/libs/log"

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
// A port it cannot bind is logged and the node runs on without the page, as
// CometBFT does with its Prometheus endpoint: the page is no part of the
// node's work.
func serveLeaderboard(addr string, application *app.App, logger cmtlog.Logger) (stop func()) {
	if addr == "" {
		return func() {}
	}
	srv, err := leaderboard.Listen(addr, application)
	if err != nil {
		logger.Error("leaderboard page not served", "laddr", addr, "err", err, "setting", "app.toml [leaderboard] laddr")
		return func() {}
	}
	logger.Info("leaderboard page", "url", "http://"+srv.Addr()+"/")
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Close(ctx); err != nil {
			logger.Error("leaderboard page close", "err", err)
		}
	}
}
