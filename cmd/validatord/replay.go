package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/scoringsubnet/validatord/internal/audit"
	"github.com/scoringsubnet/validatord/internal/replay"
)

func init() {
	root.add(&command{name: "replay", summary: "re-execute a stopped node's chain into a fresh app and check every app hash", run: runReplay})
}

const replayUsage = "replay [--home DIR] [--to HEIGHT] [--workdir DIR] [--check-creates]   (the node must be stopped)"

func runReplay(ctx context.Context, env Env, args []string) error {
	fs := newFlags("replay")
	home := homeFlag(fs)
	to := fs.Int64("to", 0, "stop after this height (default: the node's last height)")
	workdir := fs.String("workdir", "", "parent of the temporary state directories (default: the system temp dir)")
	checkCreates := fs.Bool("check-creates", false, "also check that every key a block created (named by an id handed out once) was new; slower")
	pos, ok, err := parseFlags(env, fs, replayUsage, args)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 0, replayUsage); err != nil {
		return err
	}
	if *to < 0 {
		return fmt.Errorf("--to: %d, want a height >= 1 (or 0 for the last)", *to)
	}
	src, err := openReplaySource(*home)
	if err != nil {
		return err
	}
	defer src.Close()
	run := audit.Replay
	if *checkCreates {
		run = audit.ReplayCheckingCreates
	}
	sum, err := run(ctx, src, replay.Options{To: *to, WorkDir: *workdir, Progress: env.Stderr})
	var mm *audit.Mismatch
	if errors.As(err, &mm) {
		if perr := printJSON(env.Stdout, mm); perr != nil {
			return errors.Join(err, perr)
		}
		return err
	}
	if err != nil {
		return oneLine(err)
	}
	return printJSON(env.Stdout, sum)
}

// openReplaySource opens the stores of a stopped node's home, read-only,
// and refuses a genesis.json that is not the one the chain began with.
func openReplaySource(home string) (*replay.Source, error) {
	conf, err := loadConfig(home)
	if err != nil {
		return nil, err
	}
	src, err := replay.OpenSource(conf)
	if err != nil {
		return nil, oneLine(err)
	}
	// A genesis.json edited after the chain began would fail at height 0
	// with a diff of the whole state; name the changed fields instead.
	if err := replay.CheckGenesis(conf.GenesisFile(), src.Stored, src.Genesis, nil); err != nil {
		return nil, oneLine(errors.Join(err, src.Close()))
	}
	return src, nil
}
