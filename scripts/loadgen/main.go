package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/scoringsubnet/validatord/scripts/loadgen/bench"
	"github.com/scoringsubnet/validatord/scripts/loadgen/demo"
	"github.com/scoringsubnet/validatord/scripts/loadgen/rounds"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	mode, args := modeOf(os.Args[1:])
	if err := run(ctx, mode, args); err != nil {
		if mode == "rounds" {
			fmt.Fprintln(os.Stderr, "loadgen:", err)
		} else {
			fmt.Fprintf(os.Stderr, "loadgen %s: %v\n", mode, err)
		}
		if errors.Is(err, demo.ErrUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// modes are the first arguments that name a mode.
var modes = []string{"rounds", "flood", "adversary", "bench", "demo"}

// modeOf splits the command line into its mode and the mode's arguments: without a mode name
// first (a flag, or nothing), the mode is rounds.
func modeOf(args []string) (string, []string) {
	if len(args) > 0 {
		for _, m := range modes {
			if args[0] == m {
				return m, args[1:]
			}
		}
	}
	return "rounds", args
}

func run(ctx context.Context, mode string, args []string) error {
	switch mode {
	case "bench":
		return bench.Run(ctx, args)
	case "demo":
		return demo.Run(ctx, os.Stdout, args)
	}
	return rounds.Run(ctx, mode, args)
}
