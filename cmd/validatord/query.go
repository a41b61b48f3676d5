package main

import (
	"context"
	"fmt"
	"strings"
)

func init() {
	register(Command{Name: "query", Summary: "ask the app through a node's RPC (/abci_query) and print the JSON answer", Run: runQuery})
}

const queryUsage = "query <path...> [--height H] [--node tcp://127.0.0.1:26657]   e.g. query leaderboard workflow, query epoch latest --height 1200"

func runQuery(ctx context.Context, env Env, args []string) error {
	fs := newFlags("query")
	node := nodeFlag(fs)
	height := fs.Int64("height", 0, "answer from the state as of this height (within the node's keep_versions; default: the last committed)")
	pos, ok, err := parseFlags(env, fs, queryUsage, args)
	if !ok || err != nil {
		return err
	}
	if len(pos) == 0 {
		return fmt.Errorf("missing query path; usage: validatord %s", queryUsage)
	}
	if *height < 0 {
		return fmt.Errorf("--height: %d, want a height >= 1 (or 0: the last committed)", *height)
	}
	path := queryPath(pos)
	c, err := dialNode(*node)
	if err != nil {
		return err
	}
	bz, err := c.QueryAt(ctx, path, *height)
	if err != nil {
		return oneLine(err)
	}
	out, err := prettyJSON(bz)
	if err != nil {
		return fmt.Errorf("query %s: %w", path, err)
	}
	_, err = fmt.Fprintf(env.Stdout, "%s\n", out)
	return err
}

// queryPath joins the words of a query into the app's path: "miner 3" and
// "miner/3" and "/miner/3" all become "miner/3".
func queryPath(words []string) string {
	parts := make([]string, 0, len(words))
	for _, w := range words {
		for _, p := range strings.Split(w, "/") {
			if p != "" {
				parts = append(parts, p)
			}
		}
	}
	return strings.Join(parts, "/")
}
