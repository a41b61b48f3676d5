//go:build e2e

package e2e

import (
	"encoding/json"
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
	LoadRate          int               `json:"load_rate"`
	FloodRate         int               `json:"flood_rate"`
	LoadSummary       string            `json:"loadgen_summary"`
	Kills             int               `json:"kills_survived"`
	CatchUps          []string          `json:"catch_ups"`
	MaxCatchUp        string            `json:"max_catch_up"`
	MaxStall          string            `json:"max_stall"`
	MaxStallAfter     int64             `json:"max_stall_after_height"`
	FinalHeight       int64             `json:"final_height"`
	HeightsCompared   int64             `json:"heights_compared"`
	TxsCommitted      int               `json:"txs_committed"`
	TxChecks          int               `json:"tx_checks"`
	TxsLost           int               `json:"txs_lost"`
	Submissions       submissionFigures `json:"submissions"`
	ReplayedHeights   []int64           `json:"replayed_heights"`
	ReplayScoreDigest string            `json:"replay_score_digest"`
	// Recovered and Flood are the load generator's counts (loadgen --stats): the lost
	// transactions its signers resent, and the open-loop flood's accepted → committed
	// accounting (nil without E2E_FLOOD_RATE).
	Recovered json.RawMessage `json:"recovered"`
	Flood     *floodFigures   `json:"flood"`
}

// floodFigures are the part of loadgen's flood stats the test checks.
type floodFigures struct {
	Offered      int            `json:"offered"`
	Skipped      int            `json:"skipped"`
	Accepted     int            `json:"accepted"`
	Refused      map[string]int `json:"refused"`
	Failed       int            `json:"failed"`
	Committed    int            `json:"committed"`
	Lost         int            `json:"lost"`
	Resent       int            `json:"resent"`
	Resigned     int            `json:"resigned"`
	Dropped      int            `json:"dropped"`
	StuckSenders int            `json:"stuck_senders"`
	Tasks        int            `json:"tasks"`
	FoundByTx    int            `json:"found_by_tx"`
	LostHashes   []string       `json:"lost_hashes,omitempty"`
	WatchLag     int64          `json:"watch_lag_blocks"`
	WatchedTo    int64          `json:"watched_to"`
}

// readFloodStats reads loadgen's --stats file: the recovered counts and the flood's figures.
func readFloodStats(path string) (json.RawMessage, *floodFigures, error) {
	bz, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var st struct {
		Recovered json.RawMessage `json:"recovered"`
		Flood     *floodFigures   `json:"flood"`
	}
	if err := json.Unmarshal(bz, &st); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return st.Recovered, st.Flood, nil
}

// TestKillRestartUnderLoad: 4 validators under load; every 20 s one of them (a different
// one each time) is SIGKILLed and restarted 5 s later. Pass: no stall over 10 s, every
// restarted node catches up, identical headers (app hashes, and through the block hash the
// block's tx list) at every height on every node, every committed transaction and
// submission on every node, and replay matching everywhere.
//
// E2E_FLOOD_RATE adds loadgen's open-loop flood of workflow commits at that rate (make
// e2e-load: 500): then every commit CheckTx took must be committed (in a block, and found by
// /tx on every node like every other record) by the end of the drain, those lost in a
// killed node's mempool resent by their signer, and no flood miner may end with
// transactions in flight. E2E_LOAD_RATE is the honest rounds' rate (default 25).
func TestKillRestartUnderLoad(t *testing.T) {
	const validators = 4
	loadFor := time.Duration(envInt("E2E_LOAD_SECONDS", 130)) * time.Second
	rate, floodRate := envInt("E2E_LOAD_RATE", 25), envInt("E2E_FLOOD_RATE", 0)
	nw := newNetwork(t, validators, basePort, "500ms")
	nw.startAll()
	out, statsPath := filepath.Join(nw.dir, "load.jsonl"), filepath.Join(nw.dir, "loadgen-stats.json")
	args := []string{"rounds", "--testnet", nw.dir, "--duration", loadFor.String(), "--rate", fmt.Sprint(rate), "--miners", "4",
		"--out", out, "--stats", statsPath}
	if floodRate > 0 {
		args[0] = "flood"
		args = append(args, "--flood-rate", fmt.Sprint(floodRate), "--flood-miners", fmt.Sprint(envInt("E2E_FLOOD_MINERS", 128)))
	}
	if v := os.Getenv("E2E_LOST_AFTER"); v != "" {
		args = append(args, "--lost-after", v) // -1: the signers never resend (to measure without)
	}
	load := nw.ps.start(t, "loadgen", filepath.Join(nw.dir, "loadgen.log"), nil, bin("loadgen"), args...)
	if floodRate > 0 {
		// The flood registers its miners and posts its tasks before the load starts: the kills
		// start with the load.
		if err := waitForLine(filepath.Join(nw.dir, "loadgen.log"), "loadgen: flood: ", 5*time.Minute, load); err != nil {
			t.Fatal(err)
		}
	}
	mon := watch(nw, 250*time.Millisecond)

	fig := killFigures{LoadSeconds: int(loadFor / time.Second), LoadRate: rate, FloodRate: floodRate}
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
		fig.CatchUps = append(fig.CatchUps, time.Since(restarted).Round(100*time.Millisecond).String())
		fig.Kills++
		t.Logf("t=%s: node%d restarted, caught up to %d in %s", time.Since(start).Round(time.Second), victim, target, time.Since(restarted).Round(100*time.Millisecond))
	}
	if err := load.wait(loadFor + 4*time.Minute); err != nil {
		t.Fatal(err)
	}
	if code := load.exitCode(); code != 0 {
		t.Fatalf("loadgen exited %d (see %s)", code, filepath.Join(nw.dir, "loadgen.log"))
	}
	stall, stallAt, _ := mon.finish()
	fig.MaxStall, fig.MaxCatchUp = stall.Round(100*time.Millisecond).String(), maxCatchUp.Round(100*time.Millisecond).String()
	fig.MaxStallAfter = stallAt
	if stall > 10*time.Second {
		t.Errorf("the chain stopped for %s after height %d (limit 10s)", stall, stallAt)
	}

	fig.LoadSummary = loadSummary(filepath.Join(nw.dir, "loadgen.log"))
	recovered, flood, err := readFloodStats(statsPath)
	if err != nil {
		t.Fatal(err)
	}
	fig.Recovered, fig.Flood = recovered, flood
	if f := fig.Flood; floodRate > 0 {
		switch {
		case f == nil:
			t.Error("loadgen's stats have no flood figures")
		case f.Lost > 0 || f.StuckSenders > 0:
			t.Errorf("flood: %d commits CheckTx took were never committed (no node's /tx finds %v), %d senders ended stuck (%+v)", f.Lost, f.LostHashes, f.StuckSenders, *f)
		case f.FoundByTx > 0:
			t.Errorf("flood: %d commits were found by /tx in blocks the flood's watcher did not match (it read to %d, at most %d blocks behind): its bookkeeping is wrong (%+v)", f.FoundByTx, f.WatchedTo, f.WatchLag, *f)
		case f.Accepted != f.Committed+f.Dropped:
			t.Errorf("flood: accepted %d != committed %d + dropped when resent %d", f.Accepted, f.Committed, f.Dropped)
		}
	}
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

// waitForLine waits until the log at path has a line containing sub, for at most d; p
// exiting first is an error.
func waitForLine(path, sub string, d time.Duration, p *proc) error {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if bz, err := os.ReadFile(path); err == nil && strings.Contains(string(bz), sub) {
			return nil
		}
		if !p.running() {
			return fmt.Errorf("%s exited (code %d) before %q in %s", p.name, p.exitCode(), sub, path)
		}
		time.Sleep(500 * time.Millisecond)
	}
	return fmt.Errorf("no %q in %s after %s", sub, path, d)
}
