package app

import (
	"testing"

	"github.com/scoringsubnet/validatord/app/track"
	"github.com/scoringsubnet/validatord/app/wire"

	"github.com/scoringsubnet/validatord/x/scoring"
)

// TestEveryMessage drives every message through InitChain, FinalizeBlock and
// Commit: registration, both task kinds, all three submission kinds, reports
// reaching quorum, a report settling at the deadline, an expiry, truths
// closing gas windows (with a late prediction), and an epoch.
func TestEveryMessage(t *testing.T) {
	// Powers 11, 11, 10, 10 (total 42): three reporters (32) are a quorum
	// (> 28), two (22) settle at the deadline (> 21, the deadline quorum 1/2).
	n := newNode(t, "", powersGenesis(11, 11, 10, 10))
	a, b := newSigner("miner-a"), newSigner("miner-b")
	r := []*signer{reporter(0), reporter(1), reporter(2), reporter(3)}

	// h1: two miners (uid 0 is the burn uid, so 1 and 2), a workflow task and
	// an arena task; three validators' truths close EVM block 99 (the anchor).
	resp := n.block(append([][]byte{a.tx(t, msgRegister()), b.tx(t, msgRegister()),
		r[0].tx(t, msgWorkflowTask(4, 3, 3)), r[1].tx(t, msgArenaTask(5, 3, 3))},
		anchorTxs(t, r[:3], 1, 99, 1_700_000_001)...)...)
	mustOK(t, resp)
	if uid, _ := eventAttr(resp.TxResults[1].Events, wire.EventMinerRegistered, "uid"); uid != "2" {
		t.Fatalf("second miner uid = %s, want 2", uid)
	}

	// h2: submissions 0..5.
	mustOK(t, n.block(a.tx(t, msgWorkflowSubmit(0)), b.tx(t, msgWorkflowSubmit(0)),
		a.tx(t, msgArenaSubmit(1)), b.tx(t, msgArenaSubmit(1)),
		a.tx(t, msgGas(1, 100, "12")), b.tx(t, msgGas(1, 100, "9"))))

	// h3: quorum on 0 (workflow) and 2 (arena), the truth of EVM block 100,
	// two reports on 1, one on 3, and A's prediction for block 101.
	var txs [][]byte
	for i := 0; i < 3; i++ {
		txs = append(txs, r[i].tx(t, msgWorkflowReport(0, workflowM())), r[i].tx(t, msgArenaReport(2, arenaM())),
			r[i].tx(t, msgTruth(1, 100, "10", 1_700_000_015)))
	}
	txs = append(txs, r[0].tx(t, msgWorkflowReport(1, workflowM())), r[1].tx(t, msgWorkflowReport(1, workflowM())),
		r[3].tx(t, msgArenaReport(3, arenaM())), a.tx(t, msgGas(1, 101, "10")))
	resp = n.block(txs...)
	mustOK(t, resp)

	// 0.5×0.9 + 0.25×(1 − 0.5/2) + 0.15×(1 − 20/100) + 0.10×1 = 0.8575
	sub0, _ := n.query("submission/0")
	rec := sub0["receipt"].(map[string]any)
	if sub0["status"] != track.StatusScored || rec["score"] != "0.857500000000000000" {
		t.Fatalf("submission 0 = %v, want scored 0.8575", sub0)
	}
	// params: the 8 WorkflowParams, then power.<validator> of the 3 votes
	if len(rec["inputs"].([]any)) != 11 || len(rec["params"].([]any)) != 8+3 || len(rec["values"].([]any)) != 7 {
		t.Fatalf("receipt is missing fields: %v", rec)
	}
	if sub2, _ := n.query("submission/2"); sub2["status"] != track.StatusScored {
		t.Fatalf("arena submission 2 = %v, want scored at the end of its block", sub2)
	}
	if sub1, _ := n.query("submission/1"); sub1["status"] != track.StatusPending {
		t.Fatalf("submission 1 with 2 of 4 reports = %v, want pending", sub1["status"])
	}
	if sub4, _ := n.query("submission/4"); sub4["status"] != track.StatusCounted {
		t.Fatalf("prediction 4 = %v, want counted", sub4["status"])
	}

	// h4: B predicts block 101 after its timestamp will be (late).
	mustOK(t, n.block(b.tx(t, msgGas(1, 101, "11"))))
	// h5: the truth of block 101 at 1_700_000_020: A's (included at h3, …018) counts, B's (h4, …024) is late.
	txs = nil
	for i := 0; i < 3; i++ {
		txs = append(txs, r[i].tx(t, msgTruth(1, 101, "10", 1_700_000_020)))
	}
	resp = n.block(txs...)
	mustOK(t, resp)
	if s, _ := n.query("submission/6"); s["status"] != track.StatusScored {
		t.Fatalf("prediction 6 = %v, want scored (memory of 2 full)", s)
	}
	if s, _ := n.query("submission/7"); s["status"] != track.StatusLate {
		t.Fatalf("prediction 7 = %v, want late", s["status"])
	}
	g, code := n.query("gas/2/1")
	if code != wire.QueryOK || g["has_score"] != true {
		t.Fatalf("gas agent 2 on chain 1 = %v, want a score from its stale prediction", g)
	}
	if _, ok := eventAttr(resp.Events, wire.EventEpochWeights, "u16"); !ok {
		t.Fatalf("no epoch_weights event at height 5: %v", resp.Events)
	}
	ep, code := n.query("epoch/latest")
	if code != wire.QueryOK {
		t.Fatalf("epoch/latest: %v", ep)
	}
	e := ep["epoch"].(map[string]any)
	total := track.Dec(ep["weights_sum"].(string)).Add(track.Dec(e["unallocated"].(string)))
	if !total.Equal(scoring.One) {
		t.Fatalf("weights + unallocated = %s, want 1", total)
	}

	// h6, h7: at the report deadline (7) submission 1 settles on 22 of 42 (> 1/2) and 3 expires (10 of 42).
	n.block()
	resp = n.block()
	mustOK(t, resp)
	if s, _ := n.query("submission/1"); s["status"] != track.StatusScored {
		t.Fatalf("submission 1 at its deadline = %v, want scored", s["status"])
	}
	if s, _ := n.query("submission/3"); s["status"] != track.StatusExpired {
		t.Fatalf("submission 3 at its deadline = %v, want expired", s["status"])
	}
	lb, _ := n.query("leaderboard/workflow")
	if rows := lb["miners"].([]any); len(rows) != 2 {
		t.Fatalf("workflow leaderboard = %v, want 2 miners", lb)
	}
	for _, p := range []string{"params", "validators", "miner/1", "task/0", "task/1", "window/1", "baseline/1", "status",
		"leaderboard/arena", "leaderboard/gas", "epoch/1", "account/" + hexs(a.pub())} {
		if v, code := n.query(p); code != wire.QueryOK {
			t.Errorf("query %s: code %d %v", p, code, v)
		}
	}
}
