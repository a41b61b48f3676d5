package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/scoringsubnet/validatord/internal/keyfile"
)

// keysCmd is `validatord keys`. Its subcommands but sign-binding share the
// flags of keys (they may come before the word: keys --home D list), so
// they are runKeys with their word; sign-binding has its own.
var keysCmd = &command{
	name:    "keys",
	summary: "add, list, show, delete, export and import ed25519 tx signing keys (keys add|list|show|delete|export|import NAME), the node's consensus key (keys show-consensus), and an sr25519 hotkey's binding signature (keys sign-binding, mirror mode)",
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
		{"delete", "remove a tx signing key NAME (asks first, unless --yes)"},
		{"export", "write key NAME's file, private key included, to stdout or --out FILE"},
		{"import", "store the key file FILE as key NAME (--force replaces one)"},
		{"show-consensus", "the node's consensus key and validator address"},
	} {
		keysCmd.add(&command{name: c.name, summary: c.summary, usage: keysUsage, run: func(ctx context.Context, env Env, args []string) error {
			return runKeys(ctx, env, append([]string{c.name}, args...))
		}})
	}
	keysCmd.add(&command{name: "sign-binding", summary: "sign an sr25519 hotkey's binding of a tx key (mirror mode)", usage: signBindingUsage, run: runSignBinding})
}

const keysUsage = "keys add|list|show [NAME] [--home DIR] [-o json|text], keys show NAME -a, keys delete NAME [--yes], " +
	"keys export NAME [--out FILE], keys import NAME FILE|- [--force], keys show-consensus [--home DIR]"

// keysFlagUse are the subcommands each of keys' own flags is for; a flag
// given to another is refused rather than ignored.
var keysFlagUse = map[string][]string{
	"a": {"show"}, "address": {"show"},
	"o": {"add", "list", "show", "import"}, "output": {"add", "list", "show", "import"},
	"yes": {"delete"}, "y": {"delete"},
	"out":   {"export"},
	"force": {"import"},
}

// runKeys is the CLI of the key files; their format lives in internal/keyfile.
func runKeys(ctx context.Context, env Env, args []string) error {
	fs := newFlags("keys")
	home := homeFlag(fs)
	addrOnly := fs.Bool("a", false, "keys show: print only the public key in hex (the account's address), for scripts")
	fs.BoolVar(addrOnly, "address", false, "same as -a")
	out := queryOutputFlag(fs, outputJSON)
	yes := fs.Bool("yes", false, "keys delete: delete without asking")
	fs.BoolVar(yes, "y", false, "shorthand for --yes")
	outFile := fs.String("out", "", "keys export: write the key file to this `file` (created with mode 0600; it must not exist) instead of stdout")
	force := fs.Bool("force", false, "keys import: replace a key of the same name")
	pos, ok, err := parseFlags(env, fs, keysUsage, args)
	if !ok || err != nil {
		return err
	}
	if len(pos) == 0 {
		return fmt.Errorf("missing subcommand; usage: validatord %s", keysUsage)
	}
	sub := pos[0]
	if keysCmd.child(sub) == nil || sub == "sign-binding" {
		return keysCmd.unknown(sub)
	}
	if err := keysFlagsFor(fs, sub); err != nil {
		return err
	}
	if sub != "add" && sub != "import" {
		if err := checkHome(*home); err != nil {
			return err
		}
	}
	switch sub {
	case "add":
		if err := wantArgs(pos[1:], 1, "keys add NAME"); err != nil {
			return err
		}
		info, err := keyfile.Add(*home, pos[1], rand.Reader)
		if err != nil {
			return err
		}
		return printKeys(env.Stdout, out.format, false, info)
	case "show":
		if err := wantArgs(pos[1:], 1, "keys show NAME"); err != nil {
			return err
		}
		key, err := keyfile.Load(*home, pos[1])
		if err != nil {
			return withKeyNames(*home, pos[1], err)
		}
		info := keyfile.InfoOf(pos[1], key)
		if *addrOnly {
			_, err := fmt.Fprintln(env.Stdout, info.PubKey)
			return err
		}
		return printKeys(env.Stdout, out.format, false, info)
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
		return printKeys(env.Stdout, out.format, true, infos...)
	case "delete":
		if err := wantArgs(pos[1:], 1, "keys delete NAME [--yes]"); err != nil {
			return err
		}
		return deleteKey(env, *home, pos[1], *yes)
	case "export":
		if err := wantArgs(pos[1:], 1, "keys export NAME [--out FILE]"); err != nil {
			return err
		}
		return exportKey(env, *home, pos[1], *outFile)
	default: // import
		if err := wantArgs(pos[1:], 2, "keys import NAME FILE|- [--force]"); err != nil {
			return err
		}
		bz, err := readInput(env, pos[2])
		if err != nil {
			return err
		}
		info, err := keyfile.Import(*home, pos[1], pos[2], bz, *force)
		if errors.Is(err, keyfile.ErrExists) {
			return fmt.Errorf("%w; --force replaces it (its private key is lost unless exported)", err)
		}
		if err != nil {
			return oneLine(err)
		}
		return printKeys(env.Stdout, out.format, false, info)
	}
}

// keysFlagsFor refuses a flag of keys given to a subcommand it is not for.
func keysFlagsFor(fs *flag.FlagSet, sub string) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if use, ok := keysFlagUse[f.Name]; ok && err == nil && !slices.Contains(use, sub) {
			err = fmt.Errorf("%s: only for keys %s; usage: validatord %s", dashes(f.Name), strings.Join(use, ", "), keysUsage)
		}
	})
	return err
}

// withKeyNames adds the closest key names of home to a key-not-found error.
func withKeyNames(home, name string, err error) error {
	if !errors.Is(err, keyfile.ErrNotFound) {
		return err
	}
	names, lerr := keyfile.Names(home)
	if lerr != nil {
		return err
	}
	return fmt.Errorf("%w%s", err, didYouMean(name, names))
}

// deleteKey removes key name of home, once the user confirmed on stdin
// (a line starting with y) unless yes. A key that does not exist is
// refused before anything is asked.
func deleteKey(env Env, home, name string, yes bool) error {
	if _, err := keyfile.Path(home, name); err != nil {
		return err
	}
	names, err := keyfile.Names(home)
	if err != nil {
		return err
	}
	if !slices.Contains(names, name) {
		return withKeyNames(home, name, fmt.Errorf("%w: %q in %s", keyfile.ErrNotFound, name, keyfile.Dir(home)))
	}
	if !yes {
		fmt.Fprintf(env.Stderr, "delete key %q of %s? Its private key is gone for good unless exported (keys export). [y/N] ", name, keyfile.Dir(home))
		line := ""
		if env.Stdin != nil {
			line, _ = bufio.NewReader(env.Stdin).ReadString('\n')
		}
		if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
			fmt.Fprintln(env.Stderr)
			return fmt.Errorf("key %q not deleted: not confirmed (answer y, or pass --yes)", name)
		}
	}
	if err := keyfile.Delete(home, name); err != nil {
		return err
	}
	_, err = fmt.Fprintf(env.Stdout, "deleted key %q\n", name)
	return err
}

// exportKey writes key name's file to stdout, or to a new file out with
// mode 0600, and warns on stderr that it holds the private key.
func exportKey(env Env, home, name, out string) error {
	bz, err := keyfile.Export(home, name)
	if err != nil {
		return withKeyNames(home, name, err)
	}
	const warn = "warning: this key file holds the private key of %q: whoever reads it can sign as this key; keep it like the key itself (mode 0600, no shared disk)\n"
	if out == "" {
		fmt.Fprintf(env.Stderr, warn, name)
		_, err := env.Stdout.Write(bz)
		return err
	}
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	_, err = f.Write(bz)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(out) // a part of a key file is of no use
		return err
	}
	fmt.Fprintf(env.Stderr, warn, name)
	return nil
}

// printKeys writes keys as JSON (an array for list, else one object), or
// in text as a header and one line each: name, type, public key.
func printKeys(w io.Writer, format string, list bool, infos ...keyfile.Info) error {
	if format != outputText {
		if !list && len(infos) == 1 {
			return printJSON(w, infos[0])
		}
		return printJSON(w, infos)
	}
	width := len("NAME")
	for _, k := range infos {
		width = max(width, len(k.Name))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-*s  %-7s  %s\n", width, "NAME", "TYPE", "PUB_KEY")
	for _, k := range infos {
		fmt.Fprintf(&b, "%-*s  %-7s  %s\n", width, k.Name, k.Type, k.PubKey)
	}
	_, err := io.WriteString(w, b.String())
	return err
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
