package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
)

const arenaTestBaseline = `"baseline": {"min_tokens": 1000, "median_tokens": 5000, "max_tokens": 11000,
 "min_tool_calls": 2, "median_tool_calls": 6, "max_tool_calls": 12, "median_iterations": 3,
 "min_execution_time": 60, "median_execution_time": 300, "max_execution_time": 1800,
 "min_cost": "0.01", "median_cost": "0.05", "max_cost": "0.20"}`

// arenaTestLine: token 50, tool calls 50, iterations 85 → efficiency 57; speed
// ratio 0.5 → 0.5^0.7·100 = 61.5572206672458142; cost 50; correctness 75.
func arenaTestLine(submissionExtra, rest string) string {
	sub := `"submission": {"total_tokens": 6000, "tool_calls": 7, "iterations": 2, "execution_time": "930",
 "estimated_cost": 0.105, "criteria_passed": 3, "criteria_total": 4` + submissionExtra + `}`
	return strings.ReplaceAll("{"+sub+", "+arenaTestBaseline+rest+"}", "\n", "")
}

func TestScoreArenaCommand(t *testing.T) {
	lines := []string{
		// debugging .25/.35/.15/.25: 14.25 + 21.54502723353603497 + 7.5 + 18.75 = 62.04502723353603497,
		// × 1.2 (advanced) = 74.454032680243241964 → 74.45.
		arenaTestLine("", `, "category": "debugging", "difficulty": "advanced"`),
		// default weights, no difficulty: 19.95 + 15.38930516681145355 + 10 + 15 → 60.34.
		arenaTestLine("", ""),
		arenaTestLine("", `, "category": "no_such_category"`),
		arenaTestLine(`, "colour": "red"`, ""),
		arenaTestLine("", `, "difficulty": 3`),
		strings.Replace(arenaTestLine("", ""), `"total_tokens": 6000`, `"total_tokens": -1`, 1),
		strings.Replace(arenaTestLine("", ""), `"930"`, `"930.0000000000000000001"`, 1),
		strings.Replace(arenaTestLine("", ""), `"min_cost": "0.01", `, ``, 1),
		strings.Replace(arenaTestLine("", ""), `"criteria_passed": 3`, `"criteria_passed": 5`, 1),
		`[1, 2]`,
	}
	out, errOut, code := runScoreIn(t, strings.Join(lines, "\n")+"\n", "arena")
	if code != 1 || !strings.Contains(errOut, "8 of 10 lines failed") {
		t.Fatalf("exit %d, stderr %q; want 1 and 8 failed lines", code, errOut)
	}
	got := strings.Split(strings.TrimSpace(out), "\n")
	if len(got) != len(lines) {
		t.Fatalf("%d output lines for %d input lines:\n%s", len(got), len(lines), out)
	}
	want0 := `{"overall_score":"74.450000000000000000","efficiency_score":"57.000000000000000000","speed_score":"61.560000000000000000","cost_score":"50.000000000000000000","correctness_score":"75.000000000000000000"}`
	if got[0] != want0 {
		t.Errorf("line 1 = %s\nwant     %s", got[0], want0)
	}
	if !strings.Contains(got[1], `"overall_score":"60.340000000000000000"`) {
		t.Errorf("line 2 = %s", got[1])
	}
	wantErr := map[int]string{
		2: `unknown category`, 3: `submission: unknown field(s) colour`, 4: `difficulty`,
		5: `total_tokens`, 6: `execution_time`, 7: `baseline.min_cost: missing`,
		8: `criteria_passed`, 9: `not a JSON object`,
	}
	for i, frag := range wantErr {
		var e struct {
			Line  int    `json:"line"`
			Error string `json:"error"`
		}
		if err := json.Unmarshal([]byte(got[i]), &e); err != nil || e.Line != i+1 || !strings.Contains(e.Error, frag) {
			t.Errorf("line %d = %s; want an error naming %q", i+1, got[i], frag)
		}
	}
}

func TestScoreArenaHelpAndFlags(t *testing.T) {
	out, _, code := runScoreIn(t, "", "help")
	if code != 0 || !strings.Contains(out, "  arena ") {
		t.Errorf("score help does not list arena (exit %d):\n%s", code, out)
	}
	out, _, code = runScoreIn(t, "", "arena", "-h")
	if code != 0 || !strings.Contains(out, "overall_score") {
		t.Errorf("score arena -h: exit %d\n%s", code, out)
	}
	if _, _, code := runScoreIn(t, "", "arena", "extra"); code == 0 {
		t.Error("a positional argument was accepted")
	}
}

// TestScoreArenaTask: `score arena --task FILE` over the recorded answers of
// the in-process chain (testdata/receipt_answers.jsonl: one arena task with
// one scored submission beside workflow and gas ones) ranks the arena
// submission; a file that mixes tracks is refused, and so is --params
// without --task.
func TestScoreArenaTask(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "receipt_answers.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	var arena []string
	for _, l := range lines {
		if strings.Contains(l, `"track":"arena"`) && strings.HasPrefix(l, `{"artifact_hash"`) {
			arena = append(arena, l)
		}
	}
	if len(arena) == 0 {
		t.Fatal("no arena answer in testdata/receipt_answers.jsonl")
	}
	out, errOut, code := runScoreIn(t, strings.Join(arena, "\n"), "arena", "--task", "-")
	var v wire.TaskResultsView
	if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil {
		t.Fatalf("exit %d, %v: %s %s", code, err, out, errOut)
	}
	if v.Scored != 1 || len(v.Results) != 1 || v.Results[0].Rank != 1 || v.ConfidenceInterval.High != "100.000000000000000000" {
		t.Fatalf("results %+v", v)
	}
	if _, errOut, code := runScoreIn(t, strings.Join(lines, "\n"), "arena", "--task", "-"); code == 0 || !strings.Contains(errOut, "not an arena task's") {
		t.Errorf("mixed tracks: exit %d, %s", code, errOut)
	}
	if _, errOut, code := runScoreIn(t, "", "arena", "--params", "x.json"); code == 0 || !strings.Contains(errOut, "--task only") {
		t.Errorf("--params alone: exit %d, %s", code, errOut)
	}
}
