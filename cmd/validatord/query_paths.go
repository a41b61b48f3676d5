package main

import (
	"fmt"
	"slices"
	"strings"
)

// queryPaths are the app's query paths as docs/queries.md's table names
// them (TestQueryPathsMatchDoc keeps the two the same). The CLI refuses a
// path whose first word none of them has, naming the closest, before it
// asks a node; the node judges the rest (arguments, their count).
var queryPaths = []string{
	"status",
	"params",
	"validators",
	"proposal/<id>",
	"proposals",
	"misbehaviour/<n>",
	"account/<pubkey hex>",
	"account/<pubkey hex>/pending",
	"miner/<uid>",
	"mirror",
	"registration",
	"task/<id>",
	"task/<id>/results",
	"submission/<id>",
	"window/<uid>",
	"baseline/<task id>",
	"truth/<evm chain id>/<evm block>",
	"gaschain/<evm chain id>",
	"gas/<uid>/<evm chain id>",
	"leaderboard/<track>",
	"epoch/latest",
	"epoch/<n>",
	"simulate",
	"tasks/<track|all>/<open|all>/<after>/<limit>",
	"submissions/task/<id>/<after>/<limit>",
	"submissions/miner/<uid>/<after>/<limit>",
	"metagraph",
	"digest",
}

// queryFirstWords are the first words of queryPaths, sorted, once each.
func queryFirstWords() []string {
	var out []string
	for _, p := range queryPaths {
		w, _, _ := strings.Cut(p, "/")
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
			if p == w || strings.HasPrefix(p, w+"/") {
				e.Near = append(e.Near, p)
			}
		}
	}
	return e
}
