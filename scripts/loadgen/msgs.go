package main

import (
	"fmt"

	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Message values. They vary with the round, the miner and the reporting validator, so
// that windows, baselines and weighted medians see spread; every value is a fixed decimal.

const (
	workflowSteps    = 5
	arenaCriteria    = 10
	submissionBlocks = 20
	reportBlocks     = 40
)

func workflowTask() *subnetv1.Msg {
	return client.PostWorkflowTask(&subnetv1.WorkflowTask{
		TotalSteps: workflowSteps, MaxBudget: "2.0", MaxLatencySeconds: "120",
		SubmissionBlocks: submissionBlocks, ReportBlocks: reportBlocks,
	})
}

func arenaTask(category, difficulty string) *subnetv1.Msg {
	return client.PostArenaTask(&subnetv1.ArenaTask{
		Category: category, Difficulty: difficulty, CriteriaTotal: arenaCriteria,
		SubmissionBlocks: submissionBlocks, ReportBlocks: reportBlocks,
	})
}

// workflowRetryBudget is the retry budget every load-generator miner's
// workflow declares (retry_count 1 in one step's error_handling): the miners
// do not send it, every validator reads the same value from the workflow and
// reports it.
const workflowRetryBudget = 1

// workflowPayload is what miner i commits to for a workflow task (its own artifact).
func workflowPayload(miner int, task uint64) *subnetv1.MsgSubmit {
	return client.WorkflowPayload(task, client.ArtifactHash("workflow", miner, task))
}

func arenaPayload(miner int, task uint64) *subnetv1.MsgSubmit {
	return client.ArenaPayload(task, client.ArtifactHash("arena", miner, task))
}

// gasPayload: miner i bids (97 + 2i)% of the round's truth.
func gasPayload(chain, block uint64, miner int, round int) *subnetv1.MsgSubmit {
	milli := truthMilli(round) * int64(97+2*miner) // × 10^-5
	return client.GasPayload(chain, block, fmt.Sprintf("%d.%05d", milli/100000, milli%100000))
}

// truthPrice is the round's minimum gas price, as its truths state it.
func truthPrice(round int) string {
	m := truthMilli(round)
	return fmt.Sprintf("%d.%03d", m/1000, m%1000)
}

// truthMilli is the round's minimum gas price in thousandths.
func truthMilli(round int) int64 { return int64(20000 + 500*(round%7)) }

func truth(chain, block uint64, round int, timestamp int64) *subnetv1.Msg {
	return client.Truth(chain, block, truthPrice(round), timestamp)
}

// workflowReport: validator v's measurement of miner i's run differs a little from the
// other validators'.
func workflowReport(sub uint64, miner, v, round int) *subnetv1.Msg {
	return client.ReportWorkflow(sub, &subnetv1.WorkflowMeasurement{
		OutputQuality:       fmt.Sprintf("0.%02d", 95-7*(miner%10)-v),
		StepsCompleted:      int64(workflowSteps - (miner+round)%2),
		Cost:                fmt.Sprintf("0.%d", 2+(miner+v)%8),
		LatencySeconds:      fmt.Sprint(10 + 7*miner + v),
		Retries:             int64((miner + round) % 3),
		DeclaredRetryBudget: workflowRetryBudget,
		Timeouts:            int64(round % 2),
	})
}

func arenaReport(sub uint64, miner, v, round int) *subnetv1.Msg {
	return client.ReportArena(sub, &subnetv1.ArenaMeasurement{
		TotalTokens:    int64(2000 + 600*miner + 10*v + 50*(round%5)),
		ToolCalls:      int64(6 + 2*miner),
		Iterations:     int64(2 + (miner+round)%3),
		ExecutionTime:  fmt.Sprint(30 + 12*miner + v),
		EstimatedCost:  fmt.Sprintf("0.%02d", 4+miner),
		CriteriaPassed: int64(arenaCriteria - (miner+v)%4),
	})
}
