package main

import (
	"context"
	"fmt"

	"github.com/scoringsubnet/validatord/offline"
	"github.com/scoringsubnet/validatord/x/scoring"
)

const weightsUsage = `score weights [--cap 0.15] [--burn-uid 0] < scores.jsonl

Turns miners' scores into capped weights (x/scoring.CapWeights: exact water-fill,
nobody above --cap) and the u16 vector for the parent chain (x/scoring.ToU16:
exactly 65535 in total by largest remainder, ties to the lower uid). Input: one
JSON object per line mapping a miner to its score (number or string, ≥ 0, at most
18 places):

  {"0": "0.9", "1": "0.4", "7": 0.25}          keys are uids
  {"alice": "10", "bob": "5", "carol": "1"}     keys are names

Uids: a key that is a plain integer in [0, 65535] is that uid. Every other key is
a name; names get uids in sorted key order (byte order), each the smallest uid
not taken by an integer key, by an earlier name, or by --burn-uid. The burn uid
receives the unallocated residual (left when fewer than 1/cap miners have a
positive score, or everything when all scores are 0); it may also be a miner's
uid, whose weight and the residual then add up.

Output: one line per input line,
  {"weights": {"<key>": "..."}, "unallocated": "...", "rounds": N,
   "uids": {"<key>": uid}, "u16": [{"uid": U, "weight": W}, ...]}
decimals as 18-place strings, u16 sorted by uid. A bad line gets
{"line": N, "error": "..."} and the exit status is 1.`

func init() {
	registerScoreMode("weights", "capped weights and the u16 vector of one JSON object of scores per line", runScoreWeights)
}

func runScoreWeights(_ context.Context, env Env, args []string) error {
	fs := scoreFlags("weights")
	capText := fs.String("cap", "0.15", "largest weight of one miner, in (0, 1]")
	burn := fs.Uint("burn-uid", 0, "uid that receives the unallocated residual, in [0, 65535]")
	if done, err := parseScoreFlags(env, fs, weightsUsage, args); done || err != nil {
		return err
	}
	limit, err := scoring.Parse(*capText)
	if err != nil {
		return fmt.Errorf("--cap: %w", err)
	}
	if limit.Sign() <= 0 || limit.Cmp(scoring.One) > 0 {
		return fmt.Errorf("--cap = %s: must be in (0, 1]", *capText)
	}
	if *burn > 65535 {
		return fmt.Errorf("--burn-uid = %d: must be in [0, 65535]", *burn)
	}
	return offline.Weights(env.Stdin, env.Stdout, limit, uint16(*burn))
}
