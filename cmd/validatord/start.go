package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync/atomic"

	"github.com/cometbft/cometbft/libs/service"
	"github.com/cometbft/cometbft/store"

	"github.com/scoringsubnet/validatord/app"
	"github.com/scoringsubnet/validatord/node/appconfig"
)

func init() {
	root.add(&command{name: "start", summary: "run the validator node (CometBFT with the app in-process)", run: runStart})
}

const startUsage = "start [--home DIR]"

// runStart checks every file of the home and the consensus params of its
// state database, opens the app, starts CometBFT with the app behind a local
// client, and on SIGINT/SIGTERM (ctx) stops the node, then closes the app.
func runStart(ctx context.Context, env Env, args []string) error {
	fs := newFlags("start")
	home := homeFlag(fs)
	pos, ok, err := parseFlags(env, fs, startUsage, args)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 0, startUsage); err != nil {
		return err
	}
	files, err := loadNodeFiles(*home)
	if err != nil {
		return err
	}
	if err := checkStoredParams(files.conf); err != nil {
		return err
	}
	logger, err := newLogger(files.conf, env.Stderr)
	if err != nil {
		return err
	}
	nc, err := appconfig.Load(*home)
	if err != nil {
		return oneLine(err)
	}
	durability, err := app.ParseDurability(nc.Durability)
	if err != nil {
		return oneLine(err)
	}
	healIndex(files.conf, logger) // before the node serves RPC: /tx finds what a crash left unindexed
	application, err := app.New(app.Config{
		DataDir:              appDataDir(*home),
		Logger:               logger.With("module", "app"),
		CrashPoint:           os.Getenv(envCrashAt),
		KeepVersions:         nc.KeepVersions,
		Snapshots:            app.SnapshotConfig{Dir: snapshotDir(*home), Interval: nc.SnapshotInterval, KeepRecent: nc.SnapshotKeepRecent},
		RetainBlocks:         nc.RetainBlocks,
		Durability:           durability,
		EvidenceMaxAgeBlocks: files.genDoc.ConsensusParams.Evidence.MaxAgeNumBlocks,
	})
	if err != nil {
		return oneLine(err) // app.New's errors begin with "app: " already
	}
	if err := checkGenesisPinned(files, application.StoredGenesisHash()); err != nil {
		return errors.Join(err, application.Close())
	}
	abciApp, err := observed(files.conf, files.genDoc.ChainID, application)
	if err == nil {
		abciApp, err = lying(abciApp, logger) // the app itself but in the e2e liar build
	}
	if err != nil {
		return oneLine(errors.Join(err, application.Close()))
	}
	// The page binds before CometBFT starts, so a taken port stops start
	// before the node has done anything.
	var blocks atomic.Pointer[store.BlockStore]
	stopPage, err := serveLeaderboard(nc.LeaderboardAddr, application, &blocks, logger.With("module", "leaderboard"))
	if err != nil {
		return oneLine(errors.Join(err, application.Close()))
	}
	n, dbs, err := newNode(files, abciApp, logger, nc.ConcurrentCheckTx, nc.CheckTxRuns)
	if err != nil {
		stopPage()
		return oneLine(errors.Join(fmt.Errorf("node: %w", err), application.Close()))
	}
	if err := n.Start(); err != nil {
		stopPage()
		dbs.closeAll()
		return oneLine(errors.Join(fmt.Errorf("node start: %w", err), application.Close()))
	}
	blocks.Store(n.BlockStore()) // the page's status line reads block times from here on
	select {
	case <-ctx.Done():
		logger.Info("stopping the node", "reason", "signal")
	case <-n.Quit():
	}
	stopPage()
	stopErr := n.Stop()
	if errors.Is(stopErr, service.ErrAlreadyStopped) {
		stopErr = nil
	}
	n.Wait()
	if st := application.CheckRuns(); st.Runs > 0 {
		logger.Info("CheckTx runs since start", "runs", st.Runs, "batches", st.Batches, "signatures_batched", st.Batched,
			"batches_failed", st.Failed, "checks", st.Checks, "rechecks", st.Rechecks)
	}
	dbs.closeAll()
	if err := application.Close(); err != nil {
		return fmt.Errorf("app close: %w", err)
	}
	if stopErr != nil {
		return fmt.Errorf("node stop: %w", stopErr)
	}
	return nil
}
