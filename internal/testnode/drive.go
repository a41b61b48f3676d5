package testnode

import (
	"context"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// ChainID is the chain id of DriveOptions' node.
const ChainID = "testnode"

// RevealBlocks is every track's reveal window on DriveOptions' node.
const RevealBlocks = 4

// EpochBlocks is the epoch length of DriveOptions' node.
const EpochBlocks = 5

// WaitFor bounds each wait of a test.
const WaitFor = 30 * time.Second

// DriveOptions are the options of a node that Drive can drive: epochs of
// EpochBlocks, registration at 16 hashes, reveal windows of RevealBlocks.
func DriveOptions() Options {
	return Options{ChainID: ChainID, Edit: func(g *genesis.AppState) {
		g.Window.EpochBlocks = EpochBlocks
		g.Membership.InitialDifficulty, g.Membership.MinDifficulty = 16, 16
		for i := range g.Tracks {
			g.Tracks[i].RevealBlocks = RevealBlocks
		}
	}}
}

// Ctx is a context that ends with the test (or after two minutes).
func Ctx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// WaitHeight waits until the app committed height h.
func (n *Node) WaitHeight(t testing.TB, h int64) {
	t.Helper()
	if _, err := n.Client.WaitAppHeight(Ctx(t), h, 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
}

// SendWait sends msg with s and returns the value of attribute key of event typ.
func SendWait(t testing.TB, s *client.Signer, msg *subnetv1.Msg, typ, key string) uint64 {
	t.Helper()
	res, err := s.SendWait(Ctx(t), msg, WaitFor)
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	v, err := res.AttrU64(typ, key)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Driven is what Drive put on chain.
type Driven struct {
	UID          uint32
	WorkflowTask uint64
	ArenaTask    uint64
	EVMChain     uint64
	EVMBlock     uint64
	Submissions  []uint64 // workflow, arena
}

// Drive registers a miner, has it submit to a workflow and an arena task
// that the validator then measures (both scored), sends a truth for the
// first gas chain, and waits past the next epoch.
func (n *Node) Drive(t *testing.T) Driven {
	t.Helper()
	ctx := Ctx(t)
	miner := client.NewSigner(n.Client, n.ChainID, Key("miner"))
	miner.Poll = 10 * time.Millisecond
	reg, err := client.RegisterWork(ctx, n.Client, n.ChainID, miner.PubKey(), nil)
	if err != nil {
		t.Fatal(err)
	}
	d := Driven{UID: uint32(SendWait(t, miner, reg, wire.EventMinerRegistered, "uid"))}
	salts, err := client.NewSaltStore(t.TempDir(), n.ChainID, miner.PubKey())
	if err != nil {
		t.Fatal(err)
	}
	d.WorkflowTask = SendWait(t, n.Validator, client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: 4, MaxBudget: "2",
		MaxLatencySeconds: "60", SubmissionBlocks: 6, ReportBlocks: 100}), wire.EventTaskPosted, "task_id")
	arena := n.Gen.Arena
	d.ArenaTask = SendWait(t, n.Validator, client.PostArenaTask(&subnetv1.ArenaTask{Category: arena.Categories[0].Name,
		Difficulty: arena.Difficulties[0].Name, CriteriaTotal: 10, SubmissionBlocks: 6, ReportBlocks: 100}), wire.EventTaskPosted, "task_id")
	wp := n.commit(t, miner, salts, d.UID, client.WorkflowPayload(d.WorkflowTask, client.ArtifactHash("workflow", d.WorkflowTask)))
	ap := n.commit(t, miner, salts, d.UID, client.ArenaPayload(d.ArenaTask, client.ArtifactHash("arena", d.ArenaTask)))
	for _, p := range []client.PendingReveal{wp, ap} {
		if err := client.WaitRevealWindow(ctx, n.Client, p, 20*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if _, err := miner.RevealPending(ctx, salts, p.Target); err != nil {
			t.Fatal(err)
		}
	}
	wsub, asub := *wp.SubmissionID, *ap.SubmissionID
	d.Submissions = []uint64{wsub, asub}
	for _, id := range []uint64{d.WorkflowTask, d.ArenaTask} {
		tv, err := n.Client.Task(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		n.WaitHeight(t, tv.RevealDeadline) // reports open after the reveal window
	}
	SendWait(t, n.Validator, client.ReportWorkflow(wsub, &subnetv1.WorkflowMeasurement{OutputQuality: "0.9", StepsCompleted: 3,
		Cost: "0.5", LatencySeconds: "30", Retries: 2, DeclaredRetryBudget: 1, Timeouts: 1}), wire.EventReportReceived, "submission_id")
	SendWait(t, n.Validator, client.ReportArena(asub, &subnetv1.ArenaMeasurement{TotalTokens: 2500, ToolCalls: 8, Iterations: 3,
		ExecutionTime: "42", EstimatedCost: "0.05", CriteriaPassed: 9}), wire.EventReportReceived, "submission_id")
	d.EVMChain, d.EVMBlock = n.Gen.Chain.GasChains[0], 99
	res, err := n.Validator.SendWait(ctx, client.Truth(d.EVMChain, d.EVMBlock, "20", time.Now().Unix()-30), WaitFor)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range d.Submissions {
		n.waitStatus(t, id, "scored")
	}
	n.WaitHeight(t, (res.Height/EpochBlocks+2)*EpochBlocks) // an epoch after the scores
	return d
}

// commit commits p; its reveal waits in salts.
func (n *Node) commit(t *testing.T, s *client.Signer, salts *client.SaltStore, uid uint32, p *subnetv1.MsgSubmit) client.PendingReveal {
	t.Helper()
	pr, _, err := s.CommitPayload(Ctx(t), salts, uid, p)
	if err != nil || pr.SubmissionID == nil {
		t.Fatalf("commit: %+v %v", pr, err)
	}
	return pr
}

func (n *Node) waitStatus(t *testing.T, id uint64, status string) {
	t.Helper()
	deadline := time.Now().Add(WaitFor)
	for {
		sub, err := n.Client.Submission(Ctx(t), id)
		if err == nil && sub.Status == status {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("submission %d: %+v %v; want status %s", id, sub, err, status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
