package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// queryPaths are the app's query paths as docs/queries.md's table names
// them (TestQueryPathsMatchDoc keeps the two the same), each with the one
// line `query -h` shows. The CLI refuses a path whose first word none of
// them has, naming the closest, before it asks a node; the node judges the
// rest (arguments, their count).
var queryPaths = []struct{ Path, About string }{
	{"status", "the app's height, app hash, chain id and genesis hash"},
	{"params", "the params in force at the next height and the upgrades scheduled"},
	{"validators", "the validator set in force, the sets to come and the changes queued"},
	{"proposal/<id>", "one governance proposal: its kind, approvals and status"},
	{"proposals", "the newest 100 proposals, newest first"},
	{"misbehaviour/<n>", "the n-th piece of evidence CometBFT gave a block"},
	{"account/<pubkey hex>", "a key's next nonce, and its uid or validator if it has one"},
	{"account/<pubkey hex>/pending", "a key's nonces counting its transactions in this node's mempool"},
	{"miner/<uid>", "a uid's key, registration, immunity, aggregates and serving address"},
	{"mirror", "the last final metagraph snapshot of the parent chain (mirror mode)"},
	{"registration", "what a registration in the next block pays: difficulty, cap, block hashes"},
	{"counts", "uids held, open tasks and, per track, open tasks and commits awaiting their reveal"},
	{"task/<id>", "a task: track, poster, deadlines and number of commits"},
	{"task/<id>/results", "an arena task's evaluation of its scored submissions"},
	{"submission/<id>", "a submission: its commit, reveal, votes and receipt"},
	{"window/<uid>", "a miner's score windows per track"},
	{"baseline/<task id>", "the arena baseline the next block scores against"},
	{"truth/<evm chain id>/<evm block>", "an EVM block's gas truth round: status, votes and aggregate"},
	{"gaschain/<evm chain id>", "how far the chain has closed an EVM chain's gas windows"},
	{"gas/<uid>/<evm chain id>", "a miner's gas agent: memory, history and score"},
	{"leaderboard/<track>", "a track's aggregates, highest first"},
	{"epoch/latest", "the latest epoch: its weights, u16 vector and tracks"},
	{"epoch/<n>", "epoch n: its weights, u16 vector and tracks"},
	{"simulate", "what CheckTx would answer for a signed transaction now (tx --dry-run)"},
	{"tasks/<track|all>/<open|all>/<after>/<limit>", "a page of tasks, newest first (query tasks)"},
	{"submissions/task/<id>/<after>/<limit>", "a page of a task's submissions, newest first (query submissions)"},
	{"submissions/miner/<uid>/<after>/<limit>", "a page of a uid's submissions, newest first (query submissions)"},
	{"metagraph", "every registered uid, like btcli's metagraph (query metagraph)"},
	{"digest", "the SHA-256 of the state's score entries, with its height and app hash"},
}

// queryFirstWords are the first words of queryPaths, sorted, once each.
func queryFirstWords() []string {
	var out []string
	for _, p := range queryPaths {
		w, _, _ := strings.Cut(p.Path, "/")
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return out
}

// UnknownQueryPathError is a query path whose first word is no path of the
// app's; Near are the documented paths closest to it.
type UnknownQueryPathError struct {
	Path string
	Near []string
}

func (e *UnknownQueryPathError) Error() string {
	msg := fmt.Sprintf("unknown query path %q", e.Path)
	if len(e.Near) > 0 {
		msg += " (did you mean " + strings.Join(e.Near, " or ") + "?)"
	}
	return msg + "; the paths are in docs/queries.md, the other queries in `validatord query -h`"
}

// knownQueryPath refuses a path whose first word is no query path's. The
// closest words are looked for among the paths and the query words of
// `query` (tx has no path of its own), so that "txx" suggests tx.
func knownQueryPath(path string) error {
	first, _, _ := strings.Cut(path, "/")
	words := queryFirstWords()
	if slices.Contains(words, first) {
		return nil
	}
	e := &UnknownQueryPathError{Path: path}
	candidates := words
	for _, c := range queryCmd.sub {
		if !slices.Contains(candidates, c.name) {
			candidates = append(slices.Clone(candidates), c.name)
		}
	}
	for _, w := range closest(first, candidates) {
		if !slices.Contains(words, w) {
			e.Near = append(e.Near, w)
			continue
		}
		for _, p := range queryPaths {
			if p.Path == w || strings.HasPrefix(p.Path, w+"/") {
				e.Near = append(e.Near, p.Path)
			}
		}
	}
	return e
}

// printQueryPaths writes the list `query -h` ends with: every path with
// its line, then the query words with their summaries.
func printQueryPaths(w io.Writer) {
	width := 0
	for _, p := range queryPaths {
		width = max(width, len(p.Path))
	}
	fmt.Fprintln(w, "paths (validatord query <path> [--height H]; their answers: docs/queries.md):")
	for _, p := range queryPaths {
		fmt.Fprintf(w, "  %-*s  %s\n", width, p.Path, p.About)
	}
	fmt.Fprintln(w, "queries (validatord query <query> -h lists its flags):")
	for _, c := range queryCmd.sub {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c.name, c.summary)
	}
}
