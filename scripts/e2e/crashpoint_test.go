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

// crashFigures are the figures of one crash point.
type crashFigures struct {
	Point          string `json:"point"`
	CrashHeight    int64  `json:"crash_height"`
	ExitCode       int    `json:"exit_code"`
	FinalHeight    int64  `json:"final_height"`
	HeightsChecked int64  `json:"replay_heights_checked"`
	TxsReexecuted  int64  `json:"replay_txs"`
}

// TestCrashPoints: for each crash point, a single-validator node under a little load exits
// at that point of height H (status 3), is restarted without it and goes on; then
// `validatord replay` (an uncrashed execution of the same blocks) must match the app hash
// of every height the node committed, and the node's own stored state must be the replay's.
func TestCrashPoints(t *testing.T) {
	const crashHeight = 12
	var all []crashFigures
	for i, point := range []string{"finalize-begin", "finalize-end", "commit-begin", "commit-end"} {
		t.Run(point, func(t *testing.T) {
			nw := newNetwork(t, 1, basePort+100+20*i, "200ms")
			node := nw.start(0, fmt.Sprintf("VALIDATORD_CRASH_AT=%s@%d", point, crashHeight))
			load := nw.ps.start(t, "loadgen", filepath.Join(nw.dir, "loadgen.log"), nil, bin("loadgen"), "rounds",
				"--testnet", nw.dir, "--duration", "25s", "--rate", "10", "--miners", "2", "--tx-timeout", "15s",
				"--out", filepath.Join(nw.dir, "load.jsonl"))
			if err := node.wait(90 * time.Second); err != nil {
				t.Fatalf("the node did not crash: %v", err)
			}
			fig := crashFigures{Point: point, CrashHeight: crashHeight, ExitCode: node.exitCode()}
			if fig.ExitCode != 3 {
				t.Fatalf("exit code %d, want 3 (see %s)", fig.ExitCode, filepath.Join(nw.homes[0], "node.log"))
			}
			logBytes, _ := os.ReadFile(filepath.Join(nw.homes[0], "node.log"))
			if want := fmt.Sprintf("crash point %s at height %d", point, crashHeight); !strings.Contains(string(logBytes), want) {
				t.Fatalf("node.log lacks %q", want)
			}
			nw.start(0)
			if err := nw.waitHeight(0, crashHeight+10, 90*time.Second); err != nil {
				t.Fatalf("after the restart: %v", err)
			}
			if err := load.wait(2 * time.Minute); err != nil {
				t.Fatal(err)
			}
			nw.stopAll()
			s, err := replayHome(t, nw.homes[0], 0)
			if err != nil {
				t.Fatalf("replay: %v", err)
			}
			fig.FinalHeight, fig.HeightsChecked, fig.TxsReexecuted = s.ToHeight, s.HeightsChecked, s.TxsReexecuted
			if s.HeightsChecked < crashHeight+10 {
				t.Errorf("replay checked %d heights, want at least %d", s.HeightsChecked, crashHeight+10)
			}
			stored, err := exportMeta(t, nw.homes[0])
			if err != nil {
				t.Fatal(err)
			}
			if stored.Height != s.ToHeight || stored.AppHash != s.AppHash {
				t.Errorf("node's stored state at %d (%s), replay at %d (%s)", stored.Height, stored.AppHash, s.ToHeight, s.AppHash)
			}
			all = append(all, fig)
		})
	}
	report(t, "crash_points", all)
}
