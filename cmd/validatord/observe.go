package main

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"
	cfg "github.com/cometbft/cometbft/config"

	"github.com/scoringsubnet/validatord/app"
	"github.com/scoringsubnet/validatord/metrics"
)

// observed is the application CometBFT calls: the app itself, or, with
// config.toml [instrumentation] prometheus = true, the app wrapped by
// package metrics, whose series CometBFT's endpoint then serves beside its
// own (docs/metrics.md).
func observed(conf *cfg.Config, application *app.App) (abcitypes.Application, error) {
	if !conf.Instrumentation.Prometheus {
		return application, nil
	}
	m, err := metrics.Default()
	if err != nil {
		return nil, err
	}
	return metrics.Wrap(application, m), nil
}
