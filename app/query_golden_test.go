package app

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// goldenChain drives every message kind into one chain (as TestEveryMessage
// does) so that each query has a non-trivial answer: scored, expired,
// duplicate, counted and late submissions, both task kinds, gas agents with
// a score, final truth rounds with their reveal windows, two epochs.
//
// Submissions: at h2 a and b commit 0, 1 (workflow task 0), 2, 3 (arena
// task 1), 4, 5 (EVM 1/100), and c commits 6, a's workflow artifact for
// task 0; at h3 the task commits are revealed (6 is a duplicate of 0) and
// a commits 7 (EVM 1/101); at h4 b commits 8 (EVM 1/101).
func goldenChain(t *testing.T) *node {
	n := newNode(t, "", testGenesis(4))
	a, b, c := newMiner("miner-a", 1), newMiner("miner-b", 2), newMiner("miner-c", 3)
	r := []*signer{reporter(0), reporter(1), reporter(2), reporter(3)}
	// h1: tasks 0 and 1 take commits to h2, reveals at h3, reports h4..h6
	mustOK(t, n.block(append([][]byte{a.tx(t, msgRegister()), b.tx(t, msgRegister()), c.tx(t, msgRegister()),
		r[0].tx(t, msgWorkflowTask(4, 1, 3)), r[1].tx(t, msgArenaTask(5, 1, 3))},
		anchorTxs(t, r[:3], 1, 99, 1_700_000_001)...)...))
	reveals := []*subnetv1.MsgSubmit{wfPayloadOf(a, 0), wfPayloadOf(b, 0), arenaPayloadOf(a, 1), arenaPayloadOf(b, 1)}
	by := []*signer{a, b, a, b}
	a100, b100, a101, b101 := gasPayload(1, 100, "12"), gasPayload(1, 100, "9"), gasPayload(1, 101, "10"), gasPayload(1, 101, "11")
	// h2 (…012)
	var txs [][]byte
	for i, p := range reveals {
		txs = append(txs, by[i].commit(t, p))
	}
	mustOK(t, n.block(append(txs, a.commit(t, a100), b.commit(t, b100), c.commit(t, wfPayloadOf(a, 0)))...))
	// h3 (…018): the reveals; the truth of 1/100 (final: its reveals at h4); a's commit for 1/101
	txs = nil
	for i, p := range reveals {
		txs = append(txs, by[i].reveal(t, p))
	}
	txs = append(txs, c.reveal(t, wfPayloadOf(a, 0)))
	for i := 0; i < 3; i++ {
		txs = append(txs, r[i].tx(t, msgTruth(1, 100, "10", 1_700_000_015)))
	}
	mustOK(t, n.block(append(txs, a.commit(t, a101))...))
	// h4 (…024): reports (quorum on 0 and 2, two on 1, one on 3); the
	// reveals of 1/100 (closed at the end of h4); b's commit for 1/101
	txs = nil
	for i := 0; i < 3; i++ {
		txs = append(txs, r[i].tx(t, msgWorkflowReport(0, workflowM())), r[i].tx(t, msgArenaReport(2, arenaM())))
	}
	txs = append(txs, r[0].tx(t, msgWorkflowReport(1, workflowM())), r[1].tx(t, msgWorkflowReport(1, workflowM())),
		r[3].tx(t, msgArenaReport(3, arenaM())), a.reveal(t, a100), b.reveal(t, b100), b.commit(t, b101))
	mustOK(t, n.block(txs...))
	// h5: the truth of 1/101 at …020 (a's commit 2 s before it counts, b's is late); epoch 1
	txs = nil
	for i := 0; i < 3; i++ {
		txs = append(txs, r[i].tx(t, msgTruth(1, 101, "10", 1_700_000_020)))
	}
	mustOK(t, n.block(txs...))
	// h6: the reveals of 1/101 (closed at the end of h6); tasks 0 and 1
	// settle: 1 (20 of 40) and 3 expire
	mustOK(t, n.block(a.reveal(t, a101), b.reveal(t, b101)))
	for n.height < 10 { // epoch 2, with the gas scores
		mustOK(t, n.block())
	}
	return n
}

// freshChain has one miner, a committed gas prediction, an arena task
// without samples and a pending truth round: answers made of zero values,
// nulls and empty lists.
func freshChain(t *testing.T) *node {
	n := newNode(t, "", testGenesis(3))
	m := newMiner("miner-a", 1)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(append([][]byte{m.tx(t, msgRegister()), r[0].tx(t, msgArenaTask(5, 3, 3))}, anchorTxs(t, r, 1, 99, 1_700_000_001)...)...))
	mustOK(t, n.block(m.commit(t, gasPayload(1, 100, "12")), r[0].tx(t, msgTruth(1, 100, "10", 1_700_000_010))))
	return n
}

// TestQueryAnswersGolden: every answer of goldenChain and freshChain is
// byte for byte the pinned JSON (query_golden_data_test.go).
func TestQueryAnswersGolden(t *testing.T) {
	chains := map[string]*node{"": goldenChain(t), "fresh:": freshChain(t)}
	if *updateAnswers {
		rewriteGoldenAnswers(t, chains)
		return
	}
	for _, g := range goldenAnswers {
		prefix, path := "", g.path
		if p, ok := strings.CutPrefix(path, "fresh:"); ok {
			prefix, path = "fresh:", p
		}
		resp, err := chains[prefix].app.Query(context.Background(), &abcitypes.RequestQuery{Path: path})
		if err != nil || resp.Code != wire.QueryOK {
			t.Fatalf("%s: %v, code %d: %s", g.path, err, resp.Code, resp.Log)
		}
		if string(resp.Value) != g.want {
			t.Errorf("%s:\ngot  %s\nwant %s", g.path, resp.Value, g.want)
		}
		// A client decoding the answer into its view loses nothing.
		head, _, _ := strings.Cut(path, "/")
		if strings.HasSuffix(path, "/results") {
			head = "task/results"
		}
		view := answerViews[head]()
		if err := json.Unmarshal([]byte(g.want), view); err != nil {
			t.Fatalf("%s: decode into %T: %v", g.path, view, err)
		}
		if again, _ := json.Marshal(view); string(again) != g.want {
			t.Errorf("%s: %T re-encodes to\n%s\nwant %s", g.path, view, again, g.want)
		}
	}
}

// answerViews are the view types of the answers, by the path's first segment.
var answerViews = map[string]func() any{
	"status": func() any { return new(wire.StatusView) }, "params": func() any { return new(wire.ParamsView) },
	"validators": func() any { return new(wire.ValidatorsView) }, "account": func() any { return new(wire.AccountView) },
	"miner": func() any { return new(wire.MinerView) }, "task": func() any { return new(wire.TaskView) },
	"task/results": func() any { return new(wire.TaskResultsView) }, "digest": func() any { return new(wire.DigestView) },
	"submission": func() any { return new(wire.SubmissionView) }, "window": func() any { return new(wire.WindowView) },
	"baseline": func() any { return new(wire.BaselineView) }, "gas": func() any { return new(wire.GasAgentView) },
	"leaderboard": func() any { return new(wire.LeaderboardView) }, "epoch": func() any { return new(wire.EpochView) },
	"truth": func() any { return new(wire.TruthRoundView) }, "proposal": func() any { return new(wire.ProposalView) },
	"proposals": func() any { return new(wire.ProposalsView) }, "misbehaviour": func() any { return new(wire.MisbehaviourView) },
	"gaschain": func() any { return new(wire.GasChainView) }, "tasks": func() any { return new(wire.TasksView) },
	"submissions": func() any { return new(wire.SubmissionsView) }, "metagraph": func() any { return new(wire.MetagraphView) },
}

// TestQueryParamsAndStatusGolden: before any upgrade, params is the
// genesis app state (compacted, as encoding/json writes raw JSON), in force
// from the first height with nothing scheduled, beside the chain id;
// status before InitChain has a null chain id.
func TestQueryParamsAndStatusGolden(t *testing.T) {
	g := testGenesis(2)
	n := newNode(t, "", g)
	resp, err := n.app.Query(context.Background(), &abcitypes.RequestQuery{Path: "/params"})
	if err != nil {
		t.Fatal(err)
	}
	var state bytes.Buffer
	if err := json.Compact(&state, initRequest(t, g).AppStateBytes); err != nil {
		t.Fatal(err)
	}
	want := `{"app_state":` + state.String() + `,"chain_id":"subnet-test","in_force_from":1,"scheduled":[]}`
	if string(resp.Value) != want {
		t.Fatalf("params:\ngot  %s\nwant %s", resp.Value, want)
	}
	a, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	resp, err = a.Query(context.Background(), &abcitypes.RequestQuery{Path: "status"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"app_hash":"","chain_id":null,"genesis_hash":null,"height":0}`; string(resp.Value) != want {
		t.Fatalf("status before InitChain:\ngot  %s\nwant %s", resp.Value, want)
	}
}

var updateAnswers = flag.Bool("update-answers", false, "rewrite query_golden_data_test.go from this run's answers (review the diff)")

// rewriteGoldenAnswers writes the answers of the pinned paths, as the app
// gives them now, into query_golden_data_test.go.
func rewriteGoldenAnswers(t *testing.T, chains map[string]*node) {
	src, err := os.ReadFile("query_golden_data_test.go")
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(src), "var goldenAnswers")
	var b strings.Builder
	b.WriteString(head)
	b.WriteString("var goldenAnswers = []struct{ path, want string }{\n")
	for _, g := range goldenAnswers {
		prefix, path := "", g.path
		if p, ok := strings.CutPrefix(path, "fresh:"); ok {
			prefix, path = "fresh:", p
		}
		resp, err := chains[prefix].app.Query(context.Background(), &abcitypes.RequestQuery{Path: path})
		if err != nil || resp.Code != wire.QueryOK {
			t.Fatalf("%s: %v, code %d: %s", g.path, err, resp.Code, resp.Log)
		}
		fmt.Fprintf(&b, "\t{%q, `%s`},\n", g.path, resp.Value)
	}
	b.WriteString("}\n")
	if err := os.WriteFile("query_golden_data_test.go", []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
