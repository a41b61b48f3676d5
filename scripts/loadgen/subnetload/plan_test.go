package subnetload

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

func testConfig(miners int) Config {
	c := Config{ChainID: "subnetload-test", Seed: "t", Validators: 4, TaskEvery: 2,
		Windows: setup.Windows{Submission: 4, Report: 12}, ArenaCategory: "debugging", ArenaDifficulty: "beginner", MaxTxBytes: 16384}
	for i := range miners {
		c.UIDs = append(c.UIDs, uint32(10+i))
		c.MinerPubs = append(c.MinerPubs, setup.Key(fmt.Sprint("miner", i)).Public().(ed25519.PublicKey))
	}
	return c
}

func event(typ string, kv ...string) abcitypes.Event {
	ev := abcitypes.Event{Type: typ}
	for i := 0; i < len(kv); i += 2 {
		ev.Attributes = append(ev.Attributes, abcitypes.EventAttribute{Key: kv[i], Value: kv[i+1]})
	}
	return ev
}

func posted(id, track string) abcitypes.Event {
	return event(wire.EventTaskPosted, "task_id", id, "track", track, "submit_deadline", "15", "reveal_deadline", "25", "report_deadline", "37")
}

// kinds lists the intents as "kind from track" strings.
func kinds(ins []Intent) []string {
	var out []string
	for _, in := range ins {
		who := fmt.Sprint("m", in.From.Index)
		if in.From.Validator {
			who = fmt.Sprint("v", in.From.Index)
		}
		out = append(out, fmt.Sprintf("%s %s %s", in.Kind, who, in.Track))
	}
	return out
}

func same(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: %q, want %q", what, got, want)
	}
}

// TestPlanLifecycle: posts on the cadence by the validators in turn; a posted task's commits
// by every miner at once; a commit's reveal once reveal_from is committed (Lag 1); a reveal's
// reports by every validator once the block after the reveal deadline is committed; scored events
// counted; what is not of the load's tasks and miners ignored.
func TestPlanLifecycle(t *testing.T) {
	p, err := New(testConfig(2))
	if err != nil {
		t.Fatal(err)
	}
	same(t, "height 10", kinds(p.Due(10)), "post_task v0 workflow", "post_task v0 arena")
	if p.FirstPost() != 10 {
		t.Errorf("first post %d, want 10", p.FirstPost())
	}
	if p.Observe(11, []abcitypes.Event{posted("1", genesis.TrackWorkflow), posted("2", genesis.TrackArena), posted("3", genesis.TrackGas)}) != 0 {
		t.Error("no scored events at 11")
	}
	if p.SteadyFrom() != 38 {
		t.Errorf("steady from %d, want 38 (the first task's report deadline + 1)", p.SteadyFrom())
	}
	same(t, "height 11", kinds(p.Due(11)), "commit m0 workflow", "commit m1 workflow", "commit m0 arena", "commit m1 arena")
	p.Observe(12, []abcitypes.Event{
		event(wire.EventSubmissionAdded, "submission_id", "7", "uid", "11", "track", "workflow", "task_id", "1", "reveal_from", "16", "reveal_until", "25"),
		event(wire.EventSubmissionAdded, "submission_id", "8", "uid", "99", "track", "workflow", "task_id", "1", "reveal_from", "16"),  // not a load miner
		event(wire.EventSubmissionAdded, "submission_id", "9", "uid", "10", "track", "workflow", "task_id", "50", "reveal_from", "16"), // not a load task
	})
	same(t, "height 12", kinds(p.Due(12)), "post_task v1 workflow", "post_task v1 arena")
	same(t, "height 14", kinds(p.Due(14)), "post_task v2 workflow", "post_task v2 arena")
	p.StopPosting()
	same(t, "height 15", kinds(p.Due(15)))
	due := p.Due(16)
	same(t, "height 16", kinds(due), "reveal m1 workflow")
	if r := due[0].Msg.GetReveal(); r == nil || !bytes.Equal(r.GetSubmit().GetWorkflow().GetArtifactHash(), setup.WorkflowPayload(1, 1).GetWorkflow().GetArtifactHash()) {
		t.Errorf("the reveal is not miner 1's payload for task 1: %v", due[0].Msg)
	}
	p.Observe(17, []abcitypes.Event{event(wire.EventSubmissionRevealed, "submission_id", "7", "uid", "11", "track", "workflow", "task_id", "1")})
	same(t, "height 25", kinds(p.Due(25)))
	due = p.Due(26)
	same(t, "height 26", kinds(due), "report v0 workflow", "report v1 workflow", "report v2 workflow", "report v3 workflow")
	for _, in := range due {
		if in.Msg.GetReport().GetSubmissionId() != 7 {
			t.Errorf("report on %d, want 7", in.Msg.GetReport().GetSubmissionId())
		}
	}
	if p.Pending() != 0 {
		t.Errorf("%d messages still planned", p.Pending())
	}
	n := p.Observe(30, []abcitypes.Event{
		event(wire.EventSubmissionScored, "submission_id", "7", "track", "workflow"),
		event(wire.EventSubmissionScored, "submission_id", "8", "track", "arena"),
		event(wire.EventSubmissionScored, "submission_id", "9", "track", "gas"),
	})
	if n != 2 {
		t.Errorf("scored %d, want 2 (the task tracks')", n)
	}
}

// TestPlanLate: a message whose height passed while the load was behind is sent at once.
func TestPlanLate(t *testing.T) {
	p, _ := New(testConfig(1))
	p.StopPosting()
	p.Observe(11, []abcitypes.Event{posted("1", genesis.TrackWorkflow)})
	p.Observe(20, []abcitypes.Event{event(wire.EventSubmissionAdded, "submission_id", "7", "uid", "10", "task_id", "1", "reveal_from", "16")})
	same(t, "height 20", kinds(p.Due(20)), "commit m0 workflow", "reveal m0 workflow")
}

// TestPlanRepeats: the same events give the same messages, byte for byte.
func TestPlanRepeats(t *testing.T) {
	run := func() [][]byte {
		p, _ := New(testConfig(3))
		var out [][]byte
		for h := int64(10); h < 14; h++ {
			p.Observe(h, []abcitypes.Event{posted(fmt.Sprint(h), genesis.TrackArena)})
			for _, in := range p.Due(h) {
				bz, err := in.Msg.Marshal()
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, bz)
			}
		}
		return out
	}
	a, b := run(), run()
	if len(a) == 0 || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("two runs differ (%d and %d messages)", len(a), len(b))
	}
}

func TestConfigRefused(t *testing.T) {
	c := testConfig(1)
	c.TaskEvery = 0
	if _, err := New(c); !errors.Is(err, ErrConfig) {
		t.Errorf("task every 0: %v", err)
	}
	c = testConfig(1)
	c.MinerPubs = nil
	if _, err := New(c); !errors.Is(err, ErrConfig) {
		t.Errorf("no miner keys: %v", err)
	}
}
