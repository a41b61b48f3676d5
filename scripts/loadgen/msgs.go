package main

import (
	"crypto/sha256"
	"fmt"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Message builders. Values vary with the round, the miner and the reporting validator, so
// that windows, baselines and weighted medians see spread; every value is a fixed decimal.

const (
	workflowSteps    = 5
	arenaCriteria    = 10
	submissionBlocks = 20
	reportBlocks     = 40
)

func wrap(m any) *subnetv1.Msg {
	switch v := m.(type) {
	case *subnetv1.MsgRegisterMiner:
		return &subnetv1.Msg{Sum: &subnetv1.Msg_RegisterMiner{RegisterMiner: v}}
	case *subnetv1.MsgPostTask:
		return &subnetv1.Msg{Sum: &subnetv1.Msg_PostTask{PostTask: v}}
	case *subnetv1.MsgSubmit:
		return &subnetv1.Msg{Sum: &subnetv1.Msg_Submit{Submit: v}}
	case *subnetv1.MsgReport:
		return &subnetv1.Msg{Sum: &subnetv1.Msg_Report{Report: v}}
	case *subnetv1.MsgTruth:
		return &subnetv1.Msg{Sum: &subnetv1.Msg_Truth{Truth: v}}
	}
	panic(fmt.Sprintf("loadgen: not a message: %T", m))
}

func artifact(parts ...any) []byte {
	h := sha256.Sum256([]byte(fmt.Sprint(parts...)))
	return h[:]
}

func workflowTask() *subnetv1.Msg {
	return wrap(&subnetv1.MsgPostTask{Task: &subnetv1.MsgPostTask_Workflow{Workflow: &subnetv1.WorkflowTask{
		TotalSteps: workflowSteps, MaxBudget: "2.0", MaxLatencySeconds: "120",
		SubmissionBlocks: submissionBlocks, ReportBlocks: reportBlocks,
	}}})
}

func arenaTask(category, difficulty string) *subnetv1.Msg {
	return wrap(&subnetv1.MsgPostTask{Task: &subnetv1.MsgPostTask_Arena{Arena: &subnetv1.ArenaTask{
		Category: category, Difficulty: difficulty, CriteriaTotal: arenaCriteria,
		SubmissionBlocks: submissionBlocks, ReportBlocks: reportBlocks,
	}}})
}

func workflowSubmit(miner int, task uint64) *subnetv1.Msg {
	return wrap(&subnetv1.MsgSubmit{Kind: &subnetv1.MsgSubmit_Workflow{Workflow: &subnetv1.WorkflowSubmit{
		TaskId: task, DeclaredRetryBudget: 1, ArtifactHash: artifact("workflow", miner, task),
	}}})
}

func arenaSubmit(miner int, task uint64) *subnetv1.Msg {
	return wrap(&subnetv1.MsgSubmit{Kind: &subnetv1.MsgSubmit_Arena{Arena: &subnetv1.ArenaSubmit{
		TaskId: task, ArtifactHash: artifact("arena", miner, task),
	}}})
}

// gasPredict: miner i bids (97 + 2i)% of the round's truth.
func gasPredict(chain, block uint64, miner int, round int) *subnetv1.Msg {
	milli := truthMilli(round) * int64(97+2*miner) // × 10^-5
	return wrap(&subnetv1.MsgSubmit{Kind: &subnetv1.MsgSubmit_Gas{Gas: &subnetv1.GasPredict{
		EvmChainId: chain, EvmBlock: block, Price: fmt.Sprintf("%d.%05d", milli/100000, milli%100000),
	}}})
}

// truthMilli is the round's minimum gas price in thousandths.
func truthMilli(round int) int64 { return int64(20000 + 500*(round%7)) }

func truth(chain, block uint64, round int, timestamp int64) *subnetv1.Msg {
	m := truthMilli(round)
	return wrap(&subnetv1.MsgTruth{EvmChainId: chain, EvmBlock: block, MinPrice: fmt.Sprintf("%d.%03d", m/1000, m%1000), Timestamp: timestamp})
}

// workflowReport: validator v's measurement of miner i's run differs a little from the
// other validators'.
func workflowReport(sub uint64, miner, v, round int) *subnetv1.Msg {
	return wrap(&subnetv1.MsgReport{SubmissionId: sub, Measurement: &subnetv1.MsgReport_Workflow{Workflow: &subnetv1.WorkflowMeasurement{
		OutputQuality:  fmt.Sprintf("0.%02d", 95-7*(miner%10)-v),
		StepsCompleted: int64(workflowSteps - (miner+round)%2),
		Cost:           fmt.Sprintf("0.%d", 2+(miner+v)%8),
		LatencySeconds: fmt.Sprint(10 + 7*miner + v),
		Retries:        int64((miner + round) % 3),
		Timeouts:       int64(round % 2),
	}}})
}

func arenaReport(sub uint64, miner, v, round int) *subnetv1.Msg {
	return wrap(&subnetv1.MsgReport{SubmissionId: sub, Measurement: &subnetv1.MsgReport_Arena{Arena: &subnetv1.ArenaMeasurement{
		TotalTokens:    int64(2000 + 600*miner + 10*v + 50*(round%5)),
		ToolCalls:      int64(6 + 2*miner),
		Iterations:     int64(2 + (miner+round)%3),
		ExecutionTime:  fmt.Sprint(30 + 12*miner + v),
		EstimatedCost:  fmt.Sprintf("0.%02d", 4+miner),
		CriteriaPassed: int64(arenaCriteria - (miner+v)%4),
	}}})
}
