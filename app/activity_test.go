package app

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/genesis"
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

// TestInactiveMinerLosesWeight is issue 10's item 4: 997 blocks after its
// only task a miner still got 9830/65535 of the weight. With the default
// workflow activity_cutoff_blocks (500) it keeps its weight while its task
// is at most 500 blocks old and has none in the first epoch after that.
func TestInactiveMinerLosesWeight(t *testing.T) {
	g := testGenesis(3)
	g.Window.EpochBlocks = 10
	g.Tracks = []genesis.Track{{Name: genesis.TrackWorkflow, Share: decimal.NewFromInt(1), ActivityCutoffBlocks: genesis.DefaultTaskActivityCutoff}}
	n := newNode(t, "", g)
	a := newSigner("miner-a")
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(a.tx(t, msgRegister()), r[0].tx(t, msgWorkflowTask(4, 3, 3))))
	mustOK(t, n.block(a.tx(t, msgWorkflowSubmit(0))))
	mustOK(t, n.block(r[0].tx(t, msgWorkflowReport(0, workflowM())), r[1].tx(t, msgWorkflowReport(0, workflowM())),
		r[2].tx(t, msgWorkflowReport(0, workflowM())))) // scored at height 3
	for n.height < 500 {
		n.finalize()
	}
	if w := u16Of(t, n, 1); w != 9830 {
		t.Fatalf("epoch at 500 (497 blocks after the task): uid 1 has %v, want 9830 (the cap)", w)
	}
	for n.height < 510 {
		n.finalize()
	}
	if w := u16Of(t, n, 1); w != 0 {
		t.Fatalf("epoch at 510 (507 blocks after the task): uid 1 has %v, want 0", w)
	}
	for n.height < 1000 {
		n.finalize()
	}
	if w := u16Of(t, n, 1); w != 0 {
		t.Fatalf("epoch at 1000 (997 blocks after the task): uid 1 has %v, want 0", w)
	}
	if lb, _ := n.query("leaderboard/workflow"); len(lb["miners"].([]any)) != 0 {
		t.Fatalf("an inactive miner is still on the leaderboard: %v", lb)
	}
}

// TestSilentGasAgentScoresBelowHonest is issue 10's item 6 on chain: agent A
// predicts 10^6 gwei for one EVM block and nothing after; agent B predicts
// every block within ±10% of the truth (9 and 11 against 10: one window in
// two included, overpayment 0.1). Judged on its last prediction ("carry")
// A scored 0.5 + 0.15 + 0.10 = 0.75 above B's 0.727821568344931701 (0.25 + 0.15 + 0.15·e^-0.16 + 0.10 + 0.10); under the default
// "miss" A's silent windows are not included and it ends at 0.40.
func TestSilentGasAgentScoresBelowHonest(t *testing.T) {
	g := testGenesis(3)
	g.Tracks = []genesis.Track{{Name: genesis.TrackGas, Share: decimal.NewFromInt(1), ActivityCutoffBlocks: genesis.DefaultGasActivityCutoff}}
	n := newNode(t, "", g)
	a, b := newSigner("miner-a"), newSigner("miner-b")
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(append([][]byte{a.tx(t, msgRegister()), b.tx(t, msgRegister())},
		anchorTxs(t, r, 1, 99, blockTime(1).Unix()-5)...)...))
	for k := uint64(1); k <= 20; k++ {
		txs := [][]byte{b.tx(t, msgGas(1, 99+k, []string{"9", "11"}[k%2]))}
		if k == 1 {
			txs = append(txs, a.tx(t, msgGas(1, 100, "1000000")))
		}
		mustOK(t, n.block(txs...))
		ts := blockTime(n.height).Unix() + 1
		mustOK(t, n.block(r[0].tx(t, msgTruth(1, 99+k, "10", ts)), r[1].tx(t, msgTruth(1, 99+k, "10", ts)),
			r[2].tx(t, msgTruth(1, 99+k, "10", ts))))
	}
	ma, _ := n.query("miner/1")
	mb, _ := n.query("miner/2")
	if ma["gas"] != "0.400000000000000000" || mb["gas"] != "0.727821568344931701" {
		t.Fatalf("silent agent %v, honest agent %v", ma["gas"], mb["gas"])
	}
}
