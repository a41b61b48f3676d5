// Command demo drives a short load through a validatord node's RPC for every
// track and prints each track's leaderboard and the epoch weights. Miners
// commit to their payloads, then reveal them once the commit window has
// closed (commit-reveal, docs/commit-reveal.md); the demo prints the commit
// and reveal heights, one miner's copy of another's artifact turning into a
// duplicate with score 0, and the commit section of a few receipts.
//
// It builds and starts nothing: scripts/demo.sh builds validatord, creates a
// throw-away home with `validatord init`, starts the node and then runs
//
//	demo --home HOME --node tcp://127.0.0.1:36657
//
// The validator's report key is read from HOME/keys/validator.json; the
// miners' keys are derived from fixed seeds, so a run on a fresh chain is
// reproducible (and a second run on the same chain fails at registration).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	home := flag.String("home", "", "home of the node's validator (its keys/validator.json signs tasks, reports and truths)")
	node := flag.String("node", "tcp://127.0.0.1:26657", "CometBFT RPC address of the node")
	miners := flag.Int("miners", 5, "number of miners (1..50)")
	timeout := flag.Duration("timeout", 3*time.Minute, "give up after this long")
	flag.Parse()
	if *home == "" || *miners < 1 || *miners > 50 || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: demo --home HOME [--node tcp://127.0.0.1:26657] [--miners 5] [--timeout 3m]")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	if err := run(ctx, os.Stdout, *home, *node, *miners); err != nil {
		fmt.Fprintf(os.Stderr, "demo: %v\n", err)
		os.Exit(1)
	}
}
