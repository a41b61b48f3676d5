package wait_test

import (
	"errors"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/client/wait"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/testnode"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// TestPhasesOfATask follows one workflow task on a real node: a reveal sent
// as soon as `reveal` is reached lands in the reveal window, a report sent
// as soon as `report` is reached is accepted (code 49 one block earlier),
// `settled` finds the submission scored, and a window that closed is a
// *PassedError without waiting.
func TestPhasesOfATask(t *testing.T) {
	o := testnode.DriveOptions()
	edit := o.Edit
	o.Edit = func(g *genesis.AppState) {
		edit(g)
		for i := range g.Tracks {
			g.Tracks[i].RevealBlocks = 20 // room for a slow machine between two polls
		}
	}
	n := testnode.Start(t, o)
	ctx := testnode.Ctx(t)
	miner := client.NewSigner(n.Client, n.ChainID, testnode.Key("miner"))
	miner.Poll = 10 * time.Millisecond
	reg, err := client.RegisterWork(ctx, n.Client, n.ChainID, miner.PubKey(), nil)
	if err != nil {
		t.Fatal(err)
	}
	uid := uint32(testnode.SendWait(t, miner, reg, wire.EventMinerRegistered, "uid"))
	task := testnode.SendWait(t, n.Validator, client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: 4, MaxBudget: "2",
		MaxLatencySeconds: "60", SubmissionBlocks: 4, ReportBlocks: 30}), wire.EventTaskPosted, "task_id")
	salts, err := client.NewSaltStore(t.TempDir(), n.ChainID, miner.PubKey())
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := miner.CommitPayload(ctx, salts, uid, client.WorkflowPayload(task, client.ArtifactHash("wait", task)))
	if err != nil || p.SubmissionID == nil {
		t.Fatalf("commit: %+v %v", p, err)
	}
	opts := wait.Options{Poll: 10 * time.Millisecond}
	until := func(ph wait.Phase) wait.Result {
		t.Helper()
		target, err := wait.ForTask(ctx, n.Client, task, ph)
		if err != nil {
			t.Fatal(err)
		}
		res, err := wait.Until(ctx, n.Client, target, opts)
		if err != nil {
			t.Fatalf("%s: %v", ph, err)
		}
		return res
	}
	until(wait.Reveal)
	if _, err := miner.RevealPending(ctx, salts, p.Target); err != nil {
		t.Fatalf("reveal right after wait %s: %v", wait.Reveal, err)
	}
	until(wait.Report)
	testnode.SendWait(t, n.Validator, client.ReportWorkflow(*p.SubmissionID, &subnetv1.WorkflowMeasurement{OutputQuality: "0.9",
		StepsCompleted: 4, Cost: "0.5", LatencySeconds: "30"}), wire.EventReportReceived, "submission_id")
	res := until(wait.Settled)
	tv, err := n.Client.Task(ctx, task)
	if err != nil {
		t.Fatal(err)
	}
	if res.Height < tv.ReportDeadline {
		t.Fatalf("settled at height %d, before the report deadline %d", res.Height, tv.ReportDeadline)
	}
	sub, err := n.Client.Submission(ctx, *p.SubmissionID)
	if err != nil || sub.Status != "scored" {
		t.Fatalf("submission after settled: %+v %v", sub, err)
	}
	target, err := wait.ForTask(ctx, n.Client, task, wait.Reveal)
	if err != nil {
		t.Fatal(err)
	}
	var passed *wait.PassedError
	if _, err := wait.Until(ctx, n.Client, target, opts); !errors.As(err, &passed) || passed.Now < tv.ReportDeadline {
		t.Fatalf("reveal window after settled: %v, want a *PassedError", err)
	}
	if _, err := wait.ForTask(ctx, n.Client, 999, wait.Report); err == nil {
		t.Fatal("task 999: no error")
	}
}

// TestHeight waits for a height ahead of the chain and returns at once for
// one behind it.
func TestHeight(t *testing.T) {
	n := testnode.Start(t, testnode.Options{ChainID: "wait-height"})
	ctx := testnode.Ctx(t)
	var lines []string
	res, err := wait.Until(ctx, n.Client, wait.ForHeight(5), wait.Options{Poll: 10 * time.Millisecond,
		Progress: func(s string) { lines = append(lines, s) }})
	if err != nil || res.Height < 5 || res.AppHash == "" {
		t.Fatalf("height 5: %+v %v", res, err)
	}
	if len(lines) == 0 {
		t.Fatal("no progress line while waiting for height 5")
	}
	if res, err := wait.Until(ctx, n.Client, wait.ForHeight(1), wait.Options{}); err != nil || res.Height < 5 {
		t.Fatalf("height 1 after 5: %+v %v", res, err)
	}
}
