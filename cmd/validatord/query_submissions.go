package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
)

const querySubmissionsUsage = "query submissions --task ID | --miner UID|KEY [--limit N] [--after ID] [-o text|json] [--node URL]   (newest first)"

// runQuerySubmissions lists a task's or a miner's submissions newest first
// (the app's "submissions" path; a miner's through the miner index).
func runQuerySubmissions(ctx context.Context, env Env, args []string) error {
	fs := newFlags("query submissions")
	node := nodeFlag(fs)
	home := homeFlag(fs)
	out := queryOutputFlag(fs, outputText)
	task := fs.Uint64("task", 0, "the task whose submissions to list")
	miner := fs.String("miner", "", "the miner whose submissions to list: its uid, a key name in the keyring of --home, or its public key (64 hex digits)")
	pg := pageFlags(fs)
	pos, ok, err := parseFlags(env, fs, querySubmissionsUsage, args)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 0, querySubmissionsUsage); err != nil {
		return err
	}
	p, err := pg.get()
	if err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["task"] == set["miner"] {
		return fmt.Errorf("give one of --task ID or --miner UID|KEY; usage: validatord %s", querySubmissionsUsage)
	}
	c, err := dialNode(*node)
	if err != nil {
		return err
	}
	var v *wire.SubmissionsView
	if set["task"] {
		v, err = c.TaskSubmissions(ctx, *task, p)
	} else {
		uid, uerr := minerUID(ctx, c, *home, *miner)
		if uerr != nil {
			return uerr
		}
		v, err = c.MinerSubmissions(ctx, uid, p)
	}
	if err != nil {
		return oneLine(err)
	}
	if out.format == outputJSON {
		return printJSON(env.Stdout, v)
	}
	return printSubmissions(env, v)
}

func printSubmissions(env Env, v *wire.SubmissionsView) error {
	t := &table{header: []string{"ID", "UID", "TRACK", "TARGET", "STATUS", "COMMITTED", "REVEALED", "SCORE"}}
	for _, s := range v.Submissions {
		target := "task " + cell(s.TaskID)
		if s.EvmChainID != nil {
			target = fmt.Sprintf("evm %d block %d", *s.EvmChainID, *s.EvmBlock)
		}
		revealed := "-"
		if s.RevealHeight > 0 {
			revealed = i64s(s.RevealHeight)
		}
		t.add(u64s(s.ID), u64s(uint64(s.UID)), s.Track, target, s.Status, i64s(s.Height), revealed, cell(s.Score))
	}
	if err := t.print(env.Stdout); err != nil {
		return err
	}
	what := fmt.Sprintf("submissions of %s %d", v.By, v.ID)
	if v.By == "miner" {
		what = fmt.Sprintf("submissions of uid %d", v.ID)
	}
	_, err := fmt.Fprintf(env.Stdout, "%d %s", len(v.Submissions), what)
	if err == nil && v.NextAfter != nil {
		_, err = fmt.Fprintf(env.Stdout, "; more with --after %d", *v.NextAfter)
	}
	if err == nil {
		_, err = fmt.Fprintln(env.Stdout)
	}
	return err
}

// minerUID is the uid a --miner argument names: a number is the uid
// itself; anything else is an account (a key name in home's keyring, or a
// public key in hex) whose uid the node is asked for.
func minerUID(ctx context.Context, c *client.Client, home, arg string) (uint32, error) {
	if n, err := strconv.ParseUint(arg, 10, 64); err == nil {
		if n > 65535 {
			return 0, fmt.Errorf("--miner %d: a uid is in [0, 65535]", n)
		}
		return uint32(n), nil
	}
	pub, err := accountKey(home, arg)
	if err != nil {
		return 0, fmt.Errorf("--miner: %w", err)
	}
	acct, err := c.Account(ctx, pub)
	if err != nil {
		return 0, oneLine(err)
	}
	if acct.UID == nil {
		return 0, fmt.Errorf("--miner %s: key %x holds no uid on this chain (register it with `validatord tx register-miner --from %s --wait`)", arg, pub, arg)
	}
	return *acct.UID, nil
}
