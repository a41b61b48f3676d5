package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func runGas(t *testing.T, input string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), Env{Stdin: strings.NewReader(input), Stdout: &out, Stderr: &errb}, []string{"score", "gas"})
	return out.String(), errb.String(), code
}

func TestScoreGasScenario(t *testing.T) {
	in, err := os.ReadFile("testdata/gas_scenario.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/gas_expected.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	got, stderr, code := runGas(t, string(in))
	if got != string(want) {
		t.Errorf("output differs from testdata/gas_expected.jsonl:\n%s", got)
	}
	// Line 10 goes back in time: it fails, the others are still replayed.
	if code != 1 || !strings.Contains(stderr, "1 of 12 lines failed") {
		t.Errorf("exit %d, stderr %q; want 1 and one failed line", code, stderr)
	}
}

// gasLines decodes the output lines for field checks.
func gasLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("bad output line %q: %v", l, err)
		}
		lines = append(lines, m)
	}
	return lines
}

func TestScoreGasScoreAbsentUntilMemoryFull(t *testing.T) {
	in := `{"params": {"memory_size": 2}}
{"time": 1, "agent": "x", "predict": "10"}
{"time": 2, "truth": "10"}
{"time": 3, "truth": "10"}
`
	out, _, code := runGas(t, in)
	lines := gasLines(t, out)
	if code != 0 || len(lines) != 2 {
		t.Fatalf("exit %d, %d lines:\n%s", code, len(lines), out)
	}
	if lines[0]["score"] != nil || lines[1]["score"] == nil {
		t.Fatalf("score must be null for the first window and present for the second:\n%s", out)
	}
	// Second window: no fresh prediction, missed under the default policy.
	slot := lines[1]["slot"].(map[string]any)
	if slot["fresh"] != false || slot["included"] != false || lines[1]["estimate"] != nil || lines[1]["liveliness"] != "0.500000000000000000" {
		t.Fatalf("second window = %v", lines[1])
	}
	// Under "carry" it is judged on 10 against 10.
	out, _, code = runGas(t, strings.Replace(in, `"memory_size": 2`, `"memory_size": 2, "stale_prediction": "carry"`, 1))
	lines = gasLines(t, out)
	slot = lines[1]["slot"].(map[string]any)
	if code != 0 || slot["fresh"] != false || slot["included"] != true || lines[1]["estimate"] != "10.000000000000000000" {
		t.Fatalf("second window under carry = %v", lines[1])
	}
}

func TestScoreGasBadEvents(t *testing.T) {
	tests := []struct{ name, line, want string }{
		{"params not first", `{"params": {}}`, "first event"},
		{"unknown param", `{"params": {"size": 3}}`, "unknown field"},
		{"unknown param policy", `{"params": {"stale_prediction": "skip"}}`, "stale_prediction"},
		{"unknown field", `{"time": 1, "agent": "a", "predict": "1", "extra": 1}`, "unknown field"},
		{"both kinds", `{"time": 1, "agent": "a", "predict": "1", "truth": "1"}`, "exactly one"},
		{"neither kind", `{"time": 1, "agent": "a"}`, "exactly one"},
		{"too many places", `{"time": 1, "agent": "a", "predict": "0.0000000000000000001"}`, "18"},
		{"negative prediction", `{"time": 1, "agent": "a", "predict": "-1"}`, "negative"},
		{"zero truth", `{"time": 1, "truth": "0"}`, "positive"},
		{"truth with agent", `{"time": 1, "agent": "a", "truth": "1"}`, "every agent"},
		{"not an object", `[1]`, "not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := `{"time": 0, "agent": "a", "predict": "1"}` + "\n" + tt.line + "\n"
			if strings.HasPrefix(tt.name, "unknown param") {
				in = tt.line + "\n"
			}
			out, _, code := runGas(t, in)
			if code != 1 || !strings.Contains(out, `"error"`) || !strings.Contains(out, tt.want) {
				t.Fatalf("exit %d, output %q; want an error line mentioning %q", code, out, tt.want)
			}
		})
	}
}

func TestScoreGasHelp(t *testing.T) {
	var out bytes.Buffer
	code := run(context.Background(), Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out}, []string{"score", "gas", "--help"})
	if code != 0 || !strings.Contains(out.String(), `"truth"`) {
		t.Fatalf("exit %d, help %q", code, out.String())
	}
}
