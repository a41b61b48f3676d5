// Command validatord is the scoring subnet's validator node, its client and its auditor's tool.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// Env is what a command may touch of the outside world; tests pass buffers.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// Command is one subcommand: one file per command registers itself in init.
type Command struct {
	Name    string
	Summary string
	Run     func(ctx context.Context, env Env, args []string) error
}

var commands = map[string]Command{}

func register(c Command) {
	if _, dup := commands[c.Name]; dup {
		panic("validatord: command registered twice: " + c.Name)
	}
	commands[c.Name] = c
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: validatord <command> [flags]")
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].Summary)
	}
}

// run dispatches args (without the program name) and returns the exit code.
func run(ctx context.Context, env Env, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(env.Stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(env.Stderr, "validatord: unknown command %q\n", args[0])
		usage(env.Stderr)
		return 2
	}
	if err := c.Run(ctx, env, args[1:]); err != nil {
		fmt.Fprintf(env.Stderr, "validatord %s: %v\n", c.Name, err)
		return 1
	}
	return 0
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, os.Args[1:]))
}
