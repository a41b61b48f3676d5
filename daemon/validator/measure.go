package validator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// MeasureInput is the one JSON object the measurement command reads on
// stdin: the submission's track, its view and its task's view as the
// node's queries answer them (`query submission`, `query task`), and the
// artifact whose hash the chain holds (base64).
type MeasureInput struct {
	Track      string               `json:"track"`
	Submission *wire.SubmissionView `json:"submission"`
	Task       *wire.TaskView       `json:"task"`
	Artifact   []byte               `json:"artifact"`
}

// DecodeMeasurement reads the command's stdout: one JSON object, a line of
// `validatord tx report batch` without its submission_id
// ({"workflow": {…}} or {"arena": {…}}, optionally "duplicate_of": N),
// decoded by client.DecodeReportLines as that command decodes it. The
// measurement must be of the submission's track and within the chain's
// ranges for its task, so that the chain takes it; anything else is an
// *OutputError.
func DecodeMeasurement(out []byte, sub *wire.SubmissionView, task *wire.TaskView) (*subnetv1.MsgReport, error) {
	bad := func(format string, args ...any) error {
		return &OutputError{Submission: sub.ID, Reason: fmt.Sprintf(format, args...)}
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	var fields map[string]json.RawMessage
	if err := dec.Decode(&fields); err != nil {
		return nil, bad("stdout is not one JSON object: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, bad("stdout holds more than one JSON value")
	}
	if _, ok := fields["submission_id"]; ok {
		return nil, bad("the output names a submission_id: the daemon adds it (print only the measurement)")
	}
	fields["submission_id"] = json.RawMessage(fmt.Sprint(sub.ID))
	line, err := json.Marshal(fields) // one line: the decoder reads JSON lines
	if err != nil {
		return nil, bad("%v", err)
	}
	msgs, err := client.DecodeReportLines(bytes.NewReader(line))
	if err != nil {
		return nil, bad("%v", err)
	}
	if len(msgs) != 1 {
		return nil, bad("want one measurement, got %d", len(msgs))
	}
	r := msgs[0].GetReport()
	if terr := checkRanges(r, sub, task); terr != nil {
		return nil, bad("the chain would refuse it: %v", terr)
	}
	return r, nil
}

// checkRanges applies the chain's field ranges (wire's checkers) and the
// task's bounds to a measurement, and checks its kind against the track.
func checkRanges(r *subnetv1.MsgReport, sub *wire.SubmissionView, task *wire.TaskView) error {
	switch {
	case r.GetWorkflow() != nil && sub.Track == "workflow" && task.Workflow != nil:
		w := r.GetWorkflow()
		_, e1 := wire.Fraction("output_quality", w.OutputQuality)
		_, e2 := wire.Amount("cost", w.Cost)
		_, e3 := wire.Amount("latency_seconds", w.LatencySeconds)
		if terr := wire.FirstErr(e1, e2, e3, wire.Count("steps_completed", w.StepsCompleted, false),
			wire.Count("retries", w.Retries, false), wire.Count("declared_retry_budget", w.DeclaredRetryBudget, false),
			wire.Count("timeouts", w.Timeouts, false), wire.Count("hard_failures", w.HardFailures, false)); terr != nil {
			return terr
		}
		if w.StepsCompleted > task.Workflow.TotalSteps {
			return fmt.Errorf("steps_completed = %d: the task has total_steps = %d", w.StepsCompleted, task.Workflow.TotalSteps)
		}
	case r.GetArena() != nil && sub.Track == "arena" && task.Arena != nil:
		a := r.GetArena()
		_, e1 := wire.Amount("execution_time", a.ExecutionTime)
		_, e2 := wire.Amount("estimated_cost", a.EstimatedCost)
		if terr := wire.FirstErr(e1, e2, wire.Count("total_tokens", a.TotalTokens, false), wire.Count("tool_calls", a.ToolCalls, false),
			wire.Count("iterations", a.Iterations, true), wire.Count("criteria_passed", a.CriteriaPassed, false)); terr != nil {
			return terr
		}
		if a.CriteriaPassed > task.Arena.CriteriaTotal {
			return fmt.Errorf("criteria_passed = %d: the task has criteria_total = %d", a.CriteriaPassed, task.Arena.CriteriaTotal)
		}
	default:
		return fmt.Errorf("submission %d is a %s submission: print {\"%s\": {…}}", sub.ID, sub.Track, sub.Track)
	}
	if r.DuplicateOf != 0 && r.DuplicateOf == sub.ID {
		return fmt.Errorf("duplicate_of names the submission itself")
	}
	return nil
}
