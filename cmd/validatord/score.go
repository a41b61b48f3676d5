package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
)

// scoreCmd is `validatord score`; each mode file adds its mode in init.
var scoreCmd = &command{
	name:    "score",
	summary: "score JSON lines offline with the consensus formulas (modes: see `score help`)",
	usage:   "score <mode> [flags] < input.jsonl",
	about: "Reads JSON lines on stdin and writes one JSON line per input line; decimals are\n" +
		"JSON strings with 18 places. Numbers may be JSON numbers or strings (at most 18\n" +
		"places). A bad line gets {\"line\": N, \"error\": \"...\"} and the exit status is 1.",
	noun:        "mode",
	list:        listTable,
	unknownTail: " (see `validatord score help`)",
}

func init() { root.add(scoreCmd) }

// registerScoreMode adds a mode to `validatord score`. It panics on a duplicate
// name, which is a programming error caught at start-up.
func registerScoreMode(name, summary string, run func(ctx context.Context, env Env, args []string) error) {
	scoreCmd.add(&command{name: name, summary: summary, run: run})
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
		return true, fmt.Errorf("%v (see `validatord %s -h`)", withSuggestion(fs, err), fs.Name())
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
