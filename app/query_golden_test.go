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
)

// goldenChain drives every message kind into one chain (as TestEveryMessage
// does) so that each query has a non-trivial answer: scored, pending, expired,
// counted and late submissions, both task kinds, a gas agent with a score, an
// epoch.
func goldenChain(t *testing.T) *node {
	n := newNode(t, "", testGenesis(4))
	a, b := newSigner("miner-a"), newSigner("miner-b")
	r := []*signer{reporter(0), reporter(1), reporter(2), reporter(3)}
	mustOK(t, n.block(append([][]byte{a.tx(t, msgRegister()), b.tx(t, msgRegister()),
		r[0].tx(t, msgWorkflowTask(4, 3, 3)), r[1].tx(t, msgArenaTask(5, 3, 3))},
		anchorTxs(t, r[:3], 1, 99, 1_700_000_001)...)...))
	mustOK(t, n.block(a.tx(t, msgWorkflowSubmit(0)), b.tx(t, msgWorkflowSubmit(0)),
		a.tx(t, msgArenaSubmit(1)), b.tx(t, msgArenaSubmit(1)),
		a.tx(t, msgGas(1, 100, "12")), b.tx(t, msgGas(1, 100, "9"))))
	var txs [][]byte
	for i := 0; i < 3; i++ {
		txs = append(txs, r[i].tx(t, msgWorkflowReport(0, workflowM())), r[i].tx(t, msgArenaReport(2, arenaM())),
			r[i].tx(t, msgTruth(1, 100, "10", 1_700_000_015)))
	}
	txs = append(txs, r[0].tx(t, msgWorkflowReport(1, workflowM())), r[1].tx(t, msgWorkflowReport(1, workflowM())),
		r[3].tx(t, msgArenaReport(3, arenaM())), a.tx(t, msgGas(1, 101, "10")))
	mustOK(t, n.block(txs...))
	mustOK(t, n.block(b.tx(t, msgGas(1, 101, "11"))))
	txs = nil
	for i := 0; i < 3; i++ {
		txs = append(txs, r[i].tx(t, msgTruth(1, 101, "10", 1_700_000_020)))
	}
	mustOK(t, n.block(txs...))
	n.block()
	mustOK(t, n.block())
	return n
}

// freshChain has one miner, a pending gas prediction and an arena task
// without samples: answers made of zero values, nulls and empty lists.
func freshChain(t *testing.T) *node {
	n := newNode(t, "", testGenesis(3))
	m := newSigner("miner-a")
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(append([][]byte{m.tx(t, msgRegister()), r[0].tx(t, msgArenaTask(5, 3, 3))}, anchorTxs(t, r, 1, 99, 1_700_000_001)...)...))
	mustOK(t, n.block(m.tx(t, msgGas(1, 100, "12"))))
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
	"submission": func() any { return new(wire.SubmissionView) }, "window": func() any { return new(wire.WindowView) },
	"baseline": func() any { return new(wire.BaselineView) }, "gas": func() any { return new(wire.GasAgentView) },
	"leaderboard": func() any { return new(wire.LeaderboardView) }, "epoch": func() any { return new(wire.EpochView) },
}

// TestQueryParamsAndStatusGolden: params is the genesis app state as given
// (compacted, as encoding/json writes raw JSON),
// beside the chain id; status before InitChain has a null chain id.
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
	want := `{"app_state":` + state.String() + `,"chain_id":"subnet-test"}`
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
	if want := `{"app_hash":"","chain_id":null,"height":0}`; string(resp.Value) != want {
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
