package demo

import (
	"context"
	"errors"
	"flag"
	"io"
	"time"
)

// ErrUsage is a command line the demo cannot run with.
var ErrUsage = errors.New("usage: loadgen demo --home HOME [--node tcp://127.0.0.1:26657] [--miners 10] [--timeout 3m]")

// Run is the demo mode with its command line args; it prints to out.
func Run(ctx context.Context, out io.Writer, args []string) error {
	fs := flag.NewFlagSet("loadgen demo", flag.ContinueOnError)
	home := fs.String("home", "", "home of the node's validator (its keys/validator.json signs tasks, reports and truths)")
	node := fs.String("node", "tcp://127.0.0.1:26657", "CometBFT RPC address of the node")
	miners := fs.Int("miners", 10, "number of miners (1..50): ten, more than 1/cap, so the weights follow the ranking (with n × cap < 1 every miner sits at the cap)")
	timeout := fs.Duration("timeout", 3*time.Minute, "give up after this long")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *home == "" || *miners < 1 || *miners > 50 || fs.NArg() != 0 {
		return ErrUsage
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	return run(ctx, out, *home, *node, *miners)
}
