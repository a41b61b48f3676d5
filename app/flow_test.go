package app

import (
	"testing"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"

	"github.com/scoringsubnet/validatord/x/scoring"
)

// TestEveryMessage drives every message through InitChain, FinalizeBlock and
// Commit: registration, both task kinds, commits and reveals of all three
// submission kinds, reports reaching quorum, a report settling at the
// deadline, an expiry, truths closing gas windows at the end of their
// reveal windows (with a late prediction), and an epoch.
func TestEveryMessage(t *testing.T) {
	// Powers 11, 11, 10, 10 (total 42): three reporters (32) are a quorum
	// (> 28), two (22) settle at the deadline (> 21, the deadline quorum 1/2).
	n := newNode(t, "", powersGenesis(11, 11, 10, 10))
	a, b := newMiner("miner-a", 1), newMiner("miner-b", 2)
	r := []*signer{reporter(0), reporter(1), reporter(2), reporter(3)}

	// h1: two miners (uid 0 is the burn uid, so 1 and 2), a workflow task and
	// an arena task (commits h1..h2, reveals h3, reports h4..h6); three
	// validators' truths close EVM block 99 (the anchor).
	resp := n.block(append([][]byte{a.tx(t, msgRegister()), b.tx(t, msgRegister()),
		r[0].tx(t, msgWorkflowTask(4, 1, 3)), r[1].tx(t, msgArenaTask(5, 1, 3))},
		anchorTxs(t, r[:3], 1, 99, 1_700_000_001)...)...)
	mustOK(t, resp)
	if uid, _ := eventAttr(resp.TxResults[1].Events, wire.EventMinerRegistered, "uid"); uid != "2" {
		t.Fatalf("second miner uid = %s, want 2", uid)
	}
	if d, _ := n.query("task/0"); d["submit_deadline"] != float64(2) || d["reveal_deadline"] != float64(3) || d["report_deadline"] != float64(6) {
		t.Fatalf("task 0 = %v, want commits to 2, reveals at 3, reports to 6", d)
	}

	// h2 (time …012): commits 0..5, each miner with its own artifacts.
	wa, wb, aa, ab := wfPayloadOf(a, 0), wfPayloadOf(b, 0), arenaPayloadOf(a, 1), arenaPayloadOf(b, 1)
	ga, gb := gasPayload(1, 100, "12"), gasPayload(1, 100, "9")
	resp = n.block(a.commit(t, wa), b.commit(t, wb), a.commit(t, aa), b.commit(t, ab), a.commit(t, ga), b.commit(t, gb))
	mustOK(t, resp)
	if st, _ := eventAttr(resp.TxResults[0].Events, wire.EventSubmissionAdded, "status"); st != kernel.StatusCommitted {
		t.Fatalf("a commit's submission_received status = %q, want committed", st)
	}
	if s, _ := n.query("submission/0"); s["status"] != kernel.StatusCommitted || s["artifact_hash"] != nil {
		t.Fatalf("submission 0 after its commit = %v, want committed with no artifact yet", s)
	}

	// h3 (time …018): the task reveals (the window's only block), the truth
	// of EVM block 100 (its reveal window is h4), and A's commit for block 101.
	txs := [][]byte{a.reveal(t, wa), b.reveal(t, wb), a.reveal(t, aa), b.reveal(t, ab)}
	for i := 0; i < 3; i++ {
		txs = append(txs, r[i].tx(t, msgTruth(1, 100, "10", 1_700_000_015)))
	}
	txs = append(txs, a.commit(t, gasPayload(1, 101, "10")))
	resp = n.block(txs...)
	mustOK(t, resp)
	if from, _ := eventAttr(resp.TxResults[6].Events, wire.EventGasTruthFinal, "reveal_from"); from != "4" {
		t.Fatalf("gas_truth_final reveal_from = %q, want 4", from)
	}

	// h4 (time …024): quorum on 0 (workflow) and 2 (arena), two reports on
	// 1, one on 3, the reveals for EVM block 100 (closed at the end of h4),
	// and B's commit for block 101.
	txs = nil
	for i := 0; i < 3; i++ {
		txs = append(txs, r[i].tx(t, msgWorkflowReport(0, workflowM())), r[i].tx(t, msgArenaReport(2, arenaM())))
	}
	txs = append(txs, r[0].tx(t, msgWorkflowReport(1, workflowM())), r[1].tx(t, msgWorkflowReport(1, workflowM())),
		r[3].tx(t, msgArenaReport(3, arenaM())), a.reveal(t, ga), b.reveal(t, gb), b.commit(t, gasPayload(1, 101, "11")))
	resp = n.block(txs...)
	mustOK(t, resp)

	// 0.5×0.9 + 0.25×(1 − 0.5/2) + 0.15×(1 − 20/100) + 0.10×1 = 0.8575
	sub0, _ := n.query("submission/0")
	rec := sub0["receipt"].(map[string]any)
	if sub0["status"] != kernel.StatusScored || rec["score"] != "0.857500000000000000" {
		t.Fatalf("submission 0 = %v, want scored 0.8575", sub0)
	}
	// params: the 8 WorkflowParams, then power.<validator> of the 3 votes;
	// commit: committed at 2, revealed at 3, not a duplicate
	if len(rec["inputs"].([]any)) != 11 || len(rec["params"].([]any)) != 8+3 || len(rec["values"].([]any)) != 7 {
		t.Fatalf("receipt is missing fields: %v", rec)
	}
	if c := craFields(rec["commit"]); c["commit_height"] != "2" || c["reveal_height"] != "3" || c["duplicate"] != "false" || len(c) != 3 {
		t.Fatalf("receipt commit section = %v", rec["commit"])
	}
	if sub2, _ := n.query("submission/2"); sub2["status"] != kernel.StatusScored {
		t.Fatalf("arena submission 2 = %v, want scored at the end of its block", sub2)
	}
	if sub1, _ := n.query("submission/1"); sub1["status"] != kernel.StatusPending {
		t.Fatalf("submission 1 with 2 of 4 reports = %v, want pending", sub1["status"])
	}
	if sub4, _ := n.query("submission/4"); sub4["status"] != kernel.StatusCounted {
		t.Fatalf("prediction 4 = %v, want counted", sub4["status"])
	}

	// h5: the truth of block 101 at 1_700_000_020: A's commit (h3, …018) is
	// 2 s (commit_margin_seconds) before it and counts, B's (h4, …024) is late.
	txs = nil
	for i := 0; i < 3; i++ {
		txs = append(txs, r[i].tx(t, msgTruth(1, 101, "10", 1_700_000_020)))
	}
	resp = n.block(txs...)
	mustOK(t, resp)
	if _, ok := eventAttr(resp.Events, wire.EventEpochWeights, "u16"); !ok {
		t.Fatalf("no epoch_weights event at height 5: %v", resp.Events)
	}
	ep, code := n.query("epoch/latest")
	if code != wire.QueryOK {
		t.Fatalf("epoch/latest: %v", ep)
	}
	e := ep["epoch"].(map[string]any)
	total := kernel.Dec(ep["weights_sum"].(string)).Add(kernel.Dec(e["unallocated"].(string)))
	if !total.Equal(scoring.One) {
		t.Fatalf("weights + unallocated = %s, want 1", total)
	}

	// h6: the reveals for block 101 (closed at the end of h6), and the
	// report deadline: submission 1 settles on 22 of 42 (> 1/2) and 3
	// expires (10 of 42).
	resp = n.block(a.reveal(t, gasPayload(1, 101, "10")), b.reveal(t, gasPayload(1, 101, "11")))
	mustOK(t, resp)
	if s, _ := n.query("submission/6"); s["status"] != kernel.StatusScored {
		t.Fatalf("prediction 6 = %v, want scored (memory of 2 full)", s)
	}
	if s, _ := n.query("submission/7"); s["status"] != kernel.StatusLate {
		t.Fatalf("prediction 7 = %v, want late", s["status"])
	}
	g, code := n.query("gas/2/1")
	if code != wire.QueryOK || g["has_score"] != true {
		t.Fatalf("gas agent 2 on chain 1 = %v, want a score from its stale prediction", g)
	}
	if s, _ := n.query("submission/1"); s["status"] != kernel.StatusScored {
		t.Fatalf("submission 1 at its deadline = %v, want scored", s["status"])
	}
	if s, _ := n.query("submission/3"); s["status"] != kernel.StatusExpired {
		t.Fatalf("submission 3 at its deadline = %v, want expired", s["status"])
	}
	lb, _ := n.query("leaderboard/workflow")
	if rows := lb["miners"].([]any); len(rows) != 2 {
		t.Fatalf("workflow leaderboard = %v, want 2 miners", lb)
	}
	for _, p := range []string{"params", "validators", "miner/1", "task/0", "task/1", "window/1", "baseline/1", "status",
		"leaderboard/arena", "leaderboard/gas", "epoch/1", "truth/1/101", "account/" + kernel.Hexs(a.pub())} {
		if v, code := n.query(p); code != wire.QueryOK {
			t.Errorf("query %s: code %d %v", p, code, v)
		}
	}
}
