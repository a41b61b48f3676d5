package setup

import (
	"fmt"

	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// The tasks' shape; every value is a fixed decimal.
const (
	WorkflowSteps = 5
	ArenaCriteria = 10
	// WorkflowRetryBudget is the retry budget every load miner's workflow declares (retry_count
	// 1 in one step's error_handling): the miners do not send it, every validator reads the
	// same value from the workflow and reports it.
	WorkflowRetryBudget = 1
)

// Windows are a task's windows in blocks: commits for Submission blocks after the post,
// reports until Report blocks after it.
type Windows struct{ Submission, Report int64 }

// WorkflowTask posts a workflow task of WorkflowSteps steps.
func WorkflowTask(w Windows) *subnetv1.Msg {
	return client.PostWorkflowTask(&subnetv1.WorkflowTask{
		TotalSteps: WorkflowSteps, MaxBudget: "2.0", MaxLatencySeconds: "120",
		SubmissionBlocks: w.Submission, ReportBlocks: w.Report,
	})
}

// ArenaTask posts an arena task of ArenaCriteria criteria.
func ArenaTask(category, difficulty string, w Windows) *subnetv1.Msg {
	return client.PostArenaTask(&subnetv1.ArenaTask{
		Category: category, Difficulty: difficulty, CriteriaTotal: ArenaCriteria,
		SubmissionBlocks: w.Submission, ReportBlocks: w.Report,
	})
}

// WorkflowPayload is what miner i commits to for a workflow task (its own artifact).
func WorkflowPayload(miner int, task uint64) *subnetv1.MsgSubmit {
	return client.WorkflowPayload(task, client.ArtifactHash("workflow", miner, task))
}

// ArenaPayload is miner i's run of an arena task (its own artifact).
func ArenaPayload(miner int, task uint64) *subnetv1.MsgSubmit {
	return client.ArenaPayload(task, client.ArtifactHash("arena", miner, task))
}

// GasBid is miner i's prediction for an EVM block whose truth is truthMilli thousandths:
// (97 + 2i)% of it, so miner 0 underbids (not included) and the others overpay more and more.
func GasBid(chain, block uint64, truthMilli int64, miner int) *subnetv1.MsgSubmit {
	price := truthMilli * int64(97+2*miner) // × 10^-5
	return client.GasPayload(chain, block, fmt.Sprintf("%d.%05d", price/100000, price%100000))
}
