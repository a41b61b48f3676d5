package app

import (
	"fmt"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// u16Of is the u16 weight of uid in the latest epoch (0 when not listed).
func u16Of(t *testing.T, n *node, uid float64) float64 {
	t.Helper()
	ep, code := n.query("epoch/latest")
	if code != 0 {
		t.Fatalf("epoch/latest: code %d", code)
	}
	for _, w := range ep["epoch"].(map[string]any)["u16"].([]any) {
		if e := w.(map[string]any); e["uid"] == uid {
			return e["weight"].(float64)
		}
	}
	return 0
}

// TestInactiveMinerLosesWeight is the activity rule: 997 blocks after its
// only task a miner still got 9830/65535 of the weight. With the default
// workflow activity_cutoff_blocks (500) it keeps its weight while its
// task's score is at most 500 blocks old and has none in the first epoch
// after that.
func TestInactiveMinerLosesWeight(t *testing.T) {
	g := testGenesis(3)
	g.Window.EpochBlocks = 10
	g.Tracks = []genesis.Track{testTrack(genesis.TrackWorkflow, decimal.NewFromInt(1))}
	if g.Tracks[0].ActivityCutoffBlocks != genesis.DefaultTaskActivityCutoff {
		t.Fatalf("workflow activity cutoff %d, want the default %d", g.Tracks[0].ActivityCutoffBlocks, genesis.DefaultTaskActivityCutoff)
	}
	n := newNode(t, "", g)
	a := newMiner("miner-a", 1)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	// task 0: commits h1..h2, reveal h3, reports h4..h6
	mustOK(t, n.block(a.tx(t, msgRegister()), r[0].tx(t, msgWorkflowTask(4, 1, 3))))
	p := wfPayload(0)
	mustOK(t, n.block(a.commit(t, p)))
	mustOK(t, n.block(a.reveal(t, p)))
	mustOK(t, n.block(r[0].tx(t, msgWorkflowReport(0, workflowM())), r[1].tx(t, msgWorkflowReport(0, workflowM())),
		r[2].tx(t, msgWorkflowReport(0, workflowM())))) // scored at height 4
	if s, _ := n.query("submission/0"); s["status"] != kernel.StatusScored {
		t.Fatalf("submission 0 = %v, want scored at height 4", s)
	}
	for n.height < 500 {
		n.finalize()
	}
	if w := u16Of(t, n, 1); w != 9830 {
		t.Fatalf("epoch at 500 (496 blocks after the score): uid 1 has %v, want 9830 (the cap)", w)
	}
	for n.height < 510 {
		n.finalize()
	}
	if w := u16Of(t, n, 1); w != 0 {
		t.Fatalf("epoch at 510 (506 blocks after the score): uid 1 has %v, want 0", w)
	}
	for n.height < 1000 {
		n.finalize()
	}
	if w := u16Of(t, n, 1); w != 0 {
		t.Fatalf("epoch at 1000 (996 blocks after the score): uid 1 has %v, want 0", w)
	}
	if lb, _ := n.query("leaderboard/workflow"); len(lb["miners"].([]any)) != 0 {
		t.Fatalf("an inactive miner is still on the leaderboard: %v", lb)
	}
}

// TestSilentGasAgentScoresBelowHonest is the silent-agent attack on chain: agent A
// predicts 10^6 gwei for one EVM block and nothing after; agent B predicts
// every block within ±10% of the truth (9 and 11 against 10: one window in
// two included, overpayment 0.1). Judged on its last prediction ("carry")
// A scored 0.5 + 0.15 + 0.10 = 0.75 above B's 0.727821568344931701 (0.25 + 0.15 + 0.15·e^-0.16 + 0.10 + 0.10); under the default
// "miss" A's silent windows are not included and it ends at 0.40.
//
// Under commit-reveal each EVM block takes three steps: the commits, the
// truth (final: the block closes for commits), and the reveals in the next
// block, at whose end the agents are closed; the reveals of one block ride
// with the commits for the next.
func TestSilentGasAgentScoresBelowHonest(t *testing.T) {
	g := testGenesis(3)
	g.Tracks = []genesis.Track{testTrack(genesis.TrackGas, decimal.NewFromInt(1))}
	n := newNode(t, "", g)
	a, b := newMiner("miner-a", 1), newMiner("miner-b", 2)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(append([][]byte{a.tx(t, msgRegister()), b.tx(t, msgRegister())},
		anchorTxs(t, r, 1, 99, blockTime(1).Unix()-5)...)...))
	// h2: the anchor's reveal window; it closes with no agent yet
	mustOK(t, n.block())
	honest := func(k uint64) *subnetv1.MsgSubmit { return gasPayload(1, 99+k, []string{"9", "11"}[k%2]) }
	silent := gasPayload(1, 100, "1000000")
	for k := uint64(1); k <= 20; k++ {
		txs := [][]byte{b.commit(t, honest(k))}
		switch k {
		case 1:
			txs = append(txs, a.commit(t, silent))
		case 2:
			txs = append(txs, a.reveal(t, silent))
		}
		if k > 1 {
			txs = append(txs, b.reveal(t, honest(k-1)))
		}
		mustOK(t, n.block(txs...))
		// the EVM block is commit_margin_seconds (2) after the commits
		ts := blockTime(n.height).Unix() + 2
		mustOK(t, n.block(r[0].tx(t, msgTruth(1, 99+k, "10", ts)), r[1].tx(t, msgTruth(1, 99+k, "10", ts)),
			r[2].tx(t, msgTruth(1, 99+k, "10", ts))))
	}
	mustOK(t, n.block(b.reveal(t, honest(20))))
	for id := uint64(0); id <= 20; id++ {
		if s, _ := n.query(fmt.Sprintf("submission/%d", id)); s["status"] != kernel.StatusScored && s["status"] != kernel.StatusCounted {
			t.Fatalf("prediction %d = %v, want judged", id, s)
		}
	}
	ma, _ := n.query("miner/1")
	mb, _ := n.query("miner/2")
	if ma["gas"] != "0.400000000000000000" || mb["gas"] != "0.727821568344931701" {
		t.Fatalf("silent agent %v, honest agent %v", ma["gas"], mb["gas"])
	}
}
