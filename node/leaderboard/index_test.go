package leaderboard

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	rpchttp "github.com/cometbft/cometbft/rpc/client/http"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/testnode"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// rpcBlockTime reads a block's time through the node's RPC, as start reads
// it from the block store.
func rpcBlockTime(t *testing.T, n *testnode.Node) func(context.Context, int64) (time.Time, error) {
	t.Helper()
	rpc, err := rpchttp.New(n.Addr, "/websocket")
	if err != nil {
		t.Fatal(err)
	}
	return func(ctx context.Context, h int64) (time.Time, error) {
		b, err := rpc.Block(ctx, &h)
		if err != nil {
			return time.Time{}, err
		}
		return b.Block.Time, nil
	}
}

// TestLandingPage: / shows the status line (height, the block's time read
// through Options.Block, the lag against Options.Now), a table per track
// and the tasks newest first with their phase, paged by ?after=; the JSON
// beside it has the same rows and the exact values.
func TestLandingPage(t *testing.T) {
	n := testnode.Start(t, testnode.Options{ChainID: "leaderboard-index"})
	ctx := testnode.Ctx(t)
	var ids []uint64
	for _, blocks := range []int64{2, 200, 200} {
		ids = append(ids, testnode.SendWait(t, n.Validator, client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: 4, MaxBudget: "2",
			MaxLatencySeconds: "60", SubmissionBlocks: blocks, ReportBlocks: 100}), wire.EventTaskPosted, "task_id"))
	}
	arena := n.Gen.Arena
	ids = append(ids, testnode.SendWait(t, n.Validator, client.PostArenaTask(&subnetv1.ArenaTask{Category: arena.Categories[0].Name,
		Difficulty: arena.Difficulties[0].Name, CriteriaTotal: 10, SubmissionBlocks: 200, ReportBlocks: 100}), wire.EventTaskPosted, "task_id"))
	first, err := n.Client.Task(ctx, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	n.WaitHeight(t, first.SubmitDeadline+1) // the first task is past its submit window

	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	srv, err := Listen("127.0.0.1:0", n.App, Options{Block: rpcBlockTime(t, n), Now: func() time.Time { return now }, taskRows: 3})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close(context.Background()) })
	base := "http://" + srv.Addr()

	var page IndexPage
	getJSON(t, base+"/index.json", &page)
	if page.Status.BlockTime == "" || page.Status.LagSeconds == nil || *page.Status.LagSeconds <= 0 || page.Height != page.Status.Height {
		t.Errorf("status %+v: want the block's time and a lag against the test's clock", page.Status)
	}
	if len(page.Boards) != len(page.Tracks) || len(page.Boards) == 0 {
		t.Errorf("boards %+v for tracks %v", page.Boards, page.Tracks)
	}
	for _, b := range page.Boards {
		if len(b.Rows) != 0 || b.Empty == "" {
			t.Errorf("board %+v: no miner yet, so no rows and the reason", b)
		}
	}
	// the chain section: the counts query's answer, and a gas oracle row per EVM chain of genesis
	open := map[string]uint64{}
	if c := page.Chain.Counts; c != nil {
		for _, tc := range c.Tracks {
			open[tc.Track] = tc.OpenTasks
		}
	}
	if c := page.Chain.Counts; c == nil || c.OpenTasks != 4 || open["workflow"] != 3 || open["arena"] != 1 {
		t.Errorf("counts %+v: want 4 open tasks, 3 workflow and 1 arena", page.Chain.Counts)
	}
	if len(page.Chain.Oracles) != len(n.Gen.Chain.GasChains) {
		t.Errorf("oracles %+v, want one per EVM chain %v", page.Chain.Oracles, n.Gen.Chain.GasChains)
	}
	// newest first, three a page: the arena task and two workflow tasks, then the first
	if len(page.Tasks) != 3 || page.Tasks[0].ID != ids[3] || page.NextAfter == nil {
		t.Fatalf("first page %+v (next %v), want tasks %v newest first, 3 of them", page.Tasks, page.NextAfter, ids)
	}
	if page.Tasks[0].Link != "/task/"+strconv.FormatUint(ids[3], 10) || page.Tasks[1].Link != "" {
		t.Errorf("links %q %q: an arena task links to its results, a workflow task has none", page.Tasks[0].Link, page.Tasks[1].Link)
	}
	for _, tr := range page.Tasks {
		if tr.Phase != "submit" || tr.Ends != tr.SubmitDeadline {
			t.Errorf("task %d: phase %q ends %d, want submit until %d", tr.ID, tr.Phase, tr.Ends, tr.SubmitDeadline)
		}
	}
	dom := fetch(t, base+"/")
	if !strings.Contains(dom, `<time datetime="`+page.Status.BlockTime+`">`) || !strings.Contains(dom, `id="lag"`) {
		t.Errorf("the status line lacks the block time or the lag:\n%s", dom)
	}
	if !strings.Contains(dom, `<dd data-col="open-tasks">4 · workflow 3 · arena 1</dd>`) {
		t.Errorf("the chain section lacks the open tasks by track:\n%s", dom)
	}
	oracles := tableOf(t, dom, "oracles")
	if len(oracles) != len(n.Gen.Chain.GasChains) || (len(oracles) > 0 && oracles[0]["state"] == "") {
		t.Errorf("oracle rows %v, want one per EVM chain %v with its state", oracles, n.Gen.Chain.GasChains)
	}
	next := fmt.Sprintf(`href="/?after=%d"`, *page.NextAfter)
	if !strings.Contains(dom, next) {
		t.Errorf("no link %s on the page", next)
	}
	rows := tableOf(t, fetch(t, base+fmt.Sprintf("/?after=%d", *page.NextAfter)), "tasks")
	if len(rows) != 1 || rows[0]["task"] != strconv.FormatUint(ids[0], 10) || rows[0]["phase"] != "reveal" {
		t.Errorf("second page %v: want task %d in its reveal phase", rows, ids[0])
	}
	if got := status(t, base+"/?after=x"); got != 400 {
		t.Errorf("?after=x: %d, want 400", got)
	}
}

// TestTaskPhase: a task's phase is that of a transaction in the next block.
func TestTaskPhase(t *testing.T) {
	tv := wire.TaskView{SubmitDeadline: 10, RevealDeadline: 15, ReportDeadline: 20}
	for h, want := range map[int64]string{9: "submit", 10: "reveal", 14: "reveal", 15: "report", 19: "report", 20: "settled"} {
		if got, _ := taskPhase(h, tv); got != want {
			t.Errorf("height %d: %q, want %q", h, got, want)
		}
	}
}

// TestRound: four places for people, trailing zeros dropped.
func TestRound(t *testing.T) {
	for in, want := range map[string]string{"0.857500000000000000": "0.8575", "0.123456": "0.1235", "86.520000000000000000": "86.52",
		"0": "0", "x": "x"} {
		if got := round(in); got != want {
			t.Errorf("round(%q) = %q, want %q", in, got, want)
		}
	}
}
