package main

import (
	"context"
	"fmt"
	"os"

	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/offline"
	"github.com/scoringsubnet/validatord/x/receipt"
)

const receiptUsage = `score receipt [--params FILE] < answers.jsonl

Verifies score receipts: each input line is a whole ` + "`query submission/<id>`" + ` answer
or just its "receipt" object; a stream of pretty-printed answers (as
` + "`validatord query`" + ` prints them) is read as one answer per "line". The formula's
inputs and params are rebuilt from the receipt's "inputs" and "params" by name (an unknown or missing name is an error),
the x/scoring function of the receipt's track is run, and every entry of
"values" and the "score" are compared with the recomputation as decimals
(exactly, 18 places).

The power.<validator> params must add up to reported_power; with a whole
answer every median input (workflow, arena) is re-derived with
quorum.WeightedMedian from the answer's votes and those powers
("inputs.<name>" mismatches). A bare receipt lists its median inputs under
"unchecked".

  workflow  ScoreWorkflow on the inputs and params.
  arena     ScoreArena with the baseline.* params as the baseline and the
            recorded weights.* and difficulty_multiplier as the category and
            difficulty tables.
  gas       GasOutcome(prediction, min_price, fresh) for slot.* and the last
            memory.* slot; with history.* points (a full memory), the last
            point must be MemoryPerformance of the memory at evm_timestamp,
            earlier points lie within the horizon, and every ScoreGas value is
            recomputed by GasHistoryStats and GasFromStats over the recorded
            history. min_price and evm_timestamp (medians of truth votes no
            answer carries) are listed under "unchecked".

Every receipt has a "commit" section: commit_height, reveal_height and
duplicate (true exactly when the status is "duplicate"); a revealed
submission's reveal_height lies in [commit_height+1, the receipt's height].
A duplicate's receipt (another miner's earlier commit revealed the same
artifact) has nothing to recompute: it verifies when its score is 0 and its
keeper precedes it, by commit height and then uid (duplicate_of_commit_height
and duplicate_of_uid against commit_height and the answer's uid; a bare
receipt whose keeper committed in the same block lists
commit.duplicate_of_uid under "unchecked"). A near-copy's receipt (a
duplicate by the validators' verdict, near_copy true in its commit section)
also lists its votes' powers, which must add up to reported_power; with the
whole answer its verdict is recomputed from the votes' duplicate_of (more
than half of the votes' power and at least 1/3 of total_power name one
submission), a bare one lists commit.near_copy under "unchecked".

A whole answer is also checked against its receipt: track, status, its
height, reveal_height and duplicate verdict, and the gas prediction (a workflow's declared_retry_budget is a median of the votes,
re-derived like the other measured inputs). With --params FILE (the
output of ` + "`validatord query params`" + ` or a genesis.json), every recorded param
(workflow, gas, the arena constants, weights and multiplier, each
validator's power and total_power) must equal the chain's ("params.<name>"
mismatches). A failed receipt whose note is "score: <error>"
verifies when the recomputation fails with the same error.

Output: one line per input line,
  {"line": N, "submission": id, "track": "...", "verified": true|false,
   "checked": K, "mismatches": [{"name": "...", "receipt": "...", "recomputed": "..."}],
   "unchecked": ["..."], "commit_height": C, "reveal_height": R, "duplicate": false}
and for a duplicate also "duplicate_of_uid" and "duplicate_of_commit_height",
for a near-copy "near_copy": true.
"submission" is null for a bare workflow or arena receipt. A malformed line gets
{"line": N, "error": "..."}. The exit status is 1 if any line is malformed or
does not verify.`

func init() {
	registerScoreMode("receipt", "verify score receipts of `query submission` answers by recomputing them", runScoreReceipt)
}

func runScoreReceipt(_ context.Context, env Env, args []string) error {
	fs := scoreFlags("receipt")
	paramsFile := fs.String("params", "", "app_state to check the recorded params and powers against (`query params` output or genesis.json)")
	if done, err := parseScoreFlags(env, fs, receiptUsage, args); done || err != nil {
		return err
	}
	chain, err := paramsFlag(*paramsFile)
	if err != nil {
		return err
	}
	return offline.Receipts(env.Stdin, env.Stdout, chain)
}

// paramsFlag is the chain of a --params FILE (its app_state's params and
// validators) to check receipts against; nil when the flag is not given.
func paramsFlag(path string) (*receipt.Chain, error) {
	if path == "" {
		return nil, nil
	}
	st, err := loadReceiptParams(path)
	if err != nil {
		return nil, err
	}
	return st.ReceiptChain(), nil
}

// loadReceiptParams reads the app_state of --params FILE.
func loadReceiptParams(path string) (genesis.AppState, error) {
	bz, err := os.ReadFile(path)
	if err != nil {
		return genesis.AppState{}, fmt.Errorf("--params: %w", err)
	}
	st, err := offline.DecodeAppState(bz)
	if err != nil {
		return genesis.AppState{}, fmt.Errorf("--params %s: %w", path, err)
	}
	return st, nil
}
