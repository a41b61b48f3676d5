package main

import (
	"context"

	"github.com/scoringsubnet/validatord/offline"
	"github.com/scoringsubnet/validatord/x/scoring"
)

const gasUsage = `score gas < events.jsonl

Replays a gas scenario through the consensus code (x/window gas memory and
history, x/scoring gas score). Input: JSON lines, one event each, block times
(seconds) never decreasing:

  {"params": {"memory_size": 10, "horizon_seconds": 60, "beta": "3.2",
              "w_inclusion": "0.5", "w_inclusion_stability": "0.15", "w_overpayment": "0.15",
              "w_overpayment_stability": "0.10", "w_liveliness": "0.10",
              "stale_prediction": "miss"}}
      optional, first event only; every member optional (defaults: the seed's,
      and "miss")
  {"time": 12, "agent": "a", "chain": "eth", "predict": "21.5"}
      agent a's prediction for the next block window of chain eth ("chain" optional);
      a later prediction before the truth replaces it
  {"time": 13, "chain": "eth", "truth": "20"}
      the window closes with minimum non-zero gas price 20: every agent of the chain
      that has ever predicted is judged on its fresh prediction; without one the
      window is missed (not included, overpayment 0, not fresh; "estimate" null)
      under stale_prediction "miss", or judged on its latest earlier prediction
      (not fresh) under "carry"

Output: nothing for params and predictions; for each truth one JSON line per
agent (in agent order) with the slot, the number of history points and the score,
null until the agent's memory array has filled. Decimals are strings with 18
places; a bad event gets {"line": N, "error": "..."} and the exit status is 1.`

func init() {
	registerScoreMode("gas", "replay gas predictions and truths by block time (JSON lines of events)", runScoreGas)
}

func runScoreGas(_ context.Context, env Env, args []string) error {
	fs := newFlags("score gas")
	if _, ok, err := parseFlags(env, fs, gasUsage, args); err != nil || !ok {
		return err
	}
	return offline.Gas(env.Stdin, env.Stdout, scoring.DefaultGasParams())
}
