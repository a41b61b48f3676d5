package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"

	"github.com/scoringsubnet/validatord/internal/keyfile"
)

// keysCmd is `validatord keys`. add, list, show and show-consensus share
// the flags of keys (they may come before the word: keys --home D list), so
// they are runKeys with their word; sign-binding has its own.
var keysCmd = &command{
	name:    "keys",
	summary: "add, list and show ed25519 tx signing keys (keys add|list|show NAME), the node's consensus key (keys show-consensus), and an sr25519 hotkey's binding signature (keys sign-binding, mirror mode)",
	usage:   keysUsage,
	noun:    "subcommand",
}

func init() {
	keysCmd.run = runKeys // set here: runKeys names keysCmd's children
	root.add(keysCmd)
	for _, c := range []struct{ name, summary string }{
		{"add", "create a tx signing key NAME"},
		{"list", "the tx signing keys of the home"},
		{"show", "a tx signing key: NAME and public key (-a: the key in hex only)"},
		{"show-consensus", "the node's consensus key and validator address"},
	} {
		keysCmd.add(&command{name: c.name, summary: c.summary, usage: keysUsage, run: func(ctx context.Context, env Env, args []string) error {
			return runKeys(ctx, env, append([]string{c.name}, args...))
		}})
	}
	keysCmd.add(&command{name: "sign-binding", summary: "sign an sr25519 hotkey's binding of a tx key (mirror mode)", usage: signBindingUsage, run: runSignBinding})
}

const keysUsage = "keys add|list|show [NAME] [--home DIR], keys show NAME -a, keys show-consensus [--home DIR]"

// runKeys is the CLI of the key files; their format lives in internal/keyfile.

func runKeys(ctx context.Context, env Env, args []string) error {
	fs := newFlags("keys")
	home := homeFlag(fs)
	addrOnly := fs.Bool("a", false, "keys show: print only the public key in hex (the account's address), for scripts")
	fs.BoolVar(addrOnly, "address", false, "same as -a")
	pos, ok, err := parseFlags(env, fs, keysUsage, args)
	if !ok || err != nil {
		return err
	}
	if len(pos) == 0 {
		return fmt.Errorf("missing subcommand; usage: validatord %s", keysUsage)
	}
	if *addrOnly && pos[0] != "show" {
		return fmt.Errorf("-a: only for keys show; usage: validatord %s", keysUsage)
	}
	if pos[0] != "add" {
		if err := checkHome(*home); err != nil {
			return err
		}
	}
	switch pos[0] {
	case "add":
		if err := wantArgs(pos[1:], 1, "keys add NAME"); err != nil {
			return err
		}
		info, err := keyfile.Add(*home, pos[1], rand.Reader)
		if err != nil {
			return err
		}
		return printJSON(env.Stdout, info)
	case "show":
		if err := wantArgs(pos[1:], 1, "keys show NAME"); err != nil {
			return err
		}
		key, err := keyfile.Load(*home, pos[1])
		if err != nil {
			return err
		}
		info := keyfile.InfoOf(pos[1], key)
		if *addrOnly {
			_, err := fmt.Fprintln(env.Stdout, info.PubKey)
			return err
		}
		return printJSON(env.Stdout, info)
	case "show-consensus":
		if err := wantArgs(pos[1:], 0, "keys show-consensus --home DIR"); err != nil {
			return err
		}
		info, err := showConsensus(*home)
		if err != nil {
			return err
		}
		return printJSON(env.Stdout, info)
	case "list":
		if err := wantArgs(pos[1:], 0, "keys list"); err != nil {
			return err
		}
		infos, err := keyfile.List(*home)
		if err != nil {
			return err
		}
		return printJSON(env.Stdout, infos)
	default:
		return keysCmd.unknown(pos[0])
	}
}

// printJSON writes v as indented JSON and a newline.
func printJSON(w io.Writer, v any) error {
	bz, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", bz)
	return err
}
