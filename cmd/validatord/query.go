package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"

	"github.com/scoringsubnet/validatord/client/lightproof"
)

// queryCmd is `validatord query`: a path of the app (run), or one of its
// children, the query words with their own flags and printing. A child is
// found after flags too (query --node U tasks), so run looks for it.
var queryCmd = &command{
	name:    "query",
	aliases: []string{"q"},
	summary: "ask the app through a node's RPC (/abci_query): a path's JSON answer, or tasks, submissions, tx, account, metagraph",
	usage:   queryUsage,
	noun:    "query",
}

func init() {
	queryCmd.run = runQuery // set here: runQuery looks up queryCmd's children
	root.add(queryCmd)
	for _, c := range []*command{
		{name: "tasks", summary: "list tasks, newest first", usage: queryTasksUsage, run: runQueryTasks},
		{name: "submissions", summary: "list a task's or a miner's submissions, newest first", usage: querySubmissionsUsage, run: runQuerySubmissions},
		{name: "tx", summary: "a transaction's block, code and events by its hash", usage: queryTxUsage, run: runQueryTx},
		{name: "account", summary: "a key's account: nonce, uid, validator", usage: queryAccountUsage, run: runQueryAccount},
		{name: "metagraph", summary: "every registered uid, like btcli's metagraph", usage: queryMetagraphUsage, run: runQueryMetagraph},
	} {
		queryCmd.add(c)
	}
}

const queryUsage = "query <path...> [--height H] [--node tcp://127.0.0.1:26657] [-o json|text]   e.g. query leaderboard workflow, query epoch latest --height 1200; " +
	"query <path...> --prove --witness ADDR [--trust-height H --trust-hash HEX] [--trust-period D]   proven through CometBFT's light client: " +
	lightproof.ProvablePaths + "; " +
	"also query tasks | submissions | tx | account | metagraph (validatord query <one> -h)"

// queryValueFlags are the query flags that take a value: a word after one
// of them (without "=") is its value, not the query's first word.
var queryValueFlags = map[string]bool{"node": true, "home": true, "height": true, "o": true, "output": true,
	"track": true, "limit": true, "after": true, "task": true, "miner": true,
	"witness": true, "trust-height": true, "trust-hash": true, "trust-period": true}

// firstWord is the index of the first positional argument of args (-1 when
// there is none).
func firstWord(args []string) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return min(i+1, len(args)-1)
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			return i
		}
		name := canonicalFlag(strings.TrimLeft(a, "-"))
		if !strings.Contains(name, "=") && queryValueFlags[name] {
			i++
		}
	}
	return -1
}

func runQuery(ctx context.Context, env Env, args []string) error {
	if i := firstWord(args); i >= 0 {
		if sub := queryCmd.child(args[i]); sub != nil {
			rest := append(append([]string{}, args[:i]...), args[i+1:]...)
			return sub.run(ctx, env, rest)
		}
	}
	fs := newFlags("query")
	node := nodeFlag(fs)
	homeFlag(fs) // accepted as on every command; a path query reads nothing of the home
	out := queryOutputFlag(fs, outputJSON)
	height := fs.Int64("height", 0, "answer from the state as of this height (within the node's keep_versions; default: the last committed)")
	prove := fs.Bool("prove", false, "check the answer with a Merkle proof against a header CometBFT's light client verified ("+lightproof.ProvablePaths+")")
	trust := addTrustFlags(fs)
	pos, ok, err := parseFlags(env, fs, queryUsage, args)
	if err != nil {
		return err
	}
	if !ok {
		printQueryPaths(env.Stdout)
		return nil
	}
	if len(pos) == 0 {
		return fmt.Errorf("missing query path; usage: validatord %s", queryUsage)
	}
	if *height < 0 {
		return fmt.Errorf("--height: %d, want a height >= 1 (or 0: the last committed)", *height)
	}
	path := queryPath(pos)
	if *prove {
		if *height != 0 {
			return fmt.Errorf("--height: not with --prove, which proves the latest provable state")
		}
		return runQueryProve(ctx, env, *node, trust, path, out.format)
	}
	if err := refuseTrustFlags(fs, "--prove"); err != nil {
		return err
	}
	if err := knownQueryPath(path); err != nil {
		return err
	}
	c, err := dialNode(*node)
	if err != nil {
		return err
	}
	bz, err := c.QueryAt(ctx, path, *height)
	if err != nil {
		return oneLine(err)
	}
	if out.format == outputText {
		return printJSONText(env.Stdout, bz)
	}
	pretty, err := prettyJSON(bz)
	if err != nil {
		return fmt.Errorf("query %s: %w", path, err)
	}
	_, err = fmt.Fprintf(env.Stdout, "%s\n", pretty)
	return err
}

// runQueryProve is `query <path> --prove`: the record and its proof, or an
// error saying what did not verify.
func runQueryProve(ctx context.Context, env Env, node string, trust *trustFlags, path, format string) error {
	v, err := trust.verifier(ctx, node)
	if err != nil {
		return err
	}
	rec, err := v.ProvePath(ctx, path)
	if err != nil {
		return oneLine(err)
	}
	warnTOFU(env.Stderr, rec.Proven)
	bz, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	if format == outputText {
		return printJSONText(env.Stdout, bz)
	}
	_, err = fmt.Fprintf(env.Stdout, "%s\n", bz)
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

// queryOutputFlag registers -o and --output with the default def: the
// same flag as the tx commands' (output.go), whose Set refuses a format
// other than json or text.
func queryOutputFlag(fs *flag.FlagSet, def string) *outputFlag {
	o := &outputFlag{format: def}
	fs.Var(o, "output", "output `format`: json or text") // the flag package adds "(default …)"
	fs.Var(o, "o", "`format`: shorthand for --output")
	return o
}
