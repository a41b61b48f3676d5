package demo

import (
	"fmt"

	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

// The messages of the demo. Miner i's measurements get worse with i, so the
// leaderboards have a visible order; all values are fixed decimals.

// gasTruth is the minimum gas price of the demo's EVM block b.
func gasTruth(b int) string { return fmt.Sprintf("%d.5", 20+b) }

// gasPayload: miner i predicts the truth × (0.97 + 0.02·i): miner 0
// underbids (not included), the others overpay more and more.
func gasPayload(chain uint64, miner, b int) *subnetv1.MsgSubmit {
	return setup.GasBid(chain, uint64(gasFirstBlock+b), int64(20+b)*1000+500, miner)
}

func workflowReport(sub uint64, miner int) *subnetv1.Msg {
	failures := int64(0)
	if miner == 4 {
		failures = 1
	}
	return client.ReportWorkflow(sub, &subnetv1.WorkflowMeasurement{
		OutputQuality:       fmt.Sprintf("0.%02d", 95-8*(miner%10)),
		StepsCompleted:      int64(setup.WorkflowSteps - miner%2),
		Cost:                fmt.Sprintf("0.%d", 2+miner%8),
		LatencySeconds:      fmt.Sprint(10 + 7*miner),
		Retries:             int64(miner % 3),
		DeclaredRetryBudget: setup.WorkflowRetryBudget,
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
		CriteriaPassed: int64(setup.ArenaCriteria - miner%4),
	})
}

func truthMsg(chain uint64, b int, timestamp int64) *subnetv1.Msg {
	return client.Truth(chain, uint64(gasFirstBlock+b), gasTruth(b), timestamp)
}
