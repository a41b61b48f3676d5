package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/scoringsubnet/validatord/app/wire"
)

const queryMetagraphUsage = "query metagraph [-o text|json] [--node URL]   (every registered uid, like btcli's metagraph)"

// runQueryMetagraph shows every registered uid (the app's "metagraph"
// path): a table by default, the answer's JSON with -o json.
func runQueryMetagraph(ctx context.Context, env Env, args []string) error {
	fs := newFlags("query metagraph")
	node := nodeFlag(fs)
	homeFlag(fs)
	out := queryOutputFlag(fs, outputText)
	pos, ok, err := parseFlags(env, fs, queryMetagraphUsage, args)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 0, queryMetagraphUsage); err != nil {
		return err
	}
	c, err := dialNode(*node)
	if err != nil {
		return err
	}
	v, err := c.Metagraph(ctx)
	if err != nil {
		return oneLine(err)
	}
	if out.format == outputJSON {
		return printJSON(env.Stdout, v)
	}
	return printMetagraph(env, v)
}

// keyCellLen is how many hex digits of a key the metagraph table shows.
const keyCellLen = 12

func printMetagraph(env Env, v *wire.MetagraphView) error {
	header := []string{"UID", "KEY", "REGISTERED", "IMMUNE"}
	for _, tr := range v.Tracks {
		header = append(header, strings.ToUpper(tr))
	}
	t := &table{header: append(header, "WEIGHT", "U16", "LAST_UPDATE")}
	for _, r := range v.UIDs {
		key := r.Key
		if len(key) > keyCellLen {
			key = key[:keyCellLen] + "…"
		}
		immune := "no"
		if r.Immune {
			immune = "until " + i64s(r.ImmuneThrough)
		}
		row := []string{u64s(uint64(r.UID)), key, i64s(r.RegisteredHeight), immune}
		for _, s := range r.Scores {
			row = append(row, cell(s))
		}
		last := "-"
		if r.LastUpdate > 0 {
			last = i64s(r.LastUpdate)
		}
		t.add(append(row, cell(r.Weight), cell(r.U16), last)...)
	}
	if err := t.print(env.Stdout); err != nil {
		return err
	}
	epoch := "no epoch yet"
	if v.Epoch > 0 {
		epoch = fmt.Sprintf("weights of epoch %d", v.Epoch)
	}
	_, err := fmt.Fprintf(env.Stdout, "%d uids at height %d; %s; scores are each track's aggregate (docs/scoring.md); keys shortened, -o json has them whole\n",
		len(v.UIDs), v.Height, epoch)
	return err
}
