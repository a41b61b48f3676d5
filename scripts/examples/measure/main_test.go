package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/scripts/examples/internal/extest"
)

const (
	workflowTask = `{"id":7,"track":"workflow","workflow":{"total_steps":8,"max_budget":"2.5","max_latency_seconds":"30"},"submit_deadline":110,"reveal_deadline":120,"report_deadline":130}`
	arenaTask    = `{"id":9,"track":"arena","arena":{"category":"research","difficulty":"easy","criteria_total":5},"submit_deadline":110,"reveal_deadline":120,"report_deadline":130}`
	uid          = 3
)

// solverIn is the example solver's stdin for a task.
func solverIn(track, task string) []byte {
	return fmt.Appendf(nil, `{"track":%q,"uid":%d,"chain_id":"subnet-1","task":%s}`, track, uid, task)
}

// measureIn is the measurement's stdin for an artifact of submission 21.
func measureIn(track, task string, artifact []byte) []byte {
	return fmt.Appendf(nil, `{"track":%q,"submission":{"id":21,"uid":%d,"track":%q,"status":"revealed"},"task":%s,"artifact":%q}`,
		track, uid, track, task, base64.StdEncoding.EncodeToString(artifact))
}

func measure(t *testing.T, stdin []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := run(bytes.NewReader(stdin), &out); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// report decodes the measurement as a line of `validatord tx report
// --batch` (the daemon's submission_id added) with the project's decoder.
func report(t *testing.T, out []byte) *subnetv1.MsgReport {
	t.Helper()
	out = bytes.TrimSpace(out)
	if len(out) < 2 || out[0] != '{' {
		t.Fatalf("measurement %q is not a JSON object", out)
	}
	line := append([]byte(`{"submission_id":21,`), out[1:]...)
	msgs, err := client.DecodeReportLines(bytes.NewReader(line))
	if err != nil || len(msgs) != 1 {
		t.Fatalf("DecodeReportLines(%s): %v", line, err)
	}
	return msgs[0].GetReport()
}

// The chain's measurement checks (app/tasks) are not exported; these are
// the same rules built from the exported field checks of app/wire.
func checkWorkflow(t *testing.T, w *subnetv1.WorkflowMeasurement, totalSteps int64) {
	t.Helper()
	_, e1 := wire.Fraction("output_quality", w.OutputQuality)
	_, e2 := wire.Amount("cost", w.Cost)
	_, e3 := wire.Amount("latency_seconds", w.LatencySeconds)
	if terr := wire.FirstErr(e1, e2, e3, wire.Count("steps_completed", w.StepsCompleted, false),
		wire.Count("retries", w.Retries, false), wire.Count("declared_retry_budget", w.DeclaredRetryBudget, false),
		wire.Count("timeouts", w.Timeouts, false), wire.Count("hard_failures", w.HardFailures, false)); terr != nil {
		t.Fatalf("invalid workflow measurement %+v: %v", w, terr)
	}
	if w.StepsCompleted > totalSteps {
		t.Fatalf("steps_completed %d > total_steps %d", w.StepsCompleted, totalSteps)
	}
}

func checkArena(t *testing.T, m *subnetv1.ArenaMeasurement, criteriaTotal int64) {
	t.Helper()
	_, e1 := wire.Amount("execution_time", m.ExecutionTime)
	_, e2 := wire.Amount("estimated_cost", m.EstimatedCost)
	if terr := wire.FirstErr(e1, e2, wire.Count("total_tokens", m.TotalTokens, false),
		wire.Count("tool_calls", m.ToolCalls, false), wire.Count("iterations", m.Iterations, true),
		wire.Count("criteria_passed", m.CriteriaPassed, false)); terr != nil {
		t.Fatalf("invalid arena measurement %+v: %v", m, terr)
	}
	if m.CriteriaPassed > criteriaTotal {
		t.Fatalf("criteria_passed %d > criteria_total %d", m.CriteriaPassed, criteriaTotal)
	}
}

// The bad artifacts every track must give its lowest measurement.
var junk = [][]byte{nil, []byte("not json"), []byte(`{"task":7,"uid":3,"plan":[],"extra":1}`), []byte(`[1,2,3]`)}

func TestWorkflow(t *testing.T) {
	solver, bin := extest.Build(t, "../solver"), extest.Build(t, ".")
	quality := map[string]string{}
	for _, q := range []string{"1", "0.5", "0"} {
		art, err := extest.Run(t, solver, solverIn("workflow", workflowTask), "-quality", q)
		if err != nil {
			t.Fatal(err)
		}
		out, err := extest.Run(t, bin, measureIn("workflow", workflowTask, art))
		if err != nil {
			t.Fatal(err)
		}
		if again := measure(t, measureIn("workflow", workflowTask, art)); !bytes.Equal(again, out) {
			t.Fatalf("two measurements of one artifact: %s, %s", out, again)
		}
		w := report(t, out).GetWorkflow()
		if w == nil {
			t.Fatalf("%s: no workflow measurement", out)
		}
		checkWorkflow(t, w, 8)
		quality[q] = w.OutputQuality
		if q == "0.5" && (w.StepsCompleted != 4 || w.HardFailures != 0) {
			t.Fatalf("quality 0.5: %+v", w)
		}
	}
	if quality["1"] != "1.000000" || quality["0.5"] != "0.500000" || quality["0"] != "0.000000" {
		t.Fatalf("output_quality by solver quality: %v", quality)
	}
	// Another miner's artifact, a tampered step, and junk.
	art, _ := extest.Run(t, solver, solverIn("workflow", workflowTask))
	stolen := bytes.Replace(art, []byte(`"uid":3`), []byte(`"uid":4`), 1)
	tampered := bytes.Replace(art, []byte(`"step":2,"action":"`), []byte(`"step":2,"action":"x`), 1)
	w := report(t, measure(t, measureIn("workflow", workflowTask, tampered))).GetWorkflow()
	if w.StepsCompleted != 7 || w.HardFailures != 1 {
		t.Fatalf("tampered step: %+v", w)
	}
	for _, bad := range append(junk, stolen) {
		w := report(t, measure(t, measureIn("workflow", workflowTask, bad))).GetWorkflow()
		checkWorkflow(t, w, 8)
		if w.StepsCompleted != 0 || w.OutputQuality != "0.000000" {
			t.Fatalf("artifact %.40q: %+v, want the lowest", bad, w)
		}
	}
}

func TestArena(t *testing.T) {
	solver, bin := extest.Build(t, "../solver"), extest.Build(t, ".")
	passed := map[string]int64{}
	for _, q := range []string{"1", "0.6", "0"} {
		art, err := extest.Run(t, solver, solverIn("arena", arenaTask), "-quality", q)
		if err != nil {
			t.Fatal(err)
		}
		out, err := extest.Run(t, bin, measureIn("arena", arenaTask, art))
		if err != nil {
			t.Fatal(err)
		}
		m := report(t, out).GetArena()
		if m == nil {
			t.Fatalf("%s: no arena measurement", out)
		}
		checkArena(t, m, 5)
		passed[q] = m.CriteriaPassed
		if m.ToolCalls != 5 || m.Iterations != 5 || m.TotalTokens == 0 {
			t.Fatalf("quality %s: %+v", q, m)
		}
	}
	if passed["1"] != 5 || passed["0.6"] != 3 || passed["0"] != 0 {
		t.Fatalf("criteria_passed by solver quality: %v", passed)
	}
	for _, bad := range junk {
		m := report(t, measure(t, measureIn("arena", arenaTask, bad))).GetArena()
		checkArena(t, m, 5)
		if m.CriteriaPassed != 0 || m.Iterations != 1 || m.ToolCalls != 0 {
			t.Fatalf("artifact %.40q: %+v, want the lowest", bad, m)
		}
	}
}

func TestRefuses(t *testing.T) {
	for _, stdin := range []string{"not json", `{"track":"gas"}`, `{"track":"arena","task":{"id":1}}`} {
		if err := run(strings.NewReader(stdin), &bytes.Buffer{}); err == nil {
			t.Errorf("%s: no error", stdin)
		}
	}
	// Output is one JSON object with exactly one track.
	var out map[string]json.RawMessage
	if err := json.Unmarshal(measure(t, measureIn("arena", arenaTask, nil)), &out); err != nil || len(out) != 1 || out["arena"] == nil {
		t.Fatalf("%v %v", out, err)
	}
}
