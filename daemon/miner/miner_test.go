package miner

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/daemon/artifact"
	"github.com/scoringsubnet/validatord/daemon/config"
	"github.com/scoringsubnet/validatord/internal/testnode"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// example builds scripts/examples/<name> once per test binary.
func example(t *testing.T, name string) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "miner-examples")
		if buildErr != nil {
			return
		}
		for _, n := range []string{"solver", "price", "measure"} {
			out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, n), "github.com/scoringsubnet/validatord/scripts/examples/"+n).CombinedOutput()
			if err != nil {
				buildErr = fmt.Errorf("go build %s: %v\n%s", n, err, out)
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return filepath.Join(binDir, name)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// logs collects a daemon's lines for a test to wait on.
type logs struct {
	t     *testing.T
	name  string
	mu    sync.Mutex
	lines []string
}

func (l *logs) logf(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	l.mu.Lock()
	l.lines = append(l.lines, line)
	l.mu.Unlock()
	l.t.Logf("%s: %s", l.name, line)
}

func (l *logs) has(sub string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range l.lines {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// until polls cond every 20 ms for up to a minute.
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// taskConfig is a daemon of the example solver on both task tracks,
// serving its artifacts on a free loopback port.
func taskConfig(t *testing.T) Config {
	cfg := DefaultConfig()
	cfg.Chain.Poll = config.Duration(50 * time.Millisecond)
	cfg.Workflow.Solver = example(t, "solver")
	cfg.Arena.Solver = example(t, "solver") + " -quality 0.6"
	cfg.Serve.Listen = strings.TrimPrefix(testnode.FreeAddr(t), "tcp://")
	return cfg
}

// daemon starts a daemon of key on n, its signer sending through via
// (nil: the node's client); it stops with the test, or when Run returns
// (a crash point).
func daemon(t *testing.T, n *testnode.Node, cfg Config, key string, home string, via client.Node, d Deps) (*Daemon, <-chan error) {
	t.Helper()
	if via == nil {
		via = n.Client
	}
	s := client.NewSigner(via, n.ChainID, testnode.Key(key))
	s.Poll, s.Chain = 10*time.Millisecond, n.Client
	d.Node, d.Signer, d.Home = n.Client, s, home
	dm, err := New(cfg, d)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- dm.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return dm, done
}

// storedHashes are the artifact hashes of the daemon's stored commits.
func storedHashes(t *testing.T, dm *Daemon) [][]byte {
	t.Helper()
	ts, err := dm.salts.Targets()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, tg := range ts {
		p, err := dm.salts.Load(tg)
		if err != nil {
			t.Fatal(err)
		}
		if w := p.Payload.GetWorkflow(); w != nil {
			out = append(out, w.ArtifactHash)
		}
		if a := p.Payload.GetArena(); a != nil {
			out = append(out, a.ArtifactHash)
		}
	}
	return out
}

func postWorkflow(t *testing.T, n *testnode.Node, blocks int64) uint64 {
	return testnode.SendWait(t, n.Validator, client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: 4, MaxBudget: "2",
		MaxLatencySeconds: "60", SubmissionBlocks: blocks, ReportBlocks: 100}), wire.EventTaskPosted, "task_id")
}

func uidOf(t *testing.T, n *testnode.Node, key string) uint32 {
	t.Helper()
	var uid uint32
	until(t, key+"'s uid", func() bool {
		acc, err := n.Client.Account(testnode.Ctx(t), testnode.Key(key).Public().(ed25519.PublicKey))
		if err != nil || acc.UID == nil {
			return false
		}
		uid = *acc.UID
		return true
	})
	return uid
}

// submissionOf waits for uid's submission to task.
func submissionOf(t *testing.T, n *testnode.Node, uid uint32, task uint64) *wire.SubmissionView {
	t.Helper()
	var id uint64
	until(t, fmt.Sprintf("uid %d's commit to task %d", uid, task), func() bool {
		v, err := n.Client.MinerSubmissions(testnode.Ctx(t), uid, client.Page{Limit: 100})
		if err != nil {
			return false
		}
		for _, s := range v.Submissions {
			if s.TaskID != nil && *s.TaskID == task {
				id = s.ID
				return true
			}
		}
		return false
	})
	sub, err := n.Client.Submission(testnode.Ctx(t), id)
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

// revealed waits for the submission's reveal.
func revealed(t *testing.T, n *testnode.Node, id uint64) *wire.SubmissionView {
	t.Helper()
	var sub *wire.SubmissionView
	until(t, fmt.Sprintf("submission %d's reveal", id), func() bool {
		var err error
		sub, err = n.Client.Submission(testnode.Ctx(t), id)
		return err == nil && sub.RevealHeight > 0
	})
	return sub
}

func hashOf(t *testing.T, sub *wire.SubmissionView) []byte {
	t.Helper()
	if sub.ArtifactHash == nil {
		t.Fatalf("submission %d has no artifact hash", sub.ID)
	}
	var h []byte
	if _, err := fmt.Sscanf(*sub.ArtifactHash, "%x", &h); err != nil {
		t.Fatal(err)
	}
	return h
}

// TestMinerTasks: the daemon registers its key, announces its address,
// solves a workflow and an arena task with the example solver, commits,
// serves nothing before the task's submit deadline (a copier learns
// nothing), reveals, serves each artifact under its revealed hash, and
// tells the scores the validator's reports gave.
func TestMinerTasks(t *testing.T) {
	n := testnode.Start(t, testnode.DriveOptions())
	ctx := testnode.Ctx(t)
	cfg := taskConfig(t)
	l := &logs{t: t, name: "miner"}
	dm, _ := daemon(t, n, cfg, "daemon-miner", t.TempDir(), nil, Deps{Logf: l.logf})
	uid := uidOf(t, n, "daemon-miner")
	until(t, "the announced address", func() bool {
		mv, err := n.Client.Miner(ctx, uid)
		return err == nil && mv.Address == "http://"+cfg.Serve.Listen
	})
	wt := postWorkflow(t, n, 60)
	at := testnode.SendWait(t, n.Validator, client.PostArenaTask(&subnetv1.ArenaTask{Category: n.Gen.Arena.Categories[0].Name,
		Difficulty: n.Gen.Arena.Difficulties[0].Name, CriteriaTotal: 10, SubmissionBlocks: 60, ReportBlocks: 100}), wire.EventTaskPosted, "task_id")
	ws, as := submissionOf(t, n, uid, wt), submissionOf(t, n, uid, at)

	// before the submit deadline the server shows nothing: the commitment
	// is on chain, the artifact is not anywhere a copier could read it
	tv, err := n.Client.Task(ctx, wt)
	if err != nil {
		t.Fatal(err)
	}
	hashes := storedHashes(t, dm)
	if len(hashes) != 2 {
		t.Fatalf("%d artifacts stored with commits, want 2", len(hashes))
	}
	for _, hh := range hashes {
		_, err := artifact.Fetch(ctx, http.DefaultClient, "http://"+cfg.Serve.Listen, hh, artifact.Limits{})
		var fe *artifact.FetchError
		if !errors.As(err, &fe) || fe.Reason != artifact.ReasonStatus {
			t.Errorf("artifact %x fetched before the submit deadline %d: %v", hh, tv.SubmitDeadline, err)
		}
	}
	if h, _ := n.Client.Height(ctx); h >= tv.SubmitDeadline {
		t.Fatalf("the check ran up to height %d, past the submit deadline %d: make the task longer", h, tv.SubmitDeadline)
	}

	ws, as = revealed(t, n, ws.ID), revealed(t, n, as.ID)
	for _, sub := range []*wire.SubmissionView{ws, as} {
		if _, err := artifact.Fetch(ctx, http.DefaultClient, "http://"+cfg.Serve.Listen, hashOf(t, sub), artifact.Limits{}); err != nil {
			t.Errorf("submission %d's artifact after its reveal: %v", sub.ID, err)
		}
	}
	n.WaitHeight(t, tv.RevealDeadline)
	testnode.SendWait(t, n.Validator, client.ReportWorkflow(ws.ID, &subnetv1.WorkflowMeasurement{OutputQuality: "0.9", StepsCompleted: 3,
		Cost: "0.5", LatencySeconds: "30", Retries: 2, DeclaredRetryBudget: 1, Timeouts: 1}), wire.EventReportReceived, "submission_id")
	testnode.SendWait(t, n.Validator, client.ReportArena(as.ID, &subnetv1.ArenaMeasurement{TotalTokens: 2500, ToolCalls: 8, Iterations: 3,
		ExecutionTime: "42", EstimatedCost: "0.05", CriteriaPassed: 9}), wire.EventReportReceived, "submission_id")
	until(t, "the daemon to tell both scores", func() bool {
		return l.has(fmt.Sprintf("submission %d (workflow task %d): scored", ws.ID, wt)) && l.has(fmt.Sprintf("submission %d (arena task %d): scored", as.ID, at))
	})
	for _, tr := range []string{"workflow", "arena"} {
		c, r, o := testutil.ToFloat64(dm.m.commits.WithLabelValues(tr)), testutil.ToFloat64(dm.m.reveals.WithLabelValues(tr)), testutil.ToFloat64(dm.m.outcomes.WithLabelValues(tr, "scored"))
		if c != 1 || r != 1 || o != 1 {
			t.Errorf("%s: commits %v, reveals %v, scored %v; want 1 each", tr, c, r, o)
		}
	}
	if p := dm.pendingCount(); p != 0 {
		t.Errorf("%d commits still stored after both reveals", p)
	}
}

// droppingNode loses the first commit batch on its way to the node, as a
// node that does not answer would, with its salts stored.
type droppingNode struct {
	*client.Client
	mu      sync.Mutex
	dropped bool
}

var errDropped = errors.New("connection reset (the test's node dropped the batch)")

func (d *droppingNode) Broadcast(ctx context.Context, tx []byte) (client.TxResult, error) {
	d.mu.Lock()
	drop := !d.dropped && isCommitBatch(tx)
	if drop {
		d.dropped = true
	}
	d.mu.Unlock()
	if drop {
		return client.TxResult{}, errDropped
	}
	return d.Client.Broadcast(ctx, tx)
}

func isCommitBatch(tx []byte) bool {
	d, err := wire.DecodeTx(tx)
	return err == nil && d.Body.GetMsg().GetCommitBatch() != nil
}

// TestMinerCrashAtEveryStep: a miner killed at any step of its poll, and
// started again on its home, reveals its commit; one whose commit batch
// was lost on its way to the node sends it again with the stored salt. No
// salt is lost, no task is answered twice.
func TestMinerCrashAtEveryStep(t *testing.T) {
	n := testnode.Start(t, testnode.DriveOptions())
	ctx := testnode.Ctx(t)
	steps := []string{stepSolved, stepCommitted, stepPublished, stepRevealed, "dropped"}
	uids := map[string]uint32{}
	for _, st := range steps {
		key := "crash-" + st
		s := client.NewSigner(n.Client, n.ChainID, testnode.Key(key))
		reg, err := client.RegisterWork(ctx, n.Client, n.ChainID, s.PubKey(), nil)
		if err != nil {
			t.Fatal(err)
		}
		uids[st] = uint32(testnode.SendWait(t, s, reg, wire.EventMinerRegistered, "uid"))
	}
	var wg sync.WaitGroup
	homes := map[string]string{}
	for _, st := range steps {
		home := t.TempDir()
		homes[st] = home
		cfg := taskConfig(t)
		cfg.Arena.Solver = ""
		key := "crash-" + st
		l := &logs{t: t, name: key}
		if st == "dropped" {
			daemon(t, n, cfg, key, home, &droppingNode{Client: n.Client}, Deps{Logf: l.logf})
			continue
		}
		crashed := false
		_, done := daemon(t, n, cfg, key, home, nil, Deps{Logf: l.logf, crash: func(step string, items int) error {
			if step == st && items > 0 && !crashed {
				crashed = true
				return errors.New("killed")
			}
			return nil
		}})
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := <-done
			if err == nil || !strings.Contains(err.Error(), crashPrefix+" at "+st) {
				t.Errorf("%s: the first run ended with %v, want the crash at its step", key, err)
				return
			}
			daemon(t, n, cfg, key, home, nil, Deps{Logf: l.logf}) // the next start, on the same home
		}()
	}
	task := postWorkflow(t, n, 40)
	for _, st := range steps {
		revealed(t, n, submissionOf(t, n, uids[st], task).ID)
		v, err := n.Client.MinerSubmissions(ctx, uids[st], client.Page{Limit: 100})
		if err != nil || len(v.Submissions) != 1 {
			t.Errorf("%s: submissions %+v, %v; want exactly one", st, v, err)
		}
	}
	wg.Wait()
	for _, st := range steps {
		until(t, st+"'s store to empty", func() bool {
			s, err := client.NewSaltStore(homes[st], n.ChainID, testnode.Key("crash-"+st).Public().(ed25519.PublicKey))
			if err != nil {
				return false
			}
			ts, err := s.Targets()
			return err == nil && len(ts) == 0
		})
	}
}
