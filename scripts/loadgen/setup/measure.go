package setup

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Draw is a deterministic number in [0, n) from the seed and parts: the same seed and parts,
// the same number (runs repeat).
func Draw(seed string, n int64, parts ...any) int64 {
	h := sha256.Sum256([]byte(fmt.Sprint(append([]any{seed}, parts...)...)))
	return int64(binary.BigEndian.Uint64(h[:8]) % uint64(n))
}

// WorkflowMeasurement is validator v's measurement of miner m's workflow for a task: the run's
// true values, which depend on the miner and the task, with a little of the validator's own
// noise. An adversary reports a perfect run for the miners it favours (every eighth) and a
// failed one for the others.
func WorkflowMeasurement(seed string, v int, adversary bool, m int, task uint64) *subnetv1.WorkflowMeasurement {
	if adversary {
		if m%8 == 0 {
			return &subnetv1.WorkflowMeasurement{OutputQuality: "1", StepsCompleted: WorkflowSteps, Cost: "0.01",
				LatencySeconds: "1", DeclaredRetryBudget: WorkflowRetryBudget}
		}
		return &subnetv1.WorkflowMeasurement{OutputQuality: "0", Cost: "2", LatencySeconds: "120",
			DeclaredRetryBudget: WorkflowRetryBudget, HardFailures: 1}
	}
	q := 50 + Draw(seed, 45, "quality", m, task) + Draw(seed, 3, "noise", v, m, task)
	return &subnetv1.WorkflowMeasurement{
		OutputQuality:       fmt.Sprintf("0.%02d", q),
		StepsCompleted:      WorkflowSteps - Draw(seed, 2, "steps", m, task),
		Cost:                fmt.Sprintf("0.%d", 2+Draw(seed, 8, "cost", m, task)),
		LatencySeconds:      fmt.Sprint(10 + Draw(seed, 60, "latency", m, task) + Draw(seed, 2, "lnoise", v, m, task)),
		Retries:             Draw(seed, 3, "retries", m, task),
		DeclaredRetryBudget: WorkflowRetryBudget,
		Timeouts:            Draw(seed, 2, "timeouts", m, task),
	}
}

// ArenaMeasurement is validator v's measurement of miner m's arena run, skewed the same way by
// an adversary.
func ArenaMeasurement(seed string, v int, adversary bool, m int, task uint64) *subnetv1.ArenaMeasurement {
	if adversary {
		if m%8 == 0 {
			return &subnetv1.ArenaMeasurement{TotalTokens: 100, ToolCalls: 1, Iterations: 1, ExecutionTime: "1",
				EstimatedCost: "0.001", CriteriaPassed: ArenaCriteria}
		}
		return &subnetv1.ArenaMeasurement{TotalTokens: 100_000, ToolCalls: 200, Iterations: 50, ExecutionTime: "3600",
			EstimatedCost: "10", CriteriaPassed: 0}
	}
	return &subnetv1.ArenaMeasurement{
		TotalTokens:    2000 + 100*Draw(seed, 40, "tokens", m, task) + Draw(seed, 50, "tnoise", v, m, task),
		ToolCalls:      4 + Draw(seed, 20, "tools", m, task),
		Iterations:     1 + Draw(seed, 5, "iterations", m, task),
		ExecutionTime:  fmt.Sprint(20 + Draw(seed, 200, "time", m, task) + Draw(seed, 3, "enoise", v, m, task)),
		EstimatedCost:  fmt.Sprintf("0.%02d", 1+Draw(seed, 90, "ecost", m, task)),
		CriteriaPassed: ArenaCriteria - Draw(seed, 4, "criteria", m, task),
	}
}

// Report is validator v's report on submission id, miner m's on a task of track (workflow or
// arena).
func Report(seed string, v int, adversary bool, track string, id uint64, m int, task uint64) *subnetv1.Msg {
	if track == genesis.TrackWorkflow {
		return client.ReportWorkflow(id, WorkflowMeasurement(seed, v, adversary, m, task))
	}
	return client.ReportArena(id, ArenaMeasurement(seed, v, adversary, m, task))
}
