package main

import (
	"context"
	"fmt"
	"strconv"

	"github.com/scoringsubnet/validatord/client/wait"
)

func init() {
	root.add(&command{name: "wait", summary: "wait until the node's app committed a height (wait --height H) or a task reached a phase (wait task ID --until reveal|report|settled)", run: runWait})
}

const waitUsage = "wait --height H | wait task ID --until reveal|report|settled   [--node tcp://127.0.0.1:26657] [--timeout D]"

// runWait is the flag shim of package wait: what it waits for goes to
// stderr when the wait begins, the height reached to stdout as JSON.
func runWait(ctx context.Context, env Env, args []string) error {
	fs := newFlags("wait")
	node := nodeFlag(fs)
	height := fs.Int64("height", 0, "wait until the app committed this height")
	until := fs.String("until", "", "after a task (wait task ID): reveal (its reveal window open), report (its report window open) or settled (its report deadline committed)")
	timeout := fs.Duration("timeout", 0, "give up after this long (default: wait until interrupted)")
	pos, ok, err := parseFlags(env, fs, waitUsage, args)
	if !ok || err != nil {
		return err
	}
	c, err := dialNode(*node)
	if err != nil {
		return err
	}
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	target, err := waitTarget(ctx, c, pos, *height, *until)
	if err != nil {
		return oneLine(err)
	}
	res, err := wait.Until(ctx, c, target, wait.Options{Progress: func(s string) { fmt.Fprintln(env.Stderr, s) }})
	if err != nil {
		return oneLine(err)
	}
	return printJSON(env.Stdout, res)
}

// waitTarget reads what to wait for from the arguments.
func waitTarget(ctx context.Context, c wait.Chain, pos []string, height int64, until string) (wait.Target, error) {
	switch {
	case len(pos) == 0 && until != "":
		return wait.Target{}, fmt.Errorf("--until needs a task: wait task ID --until %s", until)
	case len(pos) == 0 && height > 0:
		return wait.ForHeight(height), nil
	case len(pos) == 0:
		return wait.Target{}, fmt.Errorf("nothing to wait for; usage: validatord %s", waitUsage)
	case pos[0] != "task" || len(pos) != 2:
		return wait.Target{}, fmt.Errorf("unknown arguments %q; usage: validatord %s", pos, waitUsage)
	case height > 0:
		return wait.Target{}, fmt.Errorf("--height and task: give one")
	}
	id, err := strconv.ParseUint(pos[1], 10, 64)
	if err != nil {
		return wait.Target{}, fmt.Errorf("task id %q: want a number (query task ID)", pos[1])
	}
	if until == "" {
		return wait.Target{}, fmt.Errorf("--until: required with a task (one of %v)", wait.Phases)
	}
	p, err := wait.ParsePhase(until)
	if err != nil {
		return wait.Target{}, fmt.Errorf("--until: %w", err)
	}
	return wait.ForTask(ctx, c, id, p)
}
