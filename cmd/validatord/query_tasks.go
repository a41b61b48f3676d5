package main

import (
	"context"
	"strconv"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
)

const queryTasksUsage = "query tasks [--track workflow|arena|gas] [--open] [--limit N] [--after ID] [-o text|json] [--node URL]   (newest first; --after the next_after of the previous page)"

// runQueryTasks lists tasks newest first (the app's "tasks" path): a table
// by default, the answer's JSON with -o json.
func runQueryTasks(ctx context.Context, env Env, args []string) error {
	fs := newFlags("query tasks")
	node := nodeFlag(fs)
	homeFlag(fs)
	out := queryOutputFlag(fs, outputText)
	tr := fs.String("track", "", "only this track's tasks (workflow, arena or gas; default: every track)")
	open := fs.Bool("open", false, "only tasks whose submit window is open at the next height")
	pg := pageFlags(fs)
	pos, ok, err := parseFlags(env, fs, queryTasksUsage, args)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 0, queryTasksUsage); err != nil {
		return err
	}
	p, err := pg.get()
	if err != nil {
		return err
	}
	c, err := dialNode(*node)
	if err != nil {
		return err
	}
	v, err := c.Tasks(ctx, client.TaskFilter{Track: *tr, Open: *open, Page: p})
	if err != nil {
		return oneLine(err)
	}
	if out.format == outputJSON {
		return printJSON(env.Stdout, v)
	}
	return printTasks(env, v)
}

func printTasks(env Env, v *wire.TasksView) error {
	t := &table{header: []string{"ID", "TRACK", "OPEN", "POSTED", "SUBMIT_UNTIL", "REVEAL_UNTIL", "REPORT_UNTIL", "SUBMISSIONS"}}
	for _, e := range v.Tasks {
		t.add(u64s(e.ID), e.Track, yesNo(e.Open), i64s(e.PostedHeight), i64s(e.SubmitDeadline), i64s(e.RevealDeadline),
			i64s(e.ReportDeadline), u64s(e.Submissions))
	}
	if err := t.print(env.Stdout); err != nil {
		return err
	}
	return pageFooter(env, "tasks", len(v.Tasks), v.Height, v.NextAfter)
}

func u64s(n uint64) string { return strconv.FormatUint(n, 10) }
func i64s(n int64) string  { return strconv.FormatInt(n, 10) }
