package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/scripts/examples/internal/toy"
)

// input is the measurement's stdin.
type input struct {
	Track      string              `json:"track"`
	Submission wire.SubmissionView `json:"submission"`
	Task       wire.TaskView       `json:"task"`
	Artifact   []byte              `json:"artifact"`
}

// output is the report line's measurement: one of the two is set.
type output struct {
	Workflow *wire.WorkflowMeasurementView `json:"workflow,omitempty"`
	Arena    *wire.ArenaMeasurementView    `json:"arena,omitempty"`
}

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "measure:", err)
		os.Exit(1)
	}
}

func run(stdin io.Reader, stdout io.Writer) error {
	var in input
	if err := json.NewDecoder(stdin).Decode(&in); err != nil {
		return fmt.Errorf("reading stdin: %w", err)
	}
	var out output
	switch in.Track {
	case "workflow":
		if in.Task.Workflow == nil {
			return fmt.Errorf("workflow track but task %d has no workflow spec", in.Task.ID)
		}
		out.Workflow = measureWorkflow(in)
	case "arena":
		if in.Task.Arena == nil {
			return fmt.Errorf("arena track but task %d has no arena spec", in.Task.ID)
		}
		out.Arena = measureArena(in)
	default:
		return fmt.Errorf("track %q: this measurement does workflow and arena", in.Track)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = stdout.Write(append(b, '\n'))
	return err
}

// decodeStrict decodes one JSON value with no unknown fields and nothing
// after it.
func decodeStrict(b []byte, v any) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if dec.Decode(v) != nil {
		return false
	}
	var rest json.RawMessage
	return dec.Decode(&rest) == io.EOF
}

func lowestWorkflow() *wire.WorkflowMeasurementView {
	return &wire.WorkflowMeasurementView{OutputQuality: toy.Micros(0), Cost: toy.Micros(0), LatencySeconds: toy.Micros(0)}
}

func measureWorkflow(in input) *wire.WorkflowMeasurementView {
	var w toy.Workflow
	if !decodeStrict(in.Artifact, &w) || w.Task != in.Task.ID || w.UID != in.Submission.UID {
		return lowestWorkflow()
	}
	total := in.Task.Workflow.TotalSteps
	m := lowestWorkflow()
	var cost, latency int64
	for i, s := range w.Plan {
		if int64(i) >= total {
			break
		}
		valid := s.Step == int64(i)+1 && toy.KnownAction(s.Action) &&
			s.Check == toy.StepCheck(w.Task, s.Step, s.Action) &&
			s.CostMicros >= 0 && s.CostMicros <= toy.MaxStepMicros &&
			s.LatencyMicros >= 0 && s.LatencyMicros <= toy.MaxStepMicros
		if !valid {
			m.HardFailures++
			continue
		}
		m.StepsCompleted++
		cost += s.CostMicros
		latency += s.LatencyMicros
	}
	for _, r := range w.ErrorHandling {
		if r.Step >= 1 && r.Step <= int64(len(w.Plan)) && r.RetryCount > 0 {
			m.DeclaredRetryBudget += min(r.RetryCount, 1000)
		}
	}
	m.OutputQuality = toy.Ratio(m.StepsCompleted, total)
	m.Cost = toy.Micros(cost)
	m.LatencySeconds = toy.Micros(latency)
	return m
}

func lowestArena() *wire.ArenaMeasurementView {
	return &wire.ArenaMeasurementView{Iterations: 1, ExecutionTime: toy.Micros(0), EstimatedCost: toy.Micros(0)}
}

// Per-call and per-token time and cost of an arena run (millionths).
const (
	callMicros      = 50_000 // 0.05 s per tool call
	tokenMicros     = 1_000  // 1 ms per token
	tokenCostMicros = 2      // 0.000002 per token
)

func measureArena(in input) *wire.ArenaMeasurementView {
	var a toy.Arena
	if !decodeStrict(in.Artifact, &a) || a.Task != in.Task.ID || a.UID != in.Submission.UID ||
		len(a.Run.Calls) > toy.MaxCalls {
		return lowestArena()
	}
	m := lowestArena()
	for c := int64(1); c <= in.Task.Arena.CriteriaTotal && c <= int64(len(a.Run.Answers)); c++ {
		if a.Run.Answers[c-1] == toy.Answer(a.Task, c) {
			m.CriteriaPassed++
		}
	}
	var tokens int64
	for _, call := range a.Run.Calls {
		tokens += int64(len(strings.Fields(call.Tool)) + len(strings.Fields(call.Input)) + len(strings.Fields(call.Output)))
	}
	for _, ans := range a.Run.Answers {
		tokens += int64(len(strings.Fields(ans)))
	}
	m.TotalTokens = tokens
	m.ToolCalls = int64(len(a.Run.Calls))
	m.Iterations = max(1, m.ToolCalls)
	m.ExecutionTime = toy.Micros(m.ToolCalls*callMicros + tokens*tokenMicros)
	m.EstimatedCost = toy.Micros(tokens * tokenCostMicros)
	return m
}
