package main

import (
	"context"
	"errors"
	"fmt"

	cfg "github.com/cometbft/cometbft/config"
	cmtlog "github.com/cometbft/cometbft/libs/log"

	"github.com/scoringsubnet/validatord/node/reindex"
)

func init() {
	root.add(&command{name: "reindex", summary: "index a stopped node's blocks again (CometBFT's tx and block-event indexes)", run: runReindex})
}

const reindexUsage = "reindex [--home DIR] [--from H] [--to H] [--all]"

// healQuiet and healLimit bound start's scan: down from the top, until 64
// consecutive heights are whole or 1,000 were looked at.
const healQuiet, healLimit = 64, 1000

// healIndex re-indexes, before the node serves RPC, the last heights whose
// index entries a crash lost (package reindex). A node that indexes nothing
// or into PostgreSQL is left alone. It never stops the node from starting:
// a failure is logged (the hole stays, `validatord reindex` can retry).
func healIndex(conf *cfg.Config, logger cmtlog.Logger) {
	log := logger.With("module", "reindex")
	s, err := reindex.Open(conf)
	if errors.Is(err, reindex.ErrNoIndexer) {
		return
	}
	if err != nil {
		log.Error("could not check the tx index", "err", err)
		return
	}
	defer s.Close()
	missing, err := s.RecentMissing(healQuiet, healLimit)
	if err != nil {
		log.Error("could not check the tx index", "err", err)
		return
	}
	if len(missing) == 0 {
		return
	}
	log.Info("indexing heights again that a stop left unindexed", "heights", len(missing),
		"from", missing[0], "to", missing[len(missing)-1])
	if err := s.Heights(missing); err != nil {
		log.Error("could not index the missing heights; run validatord reindex", "err", err)
	}
}

// runReindex checks the stopped node's heights in [--from, --to] (default:
// the whole block store) and indexes again those whose entries are missing;
// --all indexes every height of the range again.
func runReindex(_ context.Context, env Env, args []string) error {
	fs := newFlags("reindex")
	home := homeFlag(fs)
	from := fs.Int64("from", 1, "first height")
	to := fs.Int64("to", 0, "last height (default: the block store's last)")
	all := fs.Bool("all", false, "index every height of the range again, not only the missing ones")
	pos, ok, err := parseFlags(env, fs, reindexUsage, args)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 0, reindexUsage); err != nil {
		return err
	}
	conf, err := loadConfig(*home)
	if err != nil {
		return err
	}
	s, err := reindex.Open(conf)
	if err != nil {
		return oneLine(fmt.Errorf("%w (is the node stopped?)", err))
	}
	defer s.Close()
	last, err := s.Top()
	if err != nil {
		return oneLine(err)
	}
	if *to == 0 || *to > last {
		*to = last
	}
	var heights []int64
	if *all {
		for h := max(*from, s.Blocks.Base(), 1); h <= *to; h++ {
			heights = append(heights, h)
		}
	} else if heights, err = s.Missing(*from, *to); err != nil {
		return oneLine(err)
	}
	if err := s.Heights(heights); err != nil {
		return oneLine(err)
	}
	fmt.Fprintf(env.Stdout, "{\"from\":%d,\"to\":%d,\"reindexed\":%d}\n", *from, *to, len(heights))
	return s.Close()
}
