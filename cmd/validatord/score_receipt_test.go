package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	cmtcrypto "github.com/cometbft/cometbft/proto/tendermint/crypto"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/app"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
)

var updateReceipts = flag.Bool("update-receipts", false, "rewrite testdata/receipt_answers.jsonl from the in-process chain")

const rcChainID = "receipt-test"

func rcKey(label string) ed25519.PrivateKey {
	seed := sha256.Sum256([]byte("receipt " + label))
	return ed25519.NewKeyFromSeed(seed[:])
}

// rcChain drives an in-process App through InitChain, FinalizeBlock and Commit.
type rcChain struct {
	t      *testing.T
	a      *app.App
	height int64
	nonces map[string]uint64
}

// rcGenesis has 4 validators of power 10 and a gas memory of 2 windows.
func rcGenesis(t *testing.T) (genesis.AppState, *abcitypes.RequestInitChain) {
	t.Helper()
	g := genesis.DefaultGenesis()
	req := &abcitypes.RequestInitChain{ChainId: rcChainID, InitialHeight: 1}
	for i := 0; i < 4; i++ {
		cons := rcKey(fmt.Sprint("consensus ", i)).Public().(ed25519.PublicKey)
		rep := rcKey(fmt.Sprint("report ", i)).Public().(ed25519.PublicKey)
		g.Validators = append(g.Validators, genesis.Validator{Name: fmt.Sprint("val", i),
			Address: hex.EncodeToString(genesis.ConsensusAddress(cons)), PubKey: base64.StdEncoding.EncodeToString(cons),
			Power: 10, ReportKey: hex.EncodeToString(rep)})
		req.Validators = append(req.Validators, abcitypes.ValidatorUpdate{
			PubKey: cmtcrypto.PublicKey{Sum: &cmtcrypto.PublicKey_Ed25519{Ed25519: cons}}, Power: 10})
	}
	g.Gas.MemorySize = 2
	bz, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	req.AppStateBytes = bz
	return g, req
}

func newRCChain(t *testing.T) *rcChain {
	t.Helper()
	a, err := app.New(app.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	_, req := rcGenesis(t)
	if _, err := a.InitChain(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	return &rcChain{t: t, a: a, nonces: map[string]uint64{}}
}

// tx signs msg with the key of label and its next nonce.
func (c *rcChain) tx(label string, msg *subnetv1.Msg) []byte {
	c.t.Helper()
	bz, err := app.SignTx(rcChainID, rcKey(label), c.nonces[label], msg)
	if err != nil {
		c.t.Fatal(err)
	}
	c.nonces[label]++
	return bz
}

// block finalizes and commits the next height (block time 1_700_000_000 + 6·h)
// and fails on any refused tx.
func (c *rcChain) block(txs ...[]byte) {
	c.t.Helper()
	c.height++
	resp, err := c.a.FinalizeBlock(context.Background(), &abcitypes.RequestFinalizeBlock{Height: c.height,
		Time: time.Unix(1_700_000_000+6*c.height, 0).UTC(), Txs: txs, Hash: []byte(fmt.Sprint("block ", c.height))})
	if err != nil {
		c.t.Fatal(err)
	}
	for i, r := range resp.TxResults {
		if r.Code != app.CodeOK {
			c.t.Fatalf("height %d tx %d: code %d: %s", c.height, i, r.Code, r.Log)
		}
	}
	if _, err := c.a.Commit(context.Background(), &abcitypes.RequestCommit{}); err != nil {
		c.t.Fatal(err)
	}
}

// answer is the compact JSON answer of a query path.
func (c *rcChain) answer(path string) string {
	c.t.Helper()
	resp, err := c.a.Query(context.Background(), &abcitypes.RequestQuery{Path: path})
	if err != nil || resp.Code != app.QueryOK {
		c.t.Fatalf("query %s: %v %s", path, err, resp.GetLog())
	}
	var out bytes.Buffer
	if err := json.Compact(&out, resp.Value); err != nil {
		c.t.Fatal(err)
	}
	return out.String()
}

func rcSubmit(kind any) *subnetv1.Msg {
	s := &subnetv1.MsgSubmit{}
	switch k := kind.(type) {
	case *subnetv1.WorkflowSubmit:
		s.Kind = &subnetv1.MsgSubmit_Workflow{Workflow: k}
	case *subnetv1.ArenaSubmit:
		s.Kind = &subnetv1.MsgSubmit_Arena{Arena: k}
	case *subnetv1.GasPredict:
		s.Kind = &subnetv1.MsgSubmit_Gas{Gas: k}
	}
	return &subnetv1.Msg{Sum: &subnetv1.Msg_Submit{Submit: s}}
}

func rcTruth(block uint64, ts int64) *subnetv1.Msg {
	return &subnetv1.Msg{Sum: &subnetv1.Msg_Truth{Truth: &subnetv1.MsgTruth{EvmChainId: 1, EvmBlock: block, MinPrice: "10", Timestamp: ts}}}
}

// Submission ids of the scenario.
const (
	rcWorkflow   = 0 // scored, not gated
	rcArena      = 1 // scored, category debugging, difficulty intermediate
	rcGasCounted = 2 // counted: slot only (memory of 2 not full)
	rcGasFull    = 3 // scored: one history point, stds 0
	rcGasSpread  = 4 // scored: two history points, non-zero COVs
	rcGasLate    = 5 // late: no inputs
	rcPending    = 6 // pending: no receipt
)

// receiptScenario runs the chain that produces every kind of receipt and
// returns the compact answers of submissions 0..6.
func receiptScenario(t *testing.T) []string {
	t.Helper()
	c := newRCChain(t)
	register := &subnetv1.Msg{Sum: &subnetv1.Msg_RegisterMiner{RegisterMiner: &subnetv1.MsgRegisterMiner{}}}
	wfTask := &subnetv1.Msg{Sum: &subnetv1.Msg_PostTask{PostTask: &subnetv1.MsgPostTask{Task: &subnetv1.MsgPostTask_Workflow{
		Workflow: &subnetv1.WorkflowTask{TotalSteps: 4, MaxBudget: "2", MaxLatencySeconds: "100", SubmissionBlocks: 10, ReportBlocks: 10}}}}}
	arTask := &subnetv1.Msg{Sum: &subnetv1.Msg_PostTask{PostTask: &subnetv1.MsgPostTask{Task: &subnetv1.MsgPostTask_Arena{
		Arena: &subnetv1.ArenaTask{Category: "debugging", Difficulty: "intermediate", CriteriaTotal: 5, SubmissionBlocks: 10, ReportBlocks: 10}}}}}
	c.block(c.tx("miner a", register), c.tx("miner b", register), c.tx("report 0", wfTask), c.tx("report 1", arTask))
	hash := sha256.Sum256([]byte("artifact"))
	c.block(c.tx("miner a", rcSubmit(&subnetv1.WorkflowSubmit{TaskId: 0, DeclaredRetryBudget: 1, ArtifactHash: hash[:]})),
		c.tx("miner a", rcSubmit(&subnetv1.ArenaSubmit{TaskId: 1, ArtifactHash: hash[:]})),
		c.tx("miner a", rcSubmit(&subnetv1.GasPredict{EvmChainId: 1, EvmBlock: 100, Price: "12"})))
	wf := &subnetv1.Msg{Sum: &subnetv1.Msg_Report{Report: &subnetv1.MsgReport{SubmissionId: rcWorkflow,
		Measurement: &subnetv1.MsgReport_Workflow{Workflow: &subnetv1.WorkflowMeasurement{OutputQuality: "0.95",
			StepsCompleted: 4, Cost: "0.5", LatencySeconds: "20", Retries: 2, Timeouts: 1}}}}}
	ar := &subnetv1.Msg{Sum: &subnetv1.Msg_Report{Report: &subnetv1.MsgReport{SubmissionId: rcArena,
		Measurement: &subnetv1.MsgReport_Arena{Arena: &subnetv1.ArenaMeasurement{TotalTokens: 8000, ToolCalls: 6,
			Iterations: 2, ExecutionTime: "200", EstimatedCost: "0.04", CriteriaPassed: 4}}}}}
	var txs [][]byte
	for i := 0; i < 3; i++ {
		r := fmt.Sprint("report ", i)
		txs = append(txs, c.tx(r, wf), c.tx(r, ar), c.tx(r, rcTruth(100, 1_700_000_015)))
	}
	c.block(append(txs, c.tx("miner a", rcSubmit(&subnetv1.GasPredict{EvmChainId: 1, EvmBlock: 101, Price: "10.5"})))...)
	txs = nil
	for i := 0; i < 3; i++ {
		txs = append(txs, c.tx(fmt.Sprint("report ", i), rcTruth(101, 1_700_000_023)))
	}
	c.block(append(txs, c.tx("miner a", rcSubmit(&subnetv1.GasPredict{EvmChainId: 1, EvmBlock: 102, Price: "9"})))...)
	txs = nil
	for i := 0; i < 3; i++ {
		txs = append(txs, c.tx(fmt.Sprint("report ", i), rcTruth(102, 1_700_000_029)))
	}
	hashB := sha256.Sum256([]byte("artifact b"))
	c.block(append(txs, c.tx("miner a", rcSubmit(&subnetv1.GasPredict{EvmChainId: 1, EvmBlock: 103, Price: "10"})),
		c.tx("miner b", rcSubmit(&subnetv1.WorkflowSubmit{TaskId: 0, ArtifactHash: hashB[:]})))...)
	txs = nil
	for i := 0; i < 3; i++ {
		txs = append(txs, c.tx(fmt.Sprint("report ", i), rcTruth(103, 1_700_000_030)))
	}
	c.block(txs...)
	out := make([]string, rcPending+1)
	for id := range out {
		out[id] = c.answer(fmt.Sprint("submission/", id))
	}
	if *updateReceipts {
		lines := strings.Join(out[:rcGasLate], "\n") + "\n"
		if err := os.WriteFile(filepath.Join("testdata", "receipt_answers.jsonl"), []byte(lines), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// rcOutput is one output line of score receipt.
type rcOutput struct {
	Line       int               `json:"line"`
	Submission *uint64           `json:"submission"`
	Track      string            `json:"track"`
	Verified   bool              `json:"verified"`
	Checked    int               `json:"checked"`
	Mismatches []receiptMismatch `json:"mismatches"`
	Unchecked  []string          `json:"unchecked"`
	Error      string            `json:"error"`
}

func runReceipt(t *testing.T, stdin string, args ...string) ([]rcOutput, int) {
	t.Helper()
	out, errOut, code := runScoreIn(t, stdin, append([]string{"receipt"}, args...)...)
	var rows []rcOutput
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var r rcOutput
		dec := json.NewDecoder(strings.NewReader(l))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("output line %q: %v (stderr %s)", l, err, errOut)
		}
		rows = append(rows, r)
	}
	return rows, code
}

// receiptOf returns the "receipt" member of an answer, compact.
func receiptOf(t *testing.T, answer string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(answer), &m); err != nil {
		t.Fatal(err)
	}
	return string(m["receipt"])
}

// TestReceiptVerifiesRealReceipts: the receipts the app wrote for a workflow,
// an arena, a counted and two scored gas predictions verify, whole answers
// and bare receipts alike, with every value checked.
func TestReceiptVerifiesRealReceipts(t *testing.T) {
	ans := receiptScenario(t)
	for id, want := range map[int]string{rcWorkflow: "scored", rcArena: "scored", rcGasCounted: "counted",
		rcGasFull: "scored", rcGasSpread: "scored", rcGasLate: "late", rcPending: "pending"} {
		if !strings.Contains(ans[id], `"status":"`+want+`"`) {
			t.Fatalf("scenario: submission %d is not %s: %s", id, want, ans[id])
		}
	}
	if strings.Contains(ans[rcGasSpread], `"inclusion_cov","value":"0.000000000000000000"`) {
		t.Fatalf("scenario: submission %d should have a non-zero inclusion COV: %s", rcGasSpread, ans[rcGasSpread])
	}
	var in []string
	for id := rcWorkflow; id <= rcGasSpread; id++ {
		in = append(in, ans[id])
	}
	for id := rcWorkflow; id <= rcGasSpread; id++ {
		in = append(in, receiptOf(t, ans[id]))
	}
	rows, code := runReceipt(t, strings.Join(in, "\n"))
	if code != 0 || len(rows) != 10 {
		t.Fatalf("exit %d, %d rows: %+v", code, len(rows), rows)
	}
	gasUnchecked := []string{"inclusion_mean", "inclusion_std", "overpayment_mean", "overpayment_std", "liveliness", "points"}
	// bare: values and score; whole answers add track, status and the
	// submission's own field (retry budget; gas: prediction id and price).
	want := []struct {
		track       string
		bare, whole int
		unchecked   []string
	}{
		{"workflow", 7 + 1, 7 + 1 + 3, nil},
		{"arena", 18 + 1, 18 + 1 + 2, nil},
		{"gas", 3, 3 + 4, nil},
		{"gas", 3 + 8 + 1, 3 + 8 + 1 + 4, gasUnchecked},
		{"gas", 3 + 8 + 1, 3 + 8 + 1 + 4, gasUnchecked},
	}
	for i, r := range rows {
		w, whole := want[i%5], i < 5
		checked := w.bare
		if whole {
			checked = w.whole
		}
		if !r.Verified || r.Track != w.track || r.Line != i+1 || len(r.Mismatches) != 0 || !slices.Equal(r.Unchecked, w.unchecked) {
			t.Errorf("row %d: %+v, want verified %s", i, r, w.track)
		}
		if r.Checked != checked {
			t.Errorf("row %d (%s, whole %v): checked %d, want %d", i, w.track, whole, r.Checked, checked)
		}
		wantID := whole || w.track == "gas" // a bare workflow or arena receipt does not name its submission
		if wantID != (r.Submission != nil) || (wantID && *r.Submission != uint64(i%5)) {
			t.Errorf("row %d: submission %v, want %d (null for a bare %s receipt: %v)", i, r.Submission, i%5, w.track, !wantID)
		}
	}
}

// rcEdit returns answer with one receipt entry changed: section is "inputs",
// "params" or "values" (value "" deletes the entry, a new name is appended),
// or "score".
func rcEdit(t *testing.T, answer, section, name, value string) string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(answer))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	rec := m["receipt"].(map[string]any)
	if section == "score" {
		rec["score"] = value
	} else {
		list, _ := rec[section].([]any)
		found := false
		for i, f := range list {
			if f.(map[string]any)["name"] == name {
				found = true
				if value == "" {
					list = slices.Delete(list, i, i+1)
				} else {
					f.(map[string]any)["value"] = value
				}
				break
			}
		}
		if !found {
			list = append(list, map[string]any{"name": name, "value": value})
		}
		rec[section] = list
	}
	bz, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(bz)
}

func rcNames(ms []receiptMismatch) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Name
	}
	return out
}

// TestReceiptTamper changes one input, one param or one value of a real
// receipt and expects exactly the values that depend on it to be named, with
// the hand-derived recomputation.
func TestReceiptTamper(t *testing.T) {
	ans := receiptScenario(t)
	// workflow: success 0.95, cost 1 − 0.5/2 = 0.75, latency 1 − 20/100 = 0.8,
	// reliability 1 − (1 unplanned × 0.1 + 1 timeout × 0.2) = 0.7;
	// score .5×.95 + .25×.75 + .15×.8 + .1×.7 = 0.8525.
	// arena: tokens 8000 on the default baseline 1000..50000: 42000×100/49000.
	// gas (submission 4): prediction 9 under min 10, memories {12, 10.5} then {10.5, 9}.
	cases := []struct {
		name                 string
		id                   int
		section, field, to   string
		names                []string
		first, firstRecomput string // receipt and recomputed of the first mismatch
	}{
		{"workflow input", rcWorkflow, "inputs", "output_quality", "0.96", []string{"s_success", "score"},
			"0.950000000000000000", "0.960000000000000000"},
		{"workflow param", rcWorkflow, "params", "gate", "0.95", []string{"gated", "s_cost", "s_latency", "score"},
			"false", "true"},
		{"workflow value", rcWorkflow, "values", "s_reliability", "0.8", []string{"s_reliability"},
			"0.8", "0.700000000000000000"},
		{"workflow score", rcWorkflow, "score", "", "0.86", []string{"score"}, "0.86", "0.852500000000000000"},
		{"arena input", rcArena, "inputs", "difficulty", "beginner", []string{"multiplier", "adjusted", "overall", "score"},
			"1.100000000000000000", "1.000000000000000000"},
		{"arena param", rcArena, "params", "baseline.max_tokens", "57000",
			[]string{"token_score", "efficiency_exact", "efficiency", "unadjusted", "adjusted", "overall", "score"},
			"85.714285714285714286", "87.500000000000000000"},
		{"arena value", rcArena, "values", "multiplier", "1.2", []string{"multiplier"}, "1.2", "1.100000000000000000"},
		{"gas input", rcGasSpread, "inputs", "min_price", "9", []string{"slot.included"}, "false", "true"},
		{"gas param", rcGasSpread, "params", "beta", "3", []string{"u1", "u2", "u3", "total_score", "score"}, "", ""},
		{"gas value", rcGasSpread, "values", "u0", "0.7", []string{"u0"}, "0.7", "0.750000000000000000"},
		{"gas unchecked mean", rcGasSpread, "values", "inclusion_mean", "0.7",
			[]string{"inclusion_cov", "u0", "u1", "total_score", "score"}, "", ""},
		{"gas answer price", rcGasSpread, "values", "slot.fresh", "false", []string{"slot.fresh"}, "false", "true"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rows, code := runReceipt(t, rcEdit(t, ans[tc.id], tc.section, tc.field, tc.to))
			if code != 1 || len(rows) != 1 || rows[0].Verified || rows[0].Error != "" {
				t.Fatalf("exit %d, rows %+v, want one unverified row", code, rows)
			}
			r := rows[0]
			if !slices.Equal(rcNames(r.Mismatches), tc.names) {
				t.Fatalf("mismatches %+v, want names %v", r.Mismatches, tc.names)
			}
			if m := r.Mismatches[0]; tc.first != "" && (m.Receipt != tc.first || m.Recomputed != tc.firstRecomput) {
				t.Fatalf("first mismatch %+v, want receipt %s recomputed %s", m, tc.first, tc.firstRecomput)
			}
		})
	}
}

// TestReceiptAnswerMismatch: a whole answer must agree with its own receipt;
// the mismatch shows the receipt's value and the answer's.
func TestReceiptAnswerMismatch(t *testing.T) {
	ans := receiptScenario(t)
	in := strings.Replace(ans[rcWorkflow], `"declared_retry_budget":1`, `"declared_retry_budget":2`, 1) + "\n" +
		strings.Replace(ans[rcGasFull], `"price":"10.500000000000000000"`, `"price":"10.6"`, 1) + "\n" +
		strings.Replace(ans[rcArena], `"status":"scored"`, `"status":"failed"`, 1)
	rows, code := runReceipt(t, in)
	if code != 1 || len(rows) != 3 {
		t.Fatalf("exit %d rows %+v", code, rows)
	}
	want := []receiptMismatch{
		{Name: "submission.declared_retry_budget", Receipt: "1", Recomputed: "2"},
		{Name: "submission.gas.price", Receipt: "10.500000000000000000", Recomputed: "10.600000000000000000"},
		{Name: "submission.status", Receipt: "failed", Recomputed: "scored"}, // the receipt's status comes first
	}
	for i, r := range rows {
		if r.Verified || len(r.Mismatches) != 1 || r.Mismatches[0] != want[i] {
			t.Errorf("row %d: %+v, want the single mismatch %+v", i, r, want[i])
		}
	}
}

// TestReceiptMalformed: every malformed line gets its own error naming the
// problem and its line number (blank lines counted, CRLF and a last line
// without newline accepted); good lines in between still verify; exit 1.
func TestReceiptMalformed(t *testing.T) {
	ans := receiptScenario(t)
	wf, ar, gas := ans[rcWorkflow], ans[rcArena], ans[rcGasSpread]
	lines := []string{
		rcEdit(t, wf, "inputs", "foo", "1"),
		"",
		wf,
		rcEdit(t, rcEdit(t, ar, "params", "token_weight", ""), "params", "speed_exponent", ""),
		ans[rcPending],
		ans[rcGasLate],
		"not json",
		rcEdit(t, wf, "params", "w_success", "0.6"),
		strings.Replace(receiptOf(t, wf), `"height":`, `"extra":1,"height":`, 1),
		rcEdit(t, gas, "values", "u3", ""),
		rcEdit(t, wf, "inputs", "cost", "0.1234567890123456789"),
		strings.Replace(gas, `"track":"gas"`, `"track":"bridge"`, 2),
		rcEdit(t, wf, "values", "s_extra", "1"),
		receiptOf(t, gas),
	}
	rows, code := runReceipt(t, strings.Join(lines[:len(lines)-1], "\r\n")+"\n"+lines[len(lines)-1])
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	want := []struct {
		line int
		err  string
	}{
		{1, `inputs: unknown "foo"`},
		{3, ""},
		{4, "params: missing token_weight, speed_exponent"},
		{5, `submission 6 has no receipt (status "pending")`},
		{6, `receipt has no inputs to recompute (status "late"`},
		{7, "not a JSON object"},
		{8, "params: "},
		{9, `unknown field "extra"`},
		{10, "values: missing u3"},
		{11, "inputs.cost: "},
		{12, `track: "bridge" is not workflow, arena or gas`},
		{13, `values: unknown "s_extra"`},
		{14, ""},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(rows), len(want), rows)
	}
	for i, w := range want {
		r := rows[i]
		if r.Line != w.line || !strings.Contains(r.Error, w.err) || (w.err == "" && (r.Error != "" || !r.Verified)) {
			t.Errorf("row %d: %+v, want line %d error containing %q", i, r, w.line, w.err)
		}
	}
	if !strings.Contains(rows[6].Error, "must sum to exactly 1") {
		t.Errorf("invalid workflow weights: %q", rows[6].Error)
	}
}

// TestReceiptFailedNote: a receipt the app marked failed by the formula
// verifies when the recomputation fails with the same error, and names the
// note otherwise.
func TestReceiptFailedNote(t *testing.T) {
	ans := receiptScenario(t)
	_, scoreErr := scoring.ScoreWorkflow(scoring.DefaultWorkflowParams(), scoring.WorkflowInput{OutputQuality: scoring.One,
		StepsCompleted: 5, TotalSteps: 4, MaxBudget: scoring.One, MaxLatencySeconds: scoring.One})
	if scoreErr == nil {
		t.Fatal("5 of 4 steps scored")
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(receiptOf(t, ans[rcWorkflow])), &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "values")
	delete(m, "score")
	m["status"] = "failed"
	for _, f := range m["inputs"].([]any) {
		if f.(map[string]any)["name"] == "steps_completed" {
			f.(map[string]any)["value"] = "5"
		}
	}
	failed := func(note string) string {
		m["note"] = note
		bz, _ := json.Marshal(m)
		return string(bz)
	}
	rows, code := runReceipt(t, failed("score: "+scoreErr.Error())+"\n"+failed("score: something else")+"\n"+
		rcEdit(t, rcEdit(t, ans[rcWorkflow], "values", "", ""), "score", "", ""))
	if code != 1 || len(rows) != 3 {
		t.Fatalf("exit %d rows %+v", code, rows)
	}
	if !rows[0].Verified || rows[0].Checked != 1 {
		t.Errorf("the app's failure note: %+v, want verified", rows[0])
	}
	if rows[1].Verified || len(rows[1].Mismatches) != 1 || rows[1].Mismatches[0].Recomputed != "score: "+scoreErr.Error() {
		t.Errorf("another note: %+v, want a note mismatch", rows[1])
	}
	if rows[2].Error == "" {
		t.Errorf("a scored answer whose values were dropped: %+v, want an error", rows[2])
	}
}

// rcHistory builds a gas history from inclusion-rate and overpayment pairs in thousandths.
func rcHistory(pairs ...[2]int64) []scoring.GasHistoryPoint {
	h := make([]scoring.GasHistoryPoint, len(pairs))
	for i, p := range pairs {
		h[i] = scoring.GasHistoryPoint{Time: int64(i), InclusionRate: decimal.New(p[0], -3), AvgOverpayment: decimal.New(p[1], -3)}
	}
	return h
}

// checkGasDerived scores a history with scoring.ScoreGas and recomputes its
// COVs, utilities and total from the means, stds and liveliness alone.
// A history ScoreGas refuses skips (fuzz) or fails (table) as skipInvalid says.
func checkGasDerived(t *testing.T, p scoring.GasParams, h []scoring.GasHistoryPoint, liveliness decimal.Decimal, skipInvalid bool) {
	t.Helper()
	r, err := scoring.ScoreGas(p, h, liveliness)
	if err != nil && skipInvalid {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	got, err := gasDerived(p, gasStats{InclusionMean: r.InclusionMean, InclusionStd: r.InclusionStd,
		OverpaymentMean: r.OverpaymentMean, OverpaymentStd: r.OverpaymentStd, Liveliness: r.Liveliness})
	if err != nil {
		t.Fatal(err)
	}
	want := []decimal.Decimal{r.InclusionCOV, r.OverpaymentCOV, r.Utilities[0], r.Utilities[1], r.Utilities[2],
		r.Utilities[3], r.Utilities[4], r.Score}
	for i, g := range got {
		if !g.want.value.Equal(want[i]) {
			t.Fatalf("%s = %s, ScoreGas %s (history %+v)", g.name, g.want.text, want[i], h)
		}
	}
}

// TestReceiptGasDerivedMatchesScoreGas: the receipt-only recomputation of
// the gas intermediates agrees with ScoreGas on hand-picked histories: one
// point (stds 0), zero overpayment (COV 0 by std 0), spread values, and
// overpayment large enough that exp(−β·x) underflows to 0.
func TestReceiptGasDerivedMatchesScoreGas(t *testing.T) {
	p := scoring.DefaultGasParams()
	for _, h := range [][]scoring.GasHistoryPoint{
		rcHistory([2]int64{1000, 125}),
		rcHistory([2]int64{1000, 0}, [2]int64{500, 0}),
		rcHistory([2]int64{1000, 125}, [2]int64{500, 25}, [2]int64{0, 0}),
		rcHistory([2]int64{300, 20000}, [2]int64{700, 90000}),
		rcHistory([2]int64{0, 0}, [2]int64{0, 0}),
	} {
		for _, l := range []string{"0", "0.5", "1"} {
			checkGasDerived(t, p, h, decimal.RequireFromString(l), false)
		}
	}
}

// TestReceiptGasUndefinedCOV: a zero mean with a non-zero std (which no real
// history yields) records COV 0 and utility 0, as ScoreGas's cov does.
func TestReceiptGasUndefinedCOV(t *testing.T) {
	p := scoring.DefaultGasParams()
	got, err := gasDerived(p, gasStats{InclusionMean: scoring.Zero, InclusionStd: decimal.New(1, -1),
		OverpaymentMean: scoring.Zero, OverpaymentStd: scoring.Zero, Liveliness: scoring.One})
	if err != nil {
		t.Fatal(err)
	}
	// u0 = 0, u1 = 0 (undefined), u2 = exp(0) = 1, u3 = 1 (std 0), u4 = 1: total .15 + .10 + .10.
	want := []string{"0", "0", "0", "0", "1", "1", "1", "0.35"}
	for i, g := range got {
		if !g.want.value.Equal(decimal.RequireFromString(want[i])) {
			t.Errorf("%s = %s, want %s", g.name, g.want.text, want[i])
		}
	}
	if _, err := gasDerived(p, gasStats{OverpaymentMean: decimal.New(-100, 0)}); err == nil {
		t.Error("a negative overpayment mean (exp overflow) was accepted")
	}
}

func BenchmarkReceiptVerify(b *testing.B) {
	bz, err := os.ReadFile(filepath.Join("testdata", "receipt_answers.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(bz), []byte("\n"))
	v := receiptVerifier{chain: genesis.DefaultGenesis()}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for n, l := range lines {
			if r, err := v.verifyLine(n+1, l); err != nil || !r.Verified {
				b.Fatalf("line %d: %v %+v", n+1, err, r)
			}
		}
	}
}

func FuzzReceiptGasDerived(f *testing.F) {
	f.Add(int64(1000), int64(125), int64(500), int64(25), int64(7), uint8(10))
	f.Add(int64(0), int64(0), int64(0), int64(0), int64(0), uint8(0))
	f.Add(int64(1), int64(99999), int64(999), int64(3), int64(10), uint8(3))
	f.Fuzz(func(t *testing.T, i1, o1, i2, o2, live int64, beta uint8) {
		p := scoring.DefaultGasParams()
		p.Beta = decimal.New(int64(beta)+1, -1)
		m := func(x, n int64) int64 { return ((x % n) + n) % n }
		h := rcHistory([2]int64{m(i1, 1001), m(o1, 100000)}, [2]int64{m(i2, 1001), m(o2, 100000)})
		checkGasDerived(t, p, h, decimal.New(m(live, 11), -1), true)
	})
}

// TestReceiptParamsFlag: with --params the recorded params are also checked
// against the chain's, and the arena tables come from the file.
func TestReceiptParamsFlag(t *testing.T) {
	ans := receiptScenario(t)
	dir := t.TempDir()
	g, _ := rcGenesis(t)
	write := func(name string, st genesis.AppState) string {
		bz, err := json.Marshal(map[string]any{"chain_id": rcChainID, "app_state": st})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, bz, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	in := strings.Join(ans[:rcGasLate], "\n")
	rows, code := runReceipt(t, in, "--params", write("same.json", g))
	if code != 0 || len(rows) != 5 || rows[0].Checked != 11+8 || rows[1].Checked != 21+8 || rows[4].Checked != 16+8 {
		t.Fatalf("the chain's own params: exit %d rows %+v", code, rows)
	}
	other := g
	other.Gas.Beta = decimal.RequireFromString("3.3")
	other.Arena.Categories = slices.Clone(g.Arena.Categories)
	for i, c := range other.Arena.Categories {
		if c.Name == "debugging" {
			other.Arena.Categories[i].Weights = g.Arena.Default
		}
	}
	rows, code = runReceipt(t, in, "--params", write("other.json", other))
	if code != 1 || len(rows) != 5 {
		t.Fatalf("other params: exit %d rows %+v", code, rows)
	}
	if !rows[0].Verified {
		t.Errorf("workflow params unchanged: %+v", rows[0])
	}
	if names := rcNames(rows[1].Mismatches); !slices.Contains(names, "weight_efficiency") || slices.Contains(names, "params.token_weight") {
		t.Errorf("arena with other debugging weights: %v", names)
	}
	for _, r := range rows[2:] {
		if names := rcNames(r.Mismatches); len(names) != 1 || names[0] != "params.beta" {
			t.Errorf("gas with beta 3.3: %v", names)
		}
	}
	if _, errOut, code := runScoreIn(t, "", "receipt", "--params", filepath.Join(dir, "none.json")); code != 1 || !strings.Contains(errOut, "none.json") {
		t.Errorf("missing params file: exit %d stderr %q", code, errOut)
	}
}

// TestReceiptFixture: the committed answers (go test -run ReceiptVerifies
// -update-receipts rewrites them) still verify, so the docs example holds.
func TestReceiptFixture(t *testing.T) {
	bz, err := os.ReadFile(filepath.Join("testdata", "receipt_answers.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	rows, code := runReceipt(t, string(bz))
	if code != 0 || len(rows) != 5 {
		t.Fatalf("exit %d rows %+v", code, rows)
	}
	for _, r := range rows {
		if !r.Verified {
			t.Errorf("fixture line %d: %+v", r.Line, r)
		}
	}
}

func TestReceiptHelp(t *testing.T) {
	out, _, code := runScoreIn(t, "", "receipt", "-h")
	if code != 0 || !strings.Contains(out, "usage: validatord score receipt") || !strings.Contains(out, "-params") {
		t.Fatalf("exit %d help %q", code, out)
	}
	if _, _, code := runScoreIn(t, "", "receipt", "extra"); code == 0 {
		t.Fatal("a positional argument was accepted")
	}
}
