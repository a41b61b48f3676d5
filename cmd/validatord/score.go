package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
)

// scoreMode is one mode of `validatord score`; each mode file registers itself in init.
type scoreMode struct {
	Name    string
	Summary string
	Run     func(ctx context.Context, env Env, args []string) error
}

var scoreModes = map[string]scoreMode{}

func init() {
	register(Command{Name: "score", Summary: "score JSON lines offline with the consensus formulas (modes: see `score help`)", Run: runScore})
}

// registerScoreMode adds a mode to `validatord score`. It panics on a duplicate
// name, which is a programming error caught at start-up.
func registerScoreMode(name, summary string, run func(ctx context.Context, env Env, args []string) error) {
	if _, dup := scoreModes[name]; dup {
		panic("validatord: score mode registered twice: " + name)
	}
	scoreModes[name] = scoreMode{Name: name, Summary: summary, Run: run}
}

func scoreUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: validatord score <mode> [flags] < input.jsonl")
	fmt.Fprintln(w, "Reads JSON lines on stdin and writes one JSON line per input line; decimals are")
	fmt.Fprintln(w, "JSON strings with 18 places. Numbers may be JSON numbers or strings (at most 18")
	fmt.Fprintln(w, "places). A bad line gets {\"line\": N, \"error\": \"...\"} and the exit status is 1.")
	fmt.Fprintln(w, "modes:")
	names := make([]string, 0, len(scoreModes))
	for n := range scoreModes {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, scoreModes[n].Summary)
	}
}

func runScore(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 {
		scoreUsage(env.Stderr)
		return fmt.Errorf("no mode given (see `validatord score help`)")
	}
	if args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		scoreUsage(env.Stdout)
		return nil
	}
	m, ok := scoreModes[args[0]]
	if !ok {
		scoreUsage(env.Stderr)
		return fmt.Errorf("unknown mode %q (see `validatord score help`)", args[0])
	}
	return m.Run(ctx, env, args[1:])
}

// scoreFlags returns a flag set for one score mode that never prints on its own.
func scoreFlags(mode string) *flag.FlagSet {
	fs := flag.NewFlagSet("score "+mode, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseScoreFlags parses a mode's flags. done is true when the user asked for
// help (the usage went to stdout). Positional arguments are an error: input
// comes on stdin only.
func parseScoreFlags(env Env, fs *flag.FlagSet, usage string, args []string) (done bool, err error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(env.Stdout, "usage: validatord %s\n", usage)
			if hasFlags(fs) {
				fmt.Fprintln(env.Stdout, "\nflags:")
				fs.SetOutput(env.Stdout)
				fs.PrintDefaults()
				fs.SetOutput(io.Discard)
			}
			return true, nil
		}
		return true, fmt.Errorf("%v (see `validatord %s -h`)", err, fs.Name())
	}
	if fs.NArg() > 0 {
		return true, fmt.Errorf("unexpected argument %q: input comes on stdin", fs.Arg(0))
	}
	return false, nil
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}
