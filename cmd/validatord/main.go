// Command validatord is the scoring subnet's validator node, its client and its auditor's tool.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/scoringsubnet/validatord/client"
)

// Env is what a command may touch of the outside world; tests pass buffers.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// run dispatches args (without the program name) down the command tree
// (tree.go) and returns the exit code: 2 for no command or an unknown one,
// 1 for a command's error.
func run(ctx context.Context, env Env, args []string) int {
	if len(args) == 0 || isHelp(args[0]) {
		printHelp(env.Stderr, root)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c := root.child(args[0])
	if c == nil {
		fmt.Fprintf(env.Stderr, "validatord: unknown command %q%s\n", args[0], didYouMean(args[0], root.names()))
		printHelp(env.Stderr, root)
		return 2
	}
	if err := dispatch(ctx, env, c, args[1:]); err != nil {
		fmt.Fprintf(env.Stderr, "%s\n", errorLine(c, err))
		return 1
	}
	return 0
}

// errorLine is the one line main prints for command c's error. A node that
// does not answer reads the same from every command, whatever the command
// was doing when it found out, and says what to do about it.
func errorLine(c *command, err error) string {
	var ue *client.NodeUnreachableError
	if errors.As(err, &ue) {
		return fmt.Sprintf("validatord: %v: start one with \"validatord start\", or point at another with --node", ue)
	}
	return fmt.Sprintf("validatord %s: %v", c.name, err)
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, os.Args[1:]))
}
