package validator

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/daemon/artifact"
	"github.com/scoringsubnet/validatord/daemon/config"
	"github.com/scoringsubnet/validatord/daemon/signrec"
	"github.com/scoringsubnet/validatord/internal/keyfile"
	"github.com/scoringsubnet/validatord/internal/testnode"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// The tests below run the daemon against a real one-validator node
// (internal/testnode, whose validator's report key is testnode.Key("report"))
// with miners the test drives: register, commit, reveal, then publish the
// artifact on an HTTP server of their own.

// moduleRoot is the repository's root (the example commands are built from it).
func moduleRoot(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// buildExample builds scripts/examples/<name> into a temporary directory.
func buildExample(t *testing.T, name string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), name)
	cmd := exec.Command("go", "build", "-o", out, "./scripts/examples/"+name)
	cmd.Dir = moduleRoot(t)
	if bz, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", name, err, bz)
	}
	return out
}

// newHome is a home whose keys/validator.json is the node's report key.
func newHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	seed := sha256.Sum256([]byte("report")) // testnode.Key("report")'s seed
	if _, err := keyfile.Add(home, keyfile.ReportKeyName, bytes.NewReader(seed[:])); err != nil {
		t.Fatal(err)
	}
	return home
}

// testConfig is a configuration for the test node: fast polls, windows
// counted in the test's short blocks.
func testConfig(n *testnode.Node, measure string) Config {
	c := DefaultConfig()
	c.Chain.Node, c.Chain.Poll = n.Addr, config.Duration(50*time.Millisecond)
	c.Measure.Command = measure
	c.Measure.FetchTimeout = config.Duration(2 * time.Second)
	c.Measure.FetchUntilBlocks = 20
	c.Report.MarginBlocks = 1
	return c
}

// logBuffer collects the daemon's lines for the test's failure messages.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// running is a daemon started by start.
type running struct {
	d    *Daemon
	log  *logBuffer
	stop func() error // cancels Run, waits for it, closes the daemon
	done chan error
}

// start opens a daemon on home, lets edit set test seams, and runs it
// until the test ends.
func start(t *testing.T, home string, cfg Config, edit func(*Daemon)) *running {
	t.Helper()
	lb := &logBuffer{}
	d, err := Open(home, cfg, Options{Log: lb})
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{d: d, log: lb, done: make(chan error, 1)}
	go func() { r.done <- d.Run(ctx) }()
	var once sync.Once
	var runErr error
	r.stop = func() error {
		once.Do(func() {
			cancel()
			runErr = <-r.done
			_ = d.Close()
		})
		return runErr
	}
	t.Cleanup(func() {
		_ = r.stop()
		if t.Failed() {
			t.Logf("daemon log:\n%s", lb.String())
		}
	})
	return r
}

// miner is a registered miner the test drives.
type miner struct {
	n      *testnode.Node
	s      *client.Signer
	salts  *client.SaltStore
	uid    uint32
	store  *artifact.Store
	server *httptest.Server
}

// newMiner registers a miner, serves h (nil: its artifact store) on an
// HTTP server of its own and announces that server's address (MsgServe).
func newMiner(t *testing.T, n *testnode.Node, label string, h http.Handler) *miner {
	t.Helper()
	ctx := testnode.Ctx(t)
	s := client.NewSigner(n.Client, n.ChainID, testnode.Key(label))
	s.Poll = 10 * time.Millisecond
	reg, err := client.RegisterWork(ctx, n.Client, n.ChainID, s.PubKey(), nil)
	if err != nil {
		t.Fatal(err)
	}
	m := &miner{n: n, s: s, uid: uint32(testnode.SendWait(t, s, reg, wire.EventMinerRegistered, "uid"))}
	if m.salts, err = client.NewSaltStore(t.TempDir(), n.ChainID, s.PubKey()); err != nil {
		t.Fatal(err)
	}
	if m.store, err = artifact.OpenStore(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if h == nil {
		h = m.store.Handler()
	}
	m.server = httptest.NewServer(h)
	t.Cleanup(m.server.Close)
	m.serve(t, m.server.URL)
	return m
}

// serve announces addr as the miner's artifact address (MsgServe).
func (m *miner) serve(t *testing.T, addr string) {
	t.Helper()
	if _, err := m.s.SendWait(testnode.Ctx(t), client.Serve(addr), testnode.WaitFor); err != nil {
		t.Fatalf("serve %s: %v", addr, err)
	}
}

// commit stores art and commits its hash to the task.
func (m *miner) commit(t *testing.T, task *wire.TaskView, art []byte) client.PendingReveal {
	t.Helper()
	hash, err := m.store.Put(art)
	if err != nil {
		t.Fatal(err)
	}
	p := client.WorkflowPayload(task.ID, hash)
	if task.Track == "arena" {
		p = client.ArenaPayload(task.ID, hash)
	}
	pr, _, err := m.s.CommitPayload(testnode.Ctx(t), m.salts, m.uid, p)
	if err != nil || pr.SubmissionID == nil {
		t.Fatalf("commit: %+v %v", pr, err)
	}
	return pr
}

// reveal reveals pr once its window opens, then publishes the artifact
// (a miner publishes only after its reveal is on chain).
func (m *miner) reveal(t *testing.T, pr client.PendingReveal, art []byte, publish bool) uint64 {
	t.Helper()
	ctx := testnode.Ctx(t)
	if err := client.WaitRevealWindow(ctx, m.n.Client, pr, 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := m.s.RevealPending(ctx, m.salts, pr.Target); err != nil {
		t.Fatal(err)
	}
	if publish {
		if err := m.store.Publish(artifact.Hash(art)); err != nil {
			t.Fatal(err)
		}
	}
	return *pr.SubmissionID
}

// solve runs the example solver on a task.
func solve(t *testing.T, solver string, m *miner, task *wire.TaskView) []byte {
	t.Helper()
	in, _ := json.Marshal(map[string]any{"track": task.Track, "uid": m.uid, "chain_id": m.n.ChainID, "task": task})
	cmd := exec.Command(solver)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("solver: %v: %s", err, stderr.String())
	}
	return out
}

// postTask posts a task with the node's validator signer (before any
// daemon runs: one signer of the key at a time).
func postTask(t *testing.T, n *testnode.Node, msg *subnetv1.Msg) *wire.TaskView {
	t.Helper()
	id := testnode.SendWait(t, n.Validator, msg, wire.EventTaskPosted, "task_id")
	tv, err := n.Client.Task(testnode.Ctx(t), id)
	if err != nil {
		t.Fatal(err)
	}
	return tv
}

// waitSettled waits until the submission is no longer pending and returns it.
func waitSettled(t *testing.T, n *testnode.Node, id uint64, r *running) *wire.SubmissionView {
	t.Helper()
	ctx := testnode.Ctx(t)
	for {
		s, err := n.Client.Submission(ctx, id)
		if err == nil && s.Status != "pending" && s.Status != "committed" {
			return s
		}
		select {
		case err := <-r.done:
			t.Fatalf("the daemon stopped: %v", err)
		case <-ctx.Done():
			t.Fatalf("submission %d not settled: %+v %v", id, s, err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestDaemonMeasuresAndReports: the daemon posts a workflow and an arena
// task; a miner commits the example solver's artifacts, reveals and
// publishes them; the daemon fetches each, runs the example measurement
// command and reports: both are scored with exactly the recorded
// measurements.
func TestDaemonMeasuresAndReports(t *testing.T) {
	n := testnode.Start(t, testnode.DriveOptions())
	solver, measure := buildExample(t, "solver"), buildExample(t, "measure")
	home := newHome(t)
	cfg := testConfig(n, measure)
	cfg.Tasks.PostEveryBlocks, cfg.Tasks.Tracks = 100000, []string{"workflow", "arena"}
	cfg.Tasks.WorkflowSubmissionBlocks, cfg.Tasks.WorkflowReportBlocks = 20, 60
	cfg.Tasks.ArenaSubmissionBlocks, cfg.Tasks.ArenaReportBlocks = 20, 60
	m := newMiner(t, n, "miner-a", nil)
	r := start(t, home, cfg, nil)

	// the daemon's two tasks
	ctx := testnode.Ctx(t)
	var tasks []*wire.TaskView
	for len(tasks) < 2 {
		tv, err := n.Client.Tasks(ctx, client.TaskFilter{})
		if err != nil {
			t.Fatal(err)
		}
		tasks = tasks[:0]
		for i := range tv.Tasks {
			tasks = append([]*wire.TaskView{&tv.Tasks[i].TaskView}, tasks...) // oldest first: their reveal windows open in that order
		}
		if ctx.Err() != nil {
			t.Fatalf("the daemon posted no tasks:\n%s", r.log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	var subs []uint64
	var prs []client.PendingReveal
	var arts [][]byte
	for _, task := range tasks {
		art := solve(t, solver, m, task)
		arts = append(arts, art)
		prs = append(prs, m.commit(t, task, art))
	}
	for i, pr := range prs {
		subs = append(subs, m.reveal(t, pr, arts[i], true))
	}
	rec := map[uint64]*subnetv1.MsgReport{}
	for _, id := range subs {
		s := waitSettled(t, n, id, r)
		if s.Status != "scored" && s.Status != "final" {
			t.Fatalf("submission %d: %s", id, s.Status)
		}
		e, ok := r.d.rec.Lookup(id)
		if !ok {
			t.Fatalf("submission %d is not in the signing record", id)
		}
		rec[id] = &subnetv1.MsgReport{}
		if err := rec[id].Unmarshal(e.Measurement); err != nil {
			t.Fatal(err)
		}
		assertVote(t, s, rec[id])
	}
	for _, tr := range []string{"workflow", "arena"} {
		waitCount(t, r.d.metrics.reports.WithLabelValues(tr, OutcomeReported), 1)
		if got := testutil.ToFloat64(r.d.metrics.tasksPosted.WithLabelValues(tr)); got != 1 {
			t.Errorf("tasks_posted_total{%s} = %v, want 1", tr, got)
		}
	}
	if !strings.Contains(r.log.String(), "measured") || !strings.Contains(r.log.String(), "reported at height") {
		t.Errorf("progress lines missing:\n%s", r.log.String())
	}
}

// waitCount waits until a series reaches want: the daemon counts a report
// when it reads the block's result, which may come after the test sees the
// submission settled.
func waitCount(t *testing.T, c prometheus.Collector, want float64) {
	t.Helper()
	ctx := testnode.Ctx(t)
	for testutil.ToFloat64(c) != want {
		select {
		case <-ctx.Done():
			t.Fatalf("%v: %v, want %v", c, testutil.ToFloat64(c), want)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// assertVote checks that the submission's only vote is the report's
// measurement (numerically: the chain stores decimals canonically).
func assertVote(t *testing.T, s *wire.SubmissionView, r *subnetv1.MsgReport) {
	t.Helper()
	if len(s.Votes) != 1 {
		t.Fatalf("submission %d: %d votes, want 1", s.ID, len(s.Votes))
	}
	v := s.Votes[0]
	eq := func(a, b string) bool { return decimal.RequireFromString(a).Equal(decimal.RequireFromString(b)) }
	if w := r.GetWorkflow(); w != nil {
		g := v.Workflow
		if g == nil || !eq(g.OutputQuality, w.OutputQuality) || g.StepsCompleted != w.StepsCompleted || !eq(g.Cost, w.Cost) ||
			!eq(g.LatencySeconds, w.LatencySeconds) || g.Retries != w.Retries || g.DeclaredRetryBudget != w.DeclaredRetryBudget ||
			g.Timeouts != w.Timeouts || g.HardFailures != w.HardFailures {
			t.Fatalf("submission %d: vote %+v, recorded %+v", s.ID, g, w)
		}
		return
	}
	a, g := r.GetArena(), v.Arena
	if g == nil || g.TotalTokens != a.TotalTokens || g.ToolCalls != a.ToolCalls || g.Iterations != a.Iterations ||
		!eq(g.ExecutionTime, a.ExecutionTime) || !eq(g.EstimatedCost, a.EstimatedCost) || g.CriteriaPassed != a.CriteriaPassed {
		t.Fatalf("submission %d: vote %+v, recorded %+v", s.ID, g, a)
	}
}

// countingMeasure writes a measurement command that counts its runs in a
// file and prints a different workflow measurement each run (output_quality
// 0.<run>), and returns its command line and the count file.
func countingMeasure(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	count := filepath.Join(dir, "count")
	script := filepath.Join(dir, "measure.sh")
	body := fmt.Sprintf(`cat >/dev/null
n=$(( $(cat %[1]q 2>/dev/null || echo 0) + 1 ))
echo $n > %[1]q
printf '{"workflow":{"output_quality":"0.%%d","steps_completed":1,"cost":"0.1","latency_seconds":"1"}}\n' $n
`, count)
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	return "/bin/sh " + script, count
}

func runs(t *testing.T, count string) int {
	bz, err := os.ReadFile(count)
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	var k int
	fmt.Sscan(string(bz), &k)
	return k
}

func workflowTask(submission, report int64) *subnetv1.Msg {
	return client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: 4, MaxBudget: "2", MaxLatencySeconds: "60",
		SubmissionBlocks: submission, ReportBlocks: report})
}

// TestDaemonNoUsableArtifact: a miner serving other bytes than it revealed
// (mismatch) and one whose address answers nothing (unreachable) both get
// NoArtifact's measurement, the first at once, the second only after the
// cut-off; the measurement command never runs; each reason is counted.
func TestDaemonNoUsableArtifact(t *testing.T) {
	n := testnode.Start(t, testnode.DriveOptions())
	measure, count := countingMeasure(t)
	// the liar serves other bytes than it revealed, under any name
	liar := newMiner(t, n, "miner-liar", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("other bytes")) }))
	gone := newMiner(t, n, "miner-gone", nil)
	task := postTask(t, n, workflowTask(20, 50))
	gone.server.Close() // nothing listens at its address any more
	prLiar := liar.commit(t, task, []byte("the revealed artifact"))
	prGone := gone.commit(t, task, []byte("an artifact never served"))
	subLiar := liar.reveal(t, prLiar, nil, false)
	subGone := gone.reveal(t, prGone, nil, false)
	cfg := testConfig(n, measure)
	cfg.Measure.FetchUntilBlocks = 30
	r := start(t, newHome(t), cfg, nil)
	want, err := NoArtifact(0, task)
	if err != nil {
		t.Fatal(err)
	}
	cutoff := task.ReportDeadline - cfg.Measure.FetchUntilBlocks
	for _, id := range []uint64{subLiar, subGone} {
		s := waitSettled(t, n, id, r)
		want.SubmissionId = id
		assertVote(t, s, want)
		if id == subGone && s.Votes[0].Height <= cutoff {
			t.Errorf("unreachable: reported at height %d, before the cut-off %d", s.Votes[0].Height, cutoff)
		}
		if s.Status != "scored" || s.Receipt == nil || !decimal.RequireFromString(s.Receipt.Score).IsZero() {
			t.Errorf("submission %d: %s, receipt %+v: want scored 0", id, s.Status, s.Receipt)
		}
	}
	if k := runs(t, count); k != 0 {
		t.Errorf("the measurement command ran %d times", k)
	}
	for _, reason := range []string{artifact.ReasonMismatch, artifact.ReasonUnreachable} {
		if got := testutil.ToFloat64(r.d.metrics.fetchFailures.WithLabelValues(reason)); got < 1 {
			t.Errorf("fetch_failures_total{%s} = %v", reason, got)
		}
	}
	waitCount(t, r.d.metrics.reports.WithLabelValues("workflow", OutcomeNoArtifact), 2)
}

// TestDaemonCrashAfterRecord: a daemon stopped right after the signing
// record took a measurement, before any broadcast, and started again sends
// the recorded bytes: the command (which answers differently each run)
// ran once, the chain holds the recorded measurement, and nothing
// conflicting was signed. A second daemon on the same home is refused.
func TestDaemonCrashAfterRecord(t *testing.T) {
	n := testnode.Start(t, testnode.DriveOptions())
	measure, count := countingMeasure(t)
	m := newMiner(t, n, "miner-c", nil)
	task := postTask(t, n, workflowTask(20, 60))
	art := []byte("crash test artifact")
	sub := m.reveal(t, m.commit(t, task, art), art, true)
	home, cfg := newHome(t), testConfig(n, measure)

	errCrash := errors.New("killed after the signing record's write")
	first := start(t, home, cfg, func(d *Daemon) {
		d.afterRecord = func() error {
			if _, ok := d.rec.Lookup(sub); ok {
				return errCrash
			}
			return nil
		}
	})
	select {
	case err := <-first.done:
		if !errors.Is(err, errCrash) {
			t.Fatalf("first run: %v", err)
		}
		first.done <- err // for stop
	case <-testnode.Ctx(t).Done():
		t.Fatalf("the first daemon never recorded:\n%s", first.log.String())
	}
	_ = first.stop()
	s, err := n.Client.Submission(testnode.Ctx(t), sub)
	if err != nil || len(s.Votes) != 0 {
		t.Fatalf("after the crash: %+v %v; want no vote", s, err)
	}
	if k := runs(t, count); k != 1 {
		t.Fatalf("the command ran %d times before the crash", k)
	}

	second := start(t, home, cfg, func(d *Daemon) { d.pruneEvery = 1 }) // a prune each poll: the open entry stays
	if _, err := Open(home, cfg, Options{Log: &logBuffer{}}); !errors.Is(err, signrec.ErrLocked) {
		t.Fatalf("a second daemon on the same home: %v, want signrec.ErrLocked", err)
	}
	s = waitSettled(t, n, sub, second)
	e, ok := second.d.rec.Lookup(sub)
	if !ok {
		t.Fatal("the record lost the entry")
	}
	recorded := &subnetv1.MsgReport{}
	if err := recorded.Unmarshal(e.Measurement); err != nil {
		t.Fatal(err)
	}
	assertVote(t, s, recorded)
	if k := runs(t, count); k != 1 {
		t.Errorf("the command ran %d times: the restart measured again", k)
	}
	if got := testutil.ToFloat64(second.d.metrics.conflicts); got != 0 {
		t.Errorf("signrec_conflicts_total = %v", got)
	}
	if !strings.Contains(second.log.String(), "signing record") {
		t.Errorf("no line about the recorded measurement:\n%s", second.log.String())
	}

	// once the report window has closed, the entry is pruned (not before:
	// it was kept through every poll above)
	n.WaitHeight(t, task.ReportDeadline+1)
	ctx := testnode.Ctx(t)
	for second.d.rec.Len() != 0 {
		select {
		case <-ctx.Done():
			t.Fatalf("the record still holds %d entries after the window closed", second.d.rec.Len())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestDaemonTarpit: a miner whose server never answers (a tarpit) and
// which revealed a submission to each of four tasks costs a poll one
// fetch time-out, not four: once its first fetch failed, its other
// submissions wait until the honest miner's artifact (revealed last, so
// last in order) was fetched. The tarpit's requests before the honest
// fetch are counted, with one worker.
func TestDaemonTarpit(t *testing.T) {
	n := testnode.Start(t, testnode.DriveOptions())
	var mu sync.Mutex
	var order []string
	tarpit := newMiner(t, n, "miner-tarpit", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		order = append(order, "tarpit")
		mu.Unlock()
		<-r.Context().Done() // never answers: the fetch times out
	}))
	honest := newMiner(t, n, "miner-honest", nil)
	honest.server.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		order = append(order, "honest")
		mu.Unlock()
		honest.store.Handler().ServeHTTP(w, r)
	})
	var tasks []*wire.TaskView
	for range 4 {
		tasks = append(tasks, postTask(t, n, workflowTask(20, 200)))
	}
	var prs []client.PendingReveal
	for i, task := range tasks {
		prs = append(prs, tarpit.commit(t, task, []byte(fmt.Sprintf("tarpit artifact %d", i))))
	}
	art := []byte("the honest artifact")
	prHonest := honest.commit(t, tasks[3], art)
	// the tarpit reveals its four in batches as their windows open, beside the honest reveal
	var targets []client.Target
	for _, pr := range prs {
		targets = append(targets, pr.Target)
	}
	revealed := make(chan error, 1)
	go func() {
		_, err := tarpit.s.RevealAll(testnode.Ctx(t), tarpit.salts, targets, 20*time.Millisecond)
		revealed <- err
	}()
	subHonest := honest.reveal(t, prHonest, art, true)
	if err := <-revealed; err != nil {
		t.Fatalf("the tarpit's reveals: %v", err)
	}
	n.WaitHeight(t, tasks[3].RevealDeadline+1) // every report window open when the daemon starts
	measure, _ := countingMeasure(t)
	cfg := testConfig(n, measure)
	cfg.Measure.Workers, cfg.Measure.FetchTimeout = 1, config.Duration(time.Second)
	cfg.Measure.FetchUntilBlocks = 150
	r := start(t, newHome(t), cfg, nil)
	waitSettled(t, n, subHonest, r)
	mu.Lock()
	defer mu.Unlock()
	before := slices.Index(order, "honest")
	if before != 1 {
		t.Errorf("fetches in order %v: %d of the tarpit's before the honest artifact, want 1", order, before)
	}
}
