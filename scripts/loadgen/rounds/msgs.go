package rounds

import (
	"fmt"

	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

// Message values. They vary with the round, the miner and the reporting validator, so
// that windows, baselines and weighted medians see spread; every value is a fixed decimal.

// roundWindows are the windows of the rounds' tasks.
var roundWindows = setup.Windows{Submission: 20, Report: 40}

// gasPayload: miner i bids (97 + 2i)% of the round's truth.
func gasPayload(chain, block uint64, miner int, round int) *subnetv1.MsgSubmit {
	return setup.GasBid(chain, block, truthMilli(round), miner)
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
		StepsCompleted:      int64(setup.WorkflowSteps - (miner+round)%2),
		Cost:                fmt.Sprintf("0.%d", 2+(miner+v)%8),
		LatencySeconds:      fmt.Sprint(10 + 7*miner + v),
		Retries:             int64((miner + round) % 3),
		DeclaredRetryBudget: setup.WorkflowRetryBudget,
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
		CriteriaPassed: int64(setup.ArenaCriteria - (miner+v)%4),
	})
}
