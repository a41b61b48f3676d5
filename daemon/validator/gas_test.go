package validator

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/daemon/artifact"
	"github.com/scoringsubnet/validatord/daemon/config"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/testnode"
	"github.com/scoringsubnet/validatord/oracle/oracletest"
)

// TestDaemonWithGasOracle: with [gas] evm_rpc the oracle runs in the
// daemon's process on the daemon's signer while the loop posts tasks and
// reports: the truths close EVM windows on chain and the report scores its
// submission, the one key's nonces shared without a refusal, and the
// daemon's endpoint serves both its series and the oracle's.
func TestDaemonWithGasOracle(t *testing.T) {
	sim := oracletest.NewSim(t)
	opts := testnode.DriveOptions()
	edit := opts.Edit
	opts.Edit = func(g *genesis.AppState) {
		edit(g)
		g.Chain.GasChains = []uint64{oracletest.ChainID}
	}
	n := testnode.Start(t, opts)
	var mined uint64
	for i := range 3 {
		mined = sim.Mine(i)
	}
	first := mined + 1
	measure, _ := countingMeasure(t)
	m := newMiner(t, n, "miner-g", nil)
	task := postTask(t, n, workflowTask(20, 60))
	art := []byte("gas test artifact")
	pr := m.commit(t, task, art)

	cfg := testConfig(n, measure)
	cfg.Gas.EvmRPC, cfg.Gas.Confirmations, cfg.Gas.StartBlock = sim.URL, 1, int64(first)
	cfg.Gas.Poll = config.Duration(50 * time.Millisecond)
	cfg.Tasks.PostEveryBlocks = 3 // tasks too: three senders on one key
	cfg.Metrics.Listen = strings.TrimPrefix(testnode.FreeAddr(t), "tcp://")
	r := start(t, newHome(t), cfg, nil)
	sub := m.reveal(t, pr, art, true)

	ctx := testnode.Ctx(t)
	target := first + 5
	for i := 3; ; i++ {
		gc, err := n.Client.GasChain(ctx, oracletest.ChainID)
		if err == nil && gc.LastClosedBlock != nil && *gc.LastClosedBlock >= target {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the oracle closed no window up to %d: %+v %v", target, gc, err)
		}
		sim.Mine(i)
		time.Sleep(50 * time.Millisecond)
	}
	if s := waitSettled(t, n, sub, r); s.Status != "scored" || len(s.Votes) != 1 {
		t.Fatalf("submission %d: %s with %d votes", sub, s.Status, len(s.Votes))
	}
	waitCount(t, r.d.metrics.reports.WithLabelValues("workflow", OutcomeReported), 1)
	if l := r.log.String(); strings.Contains(l, "nonce") {
		t.Errorf("a nonce refusal with one signer for the loop and the oracle:\n%s", l)
	}
	resp, err := http.Get("http://" + cfg.Metrics.Listen + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"validatord_validator_reports_total{outcome=\"reported\",track=\"workflow\"} 1", "validatord_oracle_windows_total", "validatord_validator_tasks_posted_total"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %q:\n%s", want, body)
		}
	}
}

// TestDaemonMeasureFailureIsAMiss: a command that keeps failing is run
// each poll until the cut-off, its stderr in the log, and the submission
// then ends as a miss: no report of this validator, counted.
func TestDaemonMeasureFailureIsAMiss(t *testing.T) {
	n := testnode.Start(t, testnode.DriveOptions())
	m := newMiner(t, n, "miner-f", nil)
	task := postTask(t, n, workflowTask(20, 40))
	art := []byte("an artifact the command cannot measure")
	sub := m.reveal(t, m.commit(t, task, art), art, true)
	cfg := testConfig(n, `/bin/sh -c "echo cannot measure this >&2; exit 3"`)
	r := start(t, newHome(t), cfg, nil)
	waitCount(t, r.d.metrics.reports.WithLabelValues("workflow", OutcomeMissed), 1)
	s, err := n.Client.Submission(testnode.Ctx(t), sub)
	if err != nil || len(s.Votes) != 0 {
		t.Fatalf("%+v %v: want no vote", s, err)
	}
	if testutil.ToFloat64(r.d.metrics.measureFails.WithLabelValues("exit")) < 1 {
		t.Error("measure_failures_total{exit} not counted")
	}
	if _, ok := r.d.rec.Lookup(sub); ok {
		t.Error("a failed measurement was recorded")
	}
	l := r.log.String()
	for _, want := range []string{"cannot measure this", "a miss"} {
		if !strings.Contains(l, want) {
			t.Errorf("log lacks %q:\n%s", want, l)
		}
	}
}

// TestDaemonBatches: three submissions found in one poll go out in
// batches of [report] batch_max = 2, two transactions, and each entry's
// outcome is read back by its index: all three scored, each logged as
// reported.
func TestDaemonBatches(t *testing.T) {
	n := testnode.Start(t, testnode.DriveOptions())
	measure, _ := countingMeasure(t)
	var miners []*miner
	for _, label := range []string{"miner-b1", "miner-b2", "miner-b3"} {
		miners = append(miners, newMiner(t, n, label, nil))
	}
	task := postTask(t, n, workflowTask(20, 60))
	var prs []client.PendingReveal
	var arts [][]byte
	for i, m := range miners {
		arts = append(arts, []byte(fmt.Sprintf("batch artifact %d", i)))
		prs = append(prs, m.commit(t, task, arts[i]))
	}
	// the three reveal at once: a reveal window of testnode.RevealBlocks
	// blocks does not fit three in a row
	subs := make([]uint64, len(miners))
	errs := make([]error, len(miners))
	var wg sync.WaitGroup
	for i, m := range miners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := testnode.Ctx(t)
			if errs[i] = client.WaitRevealWindow(ctx, n.Client, prs[i], 10*time.Millisecond); errs[i] == nil {
				_, errs[i] = m.s.RevealPending(ctx, m.salts, prs[i].Target)
			}
			subs[i] = *prs[i].SubmissionID
		}()
	}
	wg.Wait()
	for i, m := range miners {
		if errs[i] != nil {
			t.Fatalf("reveal %d: %v", i, errs[i])
		}
		if err := m.store.Publish(artifact.Hash(arts[i])); err != nil {
			t.Fatal(err)
		}
	}
	n.WaitHeight(t, task.RevealDeadline) // every report is due at the daemon's first poll
	cfg := testConfig(n, measure)
	cfg.Report.BatchMax = 2
	var broadcasts atomic.Int64
	r := start(t, newHome(t), cfg, func(d *Daemon) {
		d.signer = client.NewSigner(d.c, n.ChainID, d.key)
		d.signer.BeforeBroadcast = func(context.Context) error { broadcasts.Add(1); return nil }
	})
	waitCount(t, r.d.metrics.reports.WithLabelValues("workflow", OutcomeReported), 3)
	for _, id := range subs {
		if s := waitSettled(t, n, id, r); s.Status != "scored" || len(s.Votes) != 1 {
			t.Fatalf("submission %d: %s, %d votes", id, s.Status, len(s.Votes))
		}
		if !strings.Contains(r.log.String(), fmt.Sprintf("submission %d (workflow, task %d): reported at height", id, task.ID)) {
			t.Errorf("no reported line for submission %d:\n%s", id, r.log.String())
		}
	}
	if got := broadcasts.Load(); got != 2 {
		t.Errorf("%d broadcasts, want 2 (batches of 2 and 1)", got)
	}
}
