//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// killFigures are the figures of the kill/restart scenario.
type killFigures struct {
	LoadSeconds       int               `json:"load_seconds"`
	LoadSummary       string            `json:"loadgen_summary"`
	Kills             int               `json:"kills_survived"`
	MaxCatchUp        string            `json:"max_catch_up"`
	MaxStall          string            `json:"max_stall"`
	FinalHeight       int64             `json:"final_height"`
	HeightsCompared   int64             `json:"heights_compared"`
	TxsCommitted      int               `json:"txs_committed"`
	TxChecks          int               `json:"tx_checks"`
	TxsLost           int               `json:"txs_lost"`
	Submissions       submissionFigures `json:"submissions"`
	ReplayedHeights   []int64           `json:"replayed_heights"`
	ReplayScoreDigest string            `json:"replay_score_digest"`
}

// TestKillRestartUnderLoad: 4 validators under load; every 20 s one of them (a different
// one each time) is SIGKILLed and restarted 5 s later. Pass: no stall over 10 s, every
// restarted node catches up, identical headers (app hashes) at every height on every node,
// every committed transaction and submission on every node, and replay matching everywhere.
func TestKillRestartUnderLoad(t *testing.T) {
	const validators = 4
	loadFor := time.Duration(envInt("E2E_LOAD_SECONDS", 130)) * time.Second
	nw := newNetwork(t, validators, basePort, "500ms")
	nw.startAll()
	mon := watch(nw, 250*time.Millisecond)
	out := filepath.Join(nw.dir, "load.jsonl")
	load := nw.ps.start(t, "loadgen", filepath.Join(nw.dir, "loadgen.log"), nil, bin("loadgen"),
		"--testnet", nw.dir, "--duration", loadFor.String(), "--rate", "25", "--miners", "4", "--out", out)

	fig := killFigures{LoadSeconds: int(loadFor / time.Second)}
	var maxCatchUp time.Duration
	start := time.Now()
	for k := 1; time.Duration(k)*20*time.Second <= loadFor; k++ {
		at := start.Add(time.Duration(k) * 20 * time.Second)
		time.Sleep(time.Until(at))
		victim := (k - 1) % validators
		if err := nw.nodes[victim].kill(); err != nil {
			t.Fatal(err)
		}
		t.Logf("t=%s: SIGKILL node%d", time.Since(start).Round(time.Second), victim)
		time.Sleep(time.Until(at.Add(5 * time.Second)))
		nw.start(victim)
		target := nw.maxHeight()
		restarted := time.Now()
		if err := nw.waitHeight(victim, target, 60*time.Second); err != nil {
			t.Fatalf("node%d did not catch up: %v", victim, err)
		}
		maxCatchUp = max(maxCatchUp, time.Since(restarted))
		fig.Kills++
		t.Logf("t=%s: node%d restarted, caught up to %d in %s", time.Since(start).Round(time.Second), victim, target, time.Since(restarted).Round(100*time.Millisecond))
	}
	if err := load.wait(loadFor + 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	if code := load.exitCode(); code != 0 {
		t.Fatalf("loadgen exited %d (see %s)", code, filepath.Join(nw.dir, "loadgen.log"))
	}
	stall, stallAt, _ := mon.finish()
	fig.MaxStall, fig.MaxCatchUp = stall.Round(100*time.Millisecond).String(), maxCatchUp.Round(100*time.Millisecond).String()
	if stall > 10*time.Second {
		t.Errorf("the chain stopped for %s after height %d (limit 10s)", stall, stallAt)
	}

	fig.LoadSummary = loadSummary(filepath.Join(nw.dir, "loadgen.log"))
	recs, err := loadRecords(out)
	if err != nil {
		t.Fatal(err)
	}
	fig.TxsCommitted = len(recs)
	if len(recs) == 0 {
		t.Fatal("the load generator saw no transaction committed")
	}
	// Let every report deadline pass, so that every submission is final, then compare.
	settle := maxRecordHeight(recs) + 45
	if err := nw.waitAll(settle, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	if fig.HeightsCompared, err = compareAppHashes(nw, settle); err != nil {
		t.Fatal(err)
	}
	fig.FinalHeight = settle
	fig.TxChecks = len(recs) * validators
	fig.TxsLost, fig.Submissions = checkCommitted(t, nw, recs, validators)

	nw.stopAll()
	fig.ReplayedHeights, fig.ReplayScoreDigest = replayAll(t, nw, settle)
	report(t, "kill_restart", fig)
}

// loadSummary is the load generator's summary line ("loadgen: 2m10s: sent …").
func loadSummary(logPath string) string {
	bz, err := os.ReadFile(logPath)
	if err != nil {
		return err.Error()
	}
	for _, l := range strings.Split(string(bz), "\n") {
		if strings.HasPrefix(l, "loadgen: ") && strings.Contains(l, ": sent ") {
			return l
		}
	}
	return "no summary line in " + logPath
}

func maxRecordHeight(recs []record) int64 {
	var m int64
	for _, r := range recs {
		m = max(m, r.Height)
	}
	return m
}

func firstN(errs []string, n int) []string {
	if len(errs) <= n {
		return errs
	}
	return append(errs[:n], fmt.Sprintf("... and %d more", len(errs)-n))
}
