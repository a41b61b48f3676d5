package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/scripts/examples/internal/extest"
	"github.com/scoringsubnet/validatord/scripts/examples/internal/toy"
)

const workflowIn = `{"track":"workflow","uid":3,"chain_id":"subnet-1","task":{"id":7,"track":"workflow",
	"workflow":{"total_steps":8,"max_budget":"2.5","max_latency_seconds":"30","submission_blocks":10,"report_blocks":10},
	"submit_deadline":110,"reveal_deadline":120,"report_deadline":130,"posted_height":100,"poster":"p","submissions":0,"arena":null}}`

const arenaIn = `{"track":"arena","uid":4,"chain_id":"subnet-1","task":{"id":9,"track":"arena",
	"arena":{"category":"research","difficulty":"easy","criteria_total":5,"submission_blocks":10,"report_blocks":10},
	"submit_deadline":110,"reveal_deadline":120,"report_deadline":130,"workflow":null}}`

func solve(t *testing.T, stdin string, args ...string) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := run(args, strings.NewReader(stdin), &out); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func TestWorkflow(t *testing.T) {
	var full, half toy.Workflow
	if err := json.Unmarshal(solve(t, workflowIn), &full); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(solve(t, workflowIn, "-quality", "0.5"), &half); err != nil {
		t.Fatal(err)
	}
	if full.Task != 7 || full.UID != 3 || len(full.Plan) != 8 || len(half.Plan) != 4 {
		t.Fatalf("full %d steps, half %d steps", len(full.Plan), len(half.Plan))
	}
	for i, s := range full.Plan {
		if s.Step != int64(i+1) || s.Check != toy.StepCheck(7, s.Step, s.Action) {
			t.Fatalf("step %d: %+v", i, s)
		}
	}
	if !bytes.Equal(solve(t, workflowIn), solve(t, workflowIn)) {
		t.Fatal("the same miner made two artifacts for one task")
	}
	other := strings.Replace(workflowIn, `"uid":3`, `"uid":5`, 1)
	if bytes.Equal(solve(t, workflowIn), solve(t, other)) {
		t.Fatal("two miners made the same artifact")
	}
}

func TestArena(t *testing.T) {
	var a toy.Arena
	if err := json.Unmarshal(solve(t, arenaIn, "-quality", "0.6"), &a); err != nil {
		t.Fatal(err)
	}
	right := 0
	for i, ans := range a.Run.Answers {
		if ans == toy.Answer(9, int64(i+1)) {
			right++
		}
	}
	if len(a.Run.Answers) != 5 || right != 3 {
		t.Fatalf("%d answers, %d right", len(a.Run.Answers), right)
	}
}

func TestRefuses(t *testing.T) {
	for _, c := range []struct {
		stdin string
		args  []string
	}{
		{workflowIn, []string{"-quality", "1.5"}},
		{`{"track":"gas"}`, nil},
		{`{"track":"workflow","task":{"id":1}}`, nil},
		{`not json`, nil},
	} {
		if err := run(c.args, strings.NewReader(c.stdin), &bytes.Buffer{}); err == nil {
			t.Errorf("%s %v: no error", c.stdin, c.args)
		}
	}
}

// TestBinary runs the built command as a daemon does.
func TestBinary(t *testing.T) {
	bin := extest.Build(t, ".")
	out, err := extest.Run(t, bin, []byte(workflowIn), "-quality", "0.5")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, solve(t, workflowIn, "-quality", "0.5")) {
		t.Fatalf("binary wrote %s", out)
	}
	if _, err := extest.Run(t, bin, []byte(`{"track":"gas"}`)); err == nil || !strings.Contains(err.Error(), `track "gas"`) {
		t.Fatalf("bad track: %v", err)
	}
}
