package toy

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
)

// Workflow is a workflow artifact: a plan of steps and the retries it
// declares for them.
type Workflow struct {
	Task          uint64        `json:"task"`
	UID           uint32        `json:"uid"`
	Plan          []Step        `json:"plan"`
	ErrorHandling []RetryPolicy `json:"error_handling,omitempty"`
}

// Step is one step of a workflow plan. Cost and latency are in millionths
// (of the task's budget unit and of a second) so that measuring them is
// exact integer arithmetic.
type Step struct {
	Step          int64  `json:"step"`
	Action        string `json:"action"`
	Check         string `json:"check"`
	CostMicros    int64  `json:"cost_micros"`
	LatencyMicros int64  `json:"latency_micros"`
}

// RetryPolicy declares how often a step may be retried.
type RetryPolicy struct {
	Step       int64 `json:"step"`
	RetryCount int64 `json:"retry_count"`
}

// Arena is an arena artifact: one run of the task.
type Arena struct {
	Task uint64 `json:"task"`
	UID  uint32 `json:"uid"`
	Run  Run    `json:"run"`
}

// Run is what an arena run did: its tool calls and its answer to each
// criterion (answers[i] for criterion i+1).
type Run struct {
	Calls   []Call   `json:"calls"`
	Answers []string `json:"answers"`
}

// Call is one tool call of a run.
type Call struct {
	Tool   string `json:"tool"`
	Input  string `json:"input"`
	Output string `json:"output"`
}

// Actions are the step actions a plan may use.
var Actions = []string{"fetch", "parse", "transform", "validate", "aggregate", "publish"}

// KnownAction reports whether a is one of Actions.
func KnownAction(a string) bool {
	for _, k := range Actions {
		if k == a {
			return true
		}
	}
	return false
}

// Limits on what a step may claim, so a measurement stays in the chain's
// ranges whatever an artifact says.
const (
	MaxStepMicros = 1_000_000_000 // 1000 units or seconds per step
	MaxCalls      = 10_000
)

// digest is sha256 over the parts, each length-prefixed so that no two
// lists of parts collide.
func digest(parts ...string) []byte {
	h := sha256.New()
	var n [8]byte
	for _, p := range parts {
		binary.BigEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write([]byte(p))
	}
	return h.Sum(nil)
}

func u64(v uint64) string { return strconv.FormatUint(v, 10) }

// StepCheck is the proof a valid step carries: the right value depends on
// the task, the step number and the action, so a step is valid only if it
// was made for this task at this place in the plan.
func StepCheck(task uint64, step int64, action string) string {
	return hex.EncodeToString(digest("workflow-step", u64(task), strconv.FormatInt(step, 10), action)[:8])
}

// Answer is the right answer to criterion c (from 1) of an arena task.
func Answer(task uint64, c int64) string {
	return hex.EncodeToString(digest("arena-criterion", u64(task), strconv.FormatInt(c, 10))[:8])
}

// Seed is a miner's own randomness for a task: different uids make
// different (but each reproducible) artifacts.
func Seed(task uint64, uid uint32, what string, i int64) uint64 {
	return binary.BigEndian.Uint64(digest("seed", u64(task), u64(uint64(uid)), what, strconv.FormatInt(i, 10)))
}

// Micros formats a count of millionths as a decimal with 6 places, the
// form the chain's decimal fields accept.
func Micros(m int64) string {
	sign := ""
	if m < 0 {
		sign, m = "-", -m
	}
	return fmt.Sprintf("%s%d.%06d", sign, m/1_000_000, m%1_000_000)
}

// Ratio formats num/den as a decimal in [0, 1] with 6 places (truncated);
// 0 when den is not positive.
func Ratio(num, den int64) string {
	if den <= 0 || num <= 0 {
		return Micros(0)
	}
	if num >= den {
		return Micros(1_000_000)
	}
	return Micros(num * 1_000_000 / den)
}
