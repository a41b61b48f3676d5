package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Each define* registers the flags of one message, one flag per message
// field, and returns the function that builds the message from them.

func defineDeregisterMiner(*flag.FlagSet) func() (*subnetv1.Msg, error) {
	return func() (*subnetv1.Msg, error) { return client.DeregisterMiner(), nil }
}

func definePostWorkflow(fs *flag.FlagSet) func() (*subnetv1.Msg, error) {
	steps := fs.Int64("total-steps", 0, "steps of the workflow DAG")
	budget := newDecimal(fs, "max-budget", "", "maximum cost")
	latency := newDecimal(fs, "max-latency-seconds", "", "maximum latency in seconds")
	subBlocks, repBlocks := defineTaskWindows(fs)
	return func() (*subnetv1.Msg, error) {
		if err := requireSet(fs, "total-steps", "max-budget", "max-latency-seconds"); err != nil {
			return nil, err
		}
		ds, err := decimals(budget, latency)
		if err != nil {
			return nil, err
		}
		return client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: *steps, MaxBudget: ds[0], MaxLatencySeconds: ds[1],
			SubmissionBlocks: *subBlocks, ReportBlocks: *repBlocks}), nil
	}
}

// The default task windows: minutes of block time at init's default
// timeout_commit (1 s), long enough for a person to type a miner's submit
// and a validator's report.
const (
	defaultSubmissionBlocks = 300
	defaultReportBlocks     = 600
)

// defineTaskWindows registers --submission-blocks and --report-blocks.
func defineTaskWindows(fs *flag.FlagSet) (sub, rep *int64) {
	sub = fs.Int64("submission-blocks", defaultSubmissionBlocks,
		fmt.Sprintf("blocks miners may commit for: %d blocks is ~%d min at init's 1 s blocks (at most the genesis chain.max_submission_blocks)", defaultSubmissionBlocks, defaultSubmissionBlocks/60))
	rep = fs.Int64("report-blocks", defaultReportBlocks,
		fmt.Sprintf("blocks validators may report for, after the reveal window: %d blocks is ~%d min at 1 s blocks (at most chain.max_report_blocks)", defaultReportBlocks, defaultReportBlocks/60))
	return sub, rep
}

// arenaBaselineFlags are the flags of the default baseline of an arena task,
// in the order of subnetv1.ArenaBaseline.
var arenaBaselineFlags = []string{
	"min-tokens", "q25-tokens", "median-tokens", "q75-tokens", "max-tokens",
	"min-tool-calls", "median-tool-calls", "max-tool-calls", "median-iterations",
	"min-execution-time", "median-execution-time", "max-execution-time",
	"min-cost", "median-cost", "max-cost",
}

func definePostArena(fs *flag.FlagSet) func() (*subnetv1.Msg, error) {
	category := fs.String("category", "", "task category (one of the genesis arena categories)")
	difficulty := fs.String("difficulty", "", "task difficulty (one of the genesis arena difficulties)")
	criteria := fs.Int64("criteria-total", 0, "number of success criteria")
	subBlocks, repBlocks := defineTaskWindows(fs)
	count := fs.Int64("baseline-submission-count", 0, "default baseline: submission count")
	base := make([]decimalFlag, len(arenaBaselineFlags))
	for i, n := range arenaBaselineFlags {
		base[i] = newDecimal(fs, "baseline-"+n, "", "default baseline: "+n+"; all baseline flags together or none (none: the app's default)")
	}
	return func() (*subnetv1.Msg, error) {
		if err := requireSet(fs, "category", "difficulty", "criteria-total"); err != nil {
			return nil, err
		}
		bl, err := arenaBaseline(fs, *count, base)
		if err != nil {
			return nil, err
		}
		return client.PostArenaTask(&subnetv1.ArenaTask{Category: *category, Difficulty: *difficulty, CriteriaTotal: *criteria,
			DefaultBaseline: bl, SubmissionBlocks: *subBlocks, ReportBlocks: *repBlocks}), nil
	}
}

// arenaBaseline builds the default baseline when any baseline flag was set.
func arenaBaseline(fs *flag.FlagSet, count int64, base []decimalFlag) (*subnetv1.ArenaBaseline, error) {
	given := false
	fs.Visit(func(f *flag.Flag) {
		if len(f.Name) > 9 && f.Name[:9] == "baseline-" {
			given = true
		}
	})
	if !given {
		return nil, nil
	}
	v, err := decimals(base...)
	if err != nil {
		return nil, fmt.Errorf("%w (a default baseline needs every --baseline-* flag)", err)
	}
	return &subnetv1.ArenaBaseline{
		SubmissionCount: count,
		MinTokens:       v[0], Q25Tokens: v[1], MedianTokens: v[2], Q75Tokens: v[3], MaxTokens: v[4],
		MinToolCalls: v[5], MedianToolCalls: v[6], MaxToolCalls: v[7], MedianIterations: v[8],
		MinExecutionTime: v[9], MedianExecutionTime: v[10], MaxExecutionTime: v[11],
		MinCost: v[12], MedianCost: v[13], MaxCost: v[14],
	}, nil
}

func defineReportWorkflow(fs *flag.FlagSet) func() (*subnetv1.Msg, error) {
	sub := fs.Uint64("submission-id", 0, "id of the submission measured")
	quality := newDecimal(fs, "output-quality", "", "output quality in [0,1]")
	steps := fs.Int64("steps-completed", 0, "steps completed")
	cost := newDecimal(fs, "cost", "", "measured cost")
	latency := newDecimal(fs, "latency-seconds", "", "measured latency in seconds")
	retries := fs.Int64("retries", 0, "retries")
	budget := fs.Int64("declared-retry-budget", 0, "sum of the retry_count values in the workflow's error_handling (0 if absent)")
	timeouts := fs.Int64("timeouts", 0, "timeouts")
	failures := fs.Int64("hard-failures", 0, "hard failures")
	dup := defineDuplicateOf(fs)
	return func() (*subnetv1.Msg, error) {
		if err := requireSet(fs, "submission-id", "output-quality", "steps-completed", "cost", "latency-seconds"); err != nil {
			return nil, err
		}
		ds, err := decimals(quality, cost, latency)
		if err != nil {
			return nil, err
		}
		return client.DuplicateOf(client.ReportWorkflow(*sub, &subnetv1.WorkflowMeasurement{OutputQuality: ds[0], StepsCompleted: *steps, Cost: ds[1],
			LatencySeconds: ds[2], Retries: *retries, DeclaredRetryBudget: *budget, Timeouts: *timeouts, HardFailures: *failures}), *dup), nil
	}
}

func defineReportArena(fs *flag.FlagSet) func() (*subnetv1.Msg, error) {
	sub := fs.Uint64("submission-id", 0, "id of the submission measured")
	tokens := fs.Int64("total-tokens", 0, "tokens used")
	tools := fs.Int64("tool-calls", 0, "tool calls")
	iters := fs.Int64("iterations", 0, "iterations")
	exec := newDecimal(fs, "execution-time", "", "execution time in seconds")
	cost := newDecimal(fs, "estimated-cost", "", "estimated cost")
	passed := fs.Int64("criteria-passed", 0, "success criteria passed")
	dup := defineDuplicateOf(fs)
	return func() (*subnetv1.Msg, error) {
		if err := requireSet(fs, "submission-id", "total-tokens", "execution-time", "estimated-cost", "criteria-passed"); err != nil {
			return nil, err
		}
		ds, err := decimals(exec, cost)
		if err != nil {
			return nil, err
		}
		return client.DuplicateOf(client.ReportArena(*sub, &subnetv1.ArenaMeasurement{TotalTokens: *tokens, ToolCalls: *tools, Iterations: *iters,
			ExecutionTime: ds[0], EstimatedCost: ds[1], CriteriaPassed: *passed}), *dup), nil
	}
}

// defineDuplicateOf is the reports' --duplicate-of flag.
func defineDuplicateOf(fs *flag.FlagSet) *uint64 {
	return fs.Uint64("duplicate-of", 0, "id of an earlier revealed submission of the same task that the reported one is a near-copy of (0: none)")
}

func defineTruth(fs *flag.FlagSet) func() (*subnetv1.Msg, error) {
	chain := fs.Uint64("evm-chain-id", 0, "EVM chain id")
	block := fs.Uint64("evm-block", 0, "EVM block number")
	price := newDecimal(fs, "min-price", "", "the block's minimum non-zero gas price")
	ts := fs.Int64("timestamp", 0, "the block's timestamp (unix seconds)")
	empty := fs.Bool("empty", false, "the block had no transaction with a non-zero gas price (instead of --min-price)")
	return func() (*subnetv1.Msg, error) {
		if err := requireSet(fs, "evm-chain-id", "evm-block", "timestamp"); err != nil {
			return nil, err
		}
		if *empty {
			if requireSet(fs, "min-price") == nil {
				return nil, errors.New("--empty and --min-price: give one (an empty block has no price)")
			}
			return client.EmptyTruth(*chain, *block, *ts), nil
		}
		if err := requireSet(fs, "min-price"); err != nil {
			return nil, err
		}
		p, err := price.get()
		if err != nil {
			return nil, err
		}
		return client.Truth(*chain, *block, p, *ts), nil
	}
}
