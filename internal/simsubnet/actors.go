package simsubnet

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

// validator is one validator's report key and whether it is the
// adversary.
type validator struct {
	*actor
	index     int
	adversary bool
}

// miner is one miner's key and uid (once registered).
type miner struct {
	*actor
	index      int
	uid        uint32
	registered bool
}

// pendingSub is a payload a miner committed to, waiting for its reveal.
type pendingSub struct {
	miner    *miner
	payload  *subnetv1.MsgSubmit
	salt     client.Salt
	track    string
	task     uint64 // task tracks
	evmBlock int64  // gas: the sim's EVM block index
}

// draw is a deterministic number in [0, n) from the seed and parts.
func draw(seed string, n int64, parts ...any) int64 {
	h := sha256.Sum256([]byte(fmt.Sprint(append([]any{seed}, parts...)...)))
	return int64(binary.BigEndian.Uint64(h[:8]) % uint64(n))
}

// orderKey sorts a height's messages (see message.order).
func orderKey(seed string, parts ...any) [32]byte {
	return sha256.Sum256([]byte(fmt.Sprint(append([]any{seed, "order"}, parts...)...)))
}

// salt is the miner's salt of a payload: derived, not drawn, so that runs
// repeat (client.NewSalt draws from crypto/rand).
func salt(seed string, parts ...any) client.Salt {
	return sha256.Sum256([]byte(fmt.Sprint(append([]any{seed, "salt"}, parts...)...)))
}

// evmTime is the timestamp of the sim's EVM block b.
func (s *sim) evmTime(b int64) int64 { return GenesisTime + b*s.cfg.EVMEvery*BlockSeconds }

// truthMilli is EVM block b's minimum gas price in thousandths of a gwei.
func truthMilli(b int64) int64 { return 20_000 + 500*(b%7) }

func truthPrice(b int64) string {
	m := truthMilli(b)
	return fmt.Sprintf("%d.%03d", m/1000, m%1000)
}

// workflowMeasurement is validator v's measurement of miner m's workflow
// for a task: the run's true values, which depend on the miner and the
// task, with a little of the validator's own noise. The adversary reports
// a perfect run for the miners it favours (every eighth) and a failed one
// for the others.
func (s *sim) workflowMeasurement(v *validator, m int, task uint64) *subnetv1.WorkflowMeasurement {
	if v.adversary {
		if m%8 == 0 {
			return &subnetv1.WorkflowMeasurement{OutputQuality: "1", StepsCompleted: setup.WorkflowSteps, Cost: "0.01",
				LatencySeconds: "1", DeclaredRetryBudget: setup.WorkflowRetryBudget}
		}
		return &subnetv1.WorkflowMeasurement{OutputQuality: "0", Cost: "2", LatencySeconds: "120",
			DeclaredRetryBudget: setup.WorkflowRetryBudget, HardFailures: 1}
	}
	q := 50 + draw(s.cfg.Seed, 45, "quality", m, task) + draw(s.cfg.Seed, 3, "noise", v.index, m, task)
	return &subnetv1.WorkflowMeasurement{
		OutputQuality:       fmt.Sprintf("0.%02d", q),
		StepsCompleted:      setup.WorkflowSteps - draw(s.cfg.Seed, 2, "steps", m, task),
		Cost:                fmt.Sprintf("0.%d", 2+draw(s.cfg.Seed, 8, "cost", m, task)),
		LatencySeconds:      fmt.Sprint(10 + draw(s.cfg.Seed, 60, "latency", m, task) + draw(s.cfg.Seed, 2, "lnoise", v.index, m, task)),
		Retries:             draw(s.cfg.Seed, 3, "retries", m, task),
		DeclaredRetryBudget: setup.WorkflowRetryBudget,
		Timeouts:            draw(s.cfg.Seed, 2, "timeouts", m, task),
	}
}

// arenaMeasurement is validator v's measurement of miner m's arena run,
// skewed the same way by the adversary.
func (s *sim) arenaMeasurement(v *validator, m int, task uint64) *subnetv1.ArenaMeasurement {
	if v.adversary {
		if m%8 == 0 {
			return &subnetv1.ArenaMeasurement{TotalTokens: 100, ToolCalls: 1, Iterations: 1, ExecutionTime: "1",
				EstimatedCost: "0.001", CriteriaPassed: setup.ArenaCriteria}
		}
		return &subnetv1.ArenaMeasurement{TotalTokens: 100_000, ToolCalls: 200, Iterations: 50, ExecutionTime: "3600",
			EstimatedCost: "10", CriteriaPassed: 0}
	}
	return &subnetv1.ArenaMeasurement{
		TotalTokens:    2000 + 100*draw(s.cfg.Seed, 40, "tokens", m, task) + draw(s.cfg.Seed, 50, "tnoise", v.index, m, task),
		ToolCalls:      4 + draw(s.cfg.Seed, 20, "tools", m, task),
		Iterations:     1 + draw(s.cfg.Seed, 5, "iterations", m, task),
		ExecutionTime:  fmt.Sprint(20 + draw(s.cfg.Seed, 200, "time", m, task) + draw(s.cfg.Seed, 3, "enoise", v.index, m, task)),
		EstimatedCost:  fmt.Sprintf("0.%02d", 1+draw(s.cfg.Seed, 90, "ecost", m, task)),
		CriteriaPassed: setup.ArenaCriteria - draw(s.cfg.Seed, 4, "criteria", m, task),
	}
}

// report is validator v's report on a revealed task submission.
func (s *sim) report(v *validator, sub *subRecord) *subnetv1.Msg {
	if sub.track == genesis.TrackWorkflow {
		return client.ReportWorkflow(sub.id, s.workflowMeasurement(v, sub.miner, sub.task))
	}
	return client.ReportArena(sub.id, s.arenaMeasurement(v, sub.miner, sub.task))
}
