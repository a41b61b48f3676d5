package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Environment variables and defaults shared by the commands.
const (
	// envHome overrides the default home directory (like CMTHOME for cometbft).
	envHome = "VALIDATORD_HOME"
	// envCrashAt names a crash point for the app (docs/architecture.md).
	envCrashAt = "VALIDATORD_CRASH_AT"
	// defaultNode is the RPC address of a node started with the defaults of init.
	defaultNode = "tcp://127.0.0.1:26657"
)

// newFlags returns a flag set that never prints on its own: errors come back to
// the caller, who reports them in one line through main.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// homeFlag registers --home with the default of defaultHome.
func homeFlag(fs *flag.FlagSet) *string {
	return fs.String("home", defaultHome(), "node home directory (env "+envHome+")")
}

// nodeFlag registers --node, the CometBFT RPC address to talk to.
func nodeFlag(fs *flag.FlagSet) *string {
	return fs.String("node", defaultNode, "CometBFT RPC address of a node")
}

// defaultHome is $VALIDATORD_HOME, else ~/.validatord, else ./.validatord.
func defaultHome() string {
	if h := os.Getenv(envHome); h != "" {
		return h
	}
	if u, err := os.UserHomeDir(); err == nil {
		return filepath.Join(u, ".validatord")
	}
	return ".validatord"
}

// parseFlags parses args with fs and returns the positional arguments. Flags
// may follow positional arguments, as in `keys add alice --home DIR`; a "--"
// ends flag parsing. ok is false when the user asked for help: the usage was
// printed to env.Stdout and the command should return nil.
func parseFlags(env Env, fs *flag.FlagSet, usage string, args []string) (pos []string, ok bool, err error) {
	addAliases(fs)
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				printUsage(env.Stdout, fs, usage)
				return nil, false, nil
			}
			return nil, false, withSuggestion(fs, twoDashes(err))
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, true, nil
		}
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), true, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// flagErrorForms are the messages of package flag that name a flag with one
// dash, as "-name"; twoDashes names it as the user types it, "--name".
var flagErrorForms = []string{"flag provided but not defined: -", "flag needs an argument: -", " for flag -", "bad flag syntax: -"}

// twoDashes rewrites package flag's error so that the flag it names has
// two dashes (a single-letter flag such as -o keeps one).
func twoDashes(err error) error {
	msg := err.Error()
	for _, form := range flagErrorForms {
		i := strings.Index(msg, form)
		if i < 0 {
			continue
		}
		at := i + len(form)
		rest := msg[at:]
		if strings.HasPrefix(rest, "-") {
			return err
		}
		name := rest
		if j := strings.IndexAny(name, ": "); j >= 0 {
			name = name[:j]
		}
		if len(name) <= 1 {
			return err
		}
		return errors.New(msg[:at] + "-" + rest)
	}
	return err
}

// MissingFlagsError names every required flag that was not given, and the
// command's usage line when known.
type MissingFlagsError struct {
	Flags []string
	Usage string
}

func (e *MissingFlagsError) Error() string {
	names := make([]string, len(e.Flags))
	for i, f := range e.Flags {
		names[i] = "--" + f
	}
	msg := strings.Join(names, ", ") + ": required"
	if e.Usage != "" {
		msg += "; usage: validatord " + e.Usage
	}
	return msg
}

// printUsage writes the usage line and the flag defaults; an alias is not
// listed on its own (its canonical flag names it).
func printUsage(w io.Writer, fs *flag.FlagSet, usage string) {
	fmt.Fprintf(w, "usage: validatord %s\n", usage)
	var b strings.Builder
	shown := withoutAliases(fs)
	shown.SetOutput(&b)
	shown.PrintDefaults()
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		// "  -name": two dashes, as the user types a long flag.
		if rest, ok := strings.CutPrefix(line, "  -"); ok && len(strings.Fields(rest)) > 0 && len(strings.Fields(rest)[0]) > 1 {
			line = "  --" + rest
		}
		io.WriteString(w, line)
	}
}

// wantArgs checks the number of positional arguments.
func wantArgs(pos []string, n int, usage string) error {
	if len(pos) != n {
		return fmt.Errorf("want %d argument(s), got %d (%s); usage: validatord %s", n, len(pos), strings.Join(pos, " "), usage)
	}
	return nil
}

// oneLine folds a multi-line error message into one line, so that every
// failure is a single line on stderr; errors.Is and errors.As still see err.
func oneLine(err error) error {
	if err == nil || !strings.ContainsAny(err.Error(), "\r\n") {
		return err
	}
	return foldedError{err}
}

type foldedError struct{ err error }

func (e foldedError) Error() string { return strings.Join(strings.Fields(e.err.Error()), " ") }
func (e foldedError) Unwrap() error { return e.err }
