package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/offline"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// resultsChain scores six arena submissions of task 0 (ids 0..5, uids 1..6)
// with the measurements below: 0 and 1 measure the same (a tie), 4 is too
// good to be true (50 tokens, 2 s, one tool call) and 5 expires (one report).
func resultsChain(t *testing.T) *node {
	n := newNode(t, "", testGenesis(4))
	miners := make([]*signer, 6)
	txs := [][]byte{}
	for i := range miners {
		miners[i] = newMiner(fmt.Sprintf("results-%d", i), uint32(i+1))
		txs = append(txs, miners[i].tx(t, msgRegister()))
	}
	r := []*signer{reporter(0), reporter(1), reporter(2), reporter(3)}
	mustOK(t, n.block(append(txs, r[0].tx(t, msgArenaTask(4, 1, 3)))...))
	txs = nil
	for _, m := range miners {
		txs = append(txs, m.commit(t, arenaPayloadOf(m, 0)))
	}
	mustOK(t, n.block(txs...))
	txs = nil
	for _, m := range miners {
		txs = append(txs, m.reveal(t, arenaPayloadOf(m, 0)))
	}
	mustOK(t, n.block(txs...))
	ms := []*subnetv1.ArenaMeasurement{
		{TotalTokens: 8000, ToolCalls: 6, Iterations: 2, ExecutionTime: "200", EstimatedCost: "0.04", CriteriaPassed: 4},
		{TotalTokens: 8000, ToolCalls: 6, Iterations: 2, ExecutionTime: "200", EstimatedCost: "0.04", CriteriaPassed: 4},
		{TotalTokens: 20000, ToolCalls: 12, Iterations: 4, ExecutionTime: "900", EstimatedCost: "0.12", CriteriaPassed: 3},
		{TotalTokens: 4000, ToolCalls: 3, Iterations: 1, ExecutionTime: "90", EstimatedCost: "0", CriteriaPassed: 4},
		{TotalTokens: 50, ToolCalls: 1, Iterations: 1, ExecutionTime: "2", EstimatedCost: "0.001", CriteriaPassed: 4},
	}
	txs = nil
	for id, m := range ms {
		for i := 0; i < 3; i++ {
			txs = append(txs, r[i].tx(t, msgArenaReport(uint64(id), m)))
		}
	}
	txs = append(txs, r[3].tx(t, msgArenaReport(5, ms[0])))
	mustOK(t, n.block(txs...))
	for n.height < 7 {
		mustOK(t, n.block())
	}
	return n
}

func (n *node) answer(path string) []byte { return n.answerAt(path, 0) }

// answerAt is the answer at height h (0: the last committed); a refused
// query fails the test.
func (n *node) answerAt(path string, h int64) []byte {
	n.t.Helper()
	resp, err := n.app.Query(context.Background(), &abcitypes.RequestQuery{Path: path, Height: h})
	if err != nil || resp.Code != wire.QueryOK {
		n.t.Fatalf("%s: %v, code %d: %s", path, err, resp.Code, resp.Log)
	}
	return resp.Value
}

// TestTaskResultsQueryMatchesOfflineScorer: `query task/0/results` and the
// offline scorer over the task's `query submission/<id>` answers (in any
// order, pretty-printed as the CLI prints them) print the same bytes; the
// results rank ties together, flag the outlier both against the task's
// median and in its receipt, and leave the expired submission out.
func TestTaskResultsQueryMatchesOfflineScorer(t *testing.T) {
	n := resultsChain(t)
	got := n.answer("task/0/results")
	var file bytes.Buffer
	for _, id := range []int{5, 3, 0, 4, 2, 1} {
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, n.answer(fmt.Sprintf("submission/%d", id)), "", "  "); err != nil {
			t.Fatal(err)
		}
		file.Write(pretty.Bytes())
		file.WriteByte('\n')
	}
	var out bytes.Buffer
	if err := offline.ArenaTask(&file, &out, nil); err != nil {
		t.Fatal(err)
	}
	// `validatord query` prints the answer indented by two spaces, then a newline
	var printed bytes.Buffer
	if err := json.Indent(&printed, got, "", "  "); err != nil {
		t.Fatal(err)
	}
	printed.WriteByte('\n')
	if out.String() != printed.String() {
		t.Fatalf("offline scorer:\n%s\nquery:\n%s", out.Bytes(), printed.Bytes())
	}
	// a receipt whose overall score was raised does not verify: no results
	tampered := strings.Replace(string(n.answer("submission/2")), `{"name":"overall","value":"60.23`, `{"name":"overall","value":"99.23`, 1)
	if err := offline.ArenaTask(strings.NewReader(tampered), &out, nil); !errors.Is(err, offline.ErrNotVerified) {
		t.Fatalf("tampered receipt: %v", err)
	}
	var v wire.TaskResultsView
	if err := json.Unmarshal(got, &v); err != nil {
		t.Fatal(err)
	}
	if v.Scored != 5 || len(v.Results) != 5 {
		t.Fatalf("scored %d, %d rows; want 5 (submission 5 expired)", v.Scored, len(v.Results))
	}
	rank := map[uint64]wire.ArenaResultView{}
	for _, r := range v.Results {
		rank[r.SubmissionID] = r
	}
	if a, b := rank[0], rank[1]; a.Rank != b.Rank || a.OverallScore != b.OverallScore || a.Percentile != b.Percentile {
		t.Errorf("tie: submission 0 rank %d (%s, %s), submission 1 rank %d (%s, %s)", a.Rank, a.OverallScore, a.Percentile, b.Rank, b.OverallScore, b.Percentile)
	}
	if a, b := rank[0].CategoryRanks.Efficiency, rank[1].CategoryRanks.Efficiency; a+1 != b {
		t.Errorf("category ranks of a tie are ordinal by submission id: %d, %d", a, b)
	}
	o := rank[4]
	wantFlags := []string{"extremely_efficient_tokens", "extremely_fast", "minimal_tool_usage"}
	if !o.Outlier || !slices.Equal(o.OutlierFlags, wantFlags) || !o.ReceiptOutlier || !slices.Equal(o.ReceiptOutlierFlags, wantFlags) {
		t.Errorf("submission 4: outlier %v %v, receipt %v %v; want %v in both", o.Outlier, o.OutlierFlags, o.ReceiptOutlier, o.ReceiptOutlierFlags, wantFlags)
	}
	if want := []string{"Suspicious: Both efficiency and speed scores are extremely high"}; !slices.Equal(o.Warnings, want) {
		t.Errorf("submission 4 warnings %v, want %v", o.Warnings, want)
	}
	if rank[2].Outlier || len(rank[2].OutlierFlags) != 0 {
		t.Errorf("submission 2 flagged: %v", rank[2].OutlierFlags)
	}
	if v.ConfidenceInterval.Low == "0.000000000000000000" && v.ConfidenceInterval.High == "100.000000000000000000" {
		t.Errorf("five scores give a real interval, got (0, 100)")
	}
}
