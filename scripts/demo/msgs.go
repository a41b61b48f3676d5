package main

import (
	"fmt"

	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// The messages of the demo. Miner i's measurements get worse with i, so the
// leaderboards have a visible order; all values are fixed decimals.

func workflowTaskMsg() *subnetv1.Msg {
	return client.PostWorkflowTask(&subnetv1.WorkflowTask{
		TotalSteps: workflowSteps, MaxBudget: "2.0", MaxLatencySeconds: "120",
		SubmissionBlocks: submissionBlocks, ReportBlocks: reportBlocks,
	})
}

func arenaTaskMsg(category, difficulty string) *subnetv1.Msg {
	return client.PostArenaTask(&subnetv1.ArenaTask{
		Category: category, Difficulty: difficulty, CriteriaTotal: arenaCriteria,
		SubmissionBlocks: submissionBlocks, ReportBlocks: reportBlocks,
	})
}

// workflowRetryBudget is the retry budget every demo miner's workflow
// declares: retry_count 1 in one step's error_handling. The miners do not
// send it; the validators read it from the workflow and report it.
const workflowRetryBudget = 1

// workflowPayload is miner i's workflow for a task: what it commits to and
// later reveals.
func workflowPayload(miner int, task uint64) *subnetv1.MsgSubmit {
	return client.WorkflowPayload(task, client.ArtifactHash("workflow", miner, task))
}

func arenaPayload(miner int, task uint64) *subnetv1.MsgSubmit {
	return client.ArenaPayload(task, client.ArtifactHash("arena", miner, task))
}

// gasTruth is the minimum gas price of the demo's EVM block b.
func gasTruth(b int) string { return fmt.Sprintf("%d.5", 20+b) }

// gasPayload: miner i predicts the truth × (0.97 + 0.02·i): miner 0
// underbids (not included), the others overpay more and more.
func gasPayload(chain uint64, miner, b int) *subnetv1.MsgSubmit {
	truthMilli := int64(20+b)*1000 + 500
	price := truthMilli * int64(97+2*miner) // × 10^-5
	return client.GasPayload(chain, uint64(gasFirstBlock+b), fmt.Sprintf("%d.%05d", price/100000, price%100000))
}

func workflowReport(sub uint64, miner int) *subnetv1.Msg {
	failures := int64(0)
	if miner == 4 {
		failures = 1
	}
	return client.ReportWorkflow(sub, &subnetv1.WorkflowMeasurement{
		OutputQuality:       fmt.Sprintf("0.%02d", 95-8*(miner%10)),
		StepsCompleted:      int64(workflowSteps - miner%2),
		Cost:                fmt.Sprintf("0.%d", 2+miner%8),
		LatencySeconds:      fmt.Sprint(10 + 7*miner),
		Retries:             int64(miner % 3),
		DeclaredRetryBudget: workflowRetryBudget,
		HardFailures:        failures,
	})
}

func arenaReport(sub uint64, miner int) *subnetv1.Msg {
	return client.ReportArena(sub, &subnetv1.ArenaMeasurement{
		TotalTokens:    int64(2000 + 600*miner),
		ToolCalls:      int64(6 + 2*miner),
		Iterations:     int64(2 + miner%3),
		ExecutionTime:  fmt.Sprint(30 + 12*miner),
		EstimatedCost:  fmt.Sprintf("0.%02d", 4+miner),
		CriteriaPassed: int64(arenaCriteria - miner%4),
	})
}

func truthMsg(chain uint64, b int, timestamp int64) *subnetv1.Msg {
	return client.Truth(chain, uint64(gasFirstBlock+b), gasTruth(b), timestamp)
}
