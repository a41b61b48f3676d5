package main

import (
	"context"
	"fmt"

	"github.com/scoringsubnet/validatord/client"
)

const txBroadcastUsage = "tx broadcast <file|-> [--node ADDR] [--wait] [--dry-run] [-o json|text]"

// runTxBroadcast is `tx broadcast`: a signed transaction (`tx sign`'s JSON,
// or its base64 bytes alone) sent through --node, as every tx command sends
// its own (--wait: the block's result and the scores it caused; --dry-run:
// CheckTx only).
func runTxBroadcast(ctx context.Context, env Env, args []string) error {
	fs := newFlags("tx broadcast")
	node := nodeFlag(fs)
	wait := fs.Bool("wait", false, waitCommitted)
	dry := fs.Bool("dry-run", false, "ask the node what CheckTx would answer, keeping nothing: print its code and log, broadcast nothing")
	yes := fs.Bool("yes", false, "accepted for scripts written for Cosmos chains: there is no confirmation prompt")
	fs.BoolVar(yes, "y", false, "shorthand for --yes")
	out := defineOutput(fs)
	pos, ok, err := parseFlags(env, fs, txBroadcastUsage, args)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 1, txBroadcastUsage); err != nil {
		return err
	}
	if *dry && *wait {
		return fmt.Errorf("--dry-run and --wait: a dry run sends nothing to wait for")
	}
	src, err := readInput(env, pos[0])
	if err != nil {
		return err
	}
	tx, err := client.DecodeSigned(src)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	c, err := dialNode(*node)
	if err != nil {
		return err
	}
	if *dry {
		shown, err := dryRun(ctx, c, tx)
		if shown == nil {
			return oneLine(err)
		}
		if perr := out.print(env.Stdout, shown); perr != nil {
			return perr
		}
		return oneLine(err)
	}
	s := &txSession{stderr: env.Stderr, node: c}
	var res client.TxResult
	switch {
	case *wait:
		res, err = c.BroadcastCommit(ctx, tx)
		s.addScores(ctx, &res)
	default:
		res, err = c.Broadcast(ctx, tx)
	}
	if res.Hash == "" {
		return oneLine(err)
	}
	if perr := out.print(env.Stdout, res); perr != nil {
		return perr
	}
	return oneLine(err)
}
