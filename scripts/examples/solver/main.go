package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/scripts/examples/internal/toy"
)

// input is the solver's stdin.
type input struct {
	Track   string        `json:"track"`
	UID     uint32        `json:"uid"`
	ChainID string        `json:"chain_id"`
	Task    wire.TaskView `json:"task"`
}

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "solver:", err)
		os.Exit(1)
	}
}

func run(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("solver", flag.ContinueOnError)
	quality := fs.Float64("quality", 1, "share of the task to do, in [0,1]")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *quality < 0 || *quality > 1 {
		return fmt.Errorf("-quality %v: must be in [0,1]", *quality)
	}
	var in input
	dec := json.NewDecoder(stdin)
	if err := dec.Decode(&in); err != nil {
		return fmt.Errorf("reading stdin: %w", err)
	}
	var art any
	switch in.Track {
	case "workflow":
		if in.Task.Workflow == nil {
			return errors.New("workflow track but the task has no workflow spec")
		}
		art = solveWorkflow(in, *quality)
	case "arena":
		if in.Task.Arena == nil {
			return errors.New("arena track but the task has no arena spec")
		}
		art = solveArena(in, *quality)
	default:
		return fmt.Errorf("track %q: this solver does workflow and arena", in.Track)
	}
	out, err := json.Marshal(art)
	if err != nil {
		return err
	}
	_, err = stdout.Write(append(out, '\n'))
	return err
}

// share is how many of n the quality covers, rounded down.
func share(q float64, n int64) int64 {
	k := int64(q * float64(n))
	return min(max(k, 0), n)
}

// solveWorkflow plans share(quality) of the task's steps, each with an
// action, its check, and a cost and latency drawn from the miner's seed.
func solveWorkflow(in input, quality float64) toy.Workflow {
	id := in.Task.ID
	w := toy.Workflow{Task: id, UID: in.UID, Plan: []toy.Step{}}
	n := min(share(quality, in.Task.Workflow.TotalSteps), 10_000)
	for i := int64(1); i <= n; i++ {
		s := toy.Seed(id, in.UID, "step", i)
		action := toy.Actions[s%uint64(len(toy.Actions))]
		w.Plan = append(w.Plan, toy.Step{
			Step:          i,
			Action:        action,
			Check:         toy.StepCheck(id, i, action),
			CostMicros:    10_000 + int64(s>>8%90_000),    // 0.01 to 0.1
			LatencyMicros: 100_000 + int64(s>>32%900_000), // 0.1 s to 1 s
		})
		if s>>60 == 0 { // about one step in sixteen may be retried once
			w.ErrorHandling = append(w.ErrorHandling, toy.RetryPolicy{Step: i, RetryCount: 1})
		}
	}
	return w
}

// solveArena answers share(quality) of the criteria right and the rest
// wrong, with one tool call per criterion.
func solveArena(in input, quality float64) toy.Arena {
	id := in.Task.ID
	total := min(in.Task.Arena.CriteriaTotal, 10_000)
	right := share(quality, total)
	a := toy.Arena{Task: id, UID: in.UID, Run: toy.Run{Calls: []toy.Call{}, Answers: []string{}}}
	for c := int64(1); c <= total; c++ {
		answer := toy.Answer(id, c)
		if c > right {
			answer = fmt.Sprintf("guess-%x", toy.Seed(id, in.UID, "guess", c))
		}
		a.Run.Calls = append(a.Run.Calls, toy.Call{
			Tool:   "lookup",
			Input:  fmt.Sprintf("%s criterion %d", in.Task.Arena.Category, c),
			Output: answer,
		})
		a.Run.Answers = append(a.Run.Answers, answer)
	}
	return a
}
