package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
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

// scoreLineError is the output for a line that could not be scored.
type scoreLineError struct {
	Line  int    `json:"line"`
	Error string `json:"error"`
}

// maxLine bounds one input line (16 MiB), so a runaway input fails instead of exhausting memory.
const maxLine = 16 << 20

// scoreLines reads JSON lines from env.Stdin, calls handle for each non-blank
// line, writes the returned value as one JSON line, or {"line": N, "error": "..."}
// on error (N counts every line from 1, blank ones included), and returns a
// non-nil error at the end if any line failed, so the command exits non-zero
// while good lines are still scored.
func scoreLines(env Env, handle func(line []byte) (any, error)) error {
	return scoreEvents(env, func(_ int, line []byte) ([]any, error) {
		v, err := handle(line)
		if err != nil {
			return nil, err
		}
		return []any{v}, nil
	})
}

// scoreEvents is scoreLines for handlers that write any number of JSON lines
// per input line (none for some, several for others); handle gets the line's
// number too.
func scoreEvents(env Env, handle func(n int, line []byte) ([]any, error)) error {
	r := bufio.NewReaderSize(env.Stdin, 64<<10)
	n, failed := 0, 0
	for {
		line, readErr := readLine(r)
		if readErr != nil && !errors.Is(readErr, io.EOF) {
			return fmt.Errorf("reading line %d: %w", n+1, readErr)
		}
		if line != nil {
			n++
			if len(bytes.TrimSpace(line)) > 0 {
				if !emitLines(env.Stdout, n, line, handle) {
					failed++
				}
			}
		}
		if readErr != nil {
			break
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d lines failed", failed, n)
	}
	return nil
}

// readLine returns the next line without its terminator, nil at a clean end of input.
func readLine(r *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > maxLine {
			return nil, fmt.Errorf("line longer than %d bytes", maxLine)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && len(buf) == 0 {
			return nil, err
		}
		return bytes.TrimRight(buf, "\r\n"), err
	}
}

// emitLines handles one line and writes its results, or its error, as JSON
// lines; it reports whether the line succeeded. Output is encoded in full
// before anything is written, so a line never leaves half its output.
func emitLines(w io.Writer, n int, line []byte, handle func(int, []byte) ([]any, error)) bool {
	vs, err := handle(n, line)
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	for _, v := range vs {
		if err != nil {
			break
		}
		err = enc.Encode(v)
	}
	if err != nil {
		out.Reset()
		_ = enc.Encode(scoreLineError{Line: n, Error: err.Error()})
	}
	_, _ = w.Write(out.Bytes())
	return err == nil
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
