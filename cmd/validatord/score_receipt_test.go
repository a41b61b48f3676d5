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

	"github.com/scoringsubnet/validatord/app/wire"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	cmtcrypto "github.com/cometbft/cometbft/proto/tendermint/crypto"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/app"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/offline"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/receipt"
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

// rcGenesis has 4 validators of power 10, a gas memory of 2 windows and
// reveal windows of 1 block.
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
	for i := range g.Tracks {
		g.Tracks[i].RevealBlocks = 1
	}
	// Registration at difficulty 1 (every nonce meets it; the messages bind
	// the genesis entry, height 0), every miner in one block.
	g.Membership.InitialDifficulty, g.Membership.MinDifficulty, g.Membership.MaxDifficulty = 1, 1, 1
	g.Membership.MaxRegistrationsPerBlock = 16
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
	bz, err := wire.SignTx(rcChainID, rcKey(label), c.nonces[label], msg)
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
		if r.Code != wire.CodeOK {
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
	if err != nil || resp.Code != wire.QueryOK {
		c.t.Fatalf("query %s: %v %s", path, err, resp.GetLog())
	}
	var out bytes.Buffer
	if err := json.Compact(&out, resp.Value); err != nil {
		c.t.Fatal(err)
	}
	return out.String()
}

// rcSalt is a fixed salt of label for payload: the chain, and so the
// fixture, is the same on every run.
func rcSalt(label string, p *subnetv1.MsgSubmit) client.Salt {
	bz, _ := p.Marshal()
	return sha256.Sum256(append([]byte("salt "+label), bz...))
}

// commit signs label's (uid's) commit to p.
func (c *rcChain) commit(label string, uid uint32, p *subnetv1.MsgSubmit) []byte {
	c.t.Helper()
	msg, err := client.Commit(rcChainID, rcKey(label).Public().(ed25519.PublicKey), uid, p, rcSalt(label, p))
	if err != nil {
		c.t.Fatal(err)
	}
	return c.tx(label, msg)
}

// reveal signs label's reveal of p.
func (c *rcChain) reveal(label string, p *subnetv1.MsgSubmit) []byte {
	return c.tx(label, client.Reveal(p, rcSalt(label, p)))
}

func rcTruth(block uint64, ts int64) *subnetv1.Msg {
	return &subnetv1.Msg{Sum: &subnetv1.Msg_Truth{Truth: &subnetv1.MsgTruth{EvmChainId: 1, EvmBlock: block, MinPrice: "10", Timestamp: ts}}}
}

// truths are the three reporters' truths of an EVM block (30 of 40 power:
// final in their block).
func (c *rcChain) truths(block uint64, ts int64) [][]byte {
	var txs [][]byte
	for i := 0; i < 3; i++ {
		txs = append(txs, c.tx(fmt.Sprint("report ", i), rcTruth(block, ts)))
	}
	return txs
}

// Submission ids of the scenario.
const (
	rcWorkflow   = 0 // scored, not gated
	rcArena      = 1 // scored, category debugging, difficulty intermediate
	rcGasCounted = 2 // counted: slot only (memory of 2 not full)
	rcGasFull    = 3 // scored: one history point, stds 0
	rcGasSpread  = 4 // scored: two history points, non-zero COVs
	rcGasLate    = 5 // late: committed 1 s inside the margin; no inputs
	rcPending    = 6 // pending: revealed, not reported; no receipt
	rcDuplicate  = 7 // duplicate of rcWorkflow's artifact, committed later and revealed first
)

// receiptScenario runs the chain that produces every kind of receipt and
// returns the compact answers of submissions 0..7. Every track reveals in
// the one block after its commits close (reveal_blocks 1); the gas margin
// is the default 2 s. Block h has time 1_700_000_000 + 6h.
func receiptScenario(t *testing.T) []string {
	t.Helper()
	c := newRCChain(t)
	register := &subnetv1.Msg{Sum: &subnetv1.Msg_RegisterMiner{RegisterMiner: &subnetv1.MsgRegisterMiner{}}}
	// tasks posted at 1 take commits at 1..5, reveals at 6, reports from 7
	wfTask := &subnetv1.Msg{Sum: &subnetv1.Msg_PostTask{PostTask: &subnetv1.MsgPostTask{Task: &subnetv1.MsgPostTask_Workflow{
		Workflow: &subnetv1.WorkflowTask{TotalSteps: 4, MaxBudget: "2", MaxLatencySeconds: "100", SubmissionBlocks: 4, ReportBlocks: 10}}}}}
	arTask := &subnetv1.Msg{Sum: &subnetv1.Msg_PostTask{PostTask: &subnetv1.MsgPostTask{Task: &subnetv1.MsgPostTask_Arena{
		Arena: &subnetv1.ArenaTask{Category: "debugging", Difficulty: "intermediate", CriteriaTotal: 5, SubmissionBlocks: 4, ReportBlocks: 10}}}}}
	hash := sha256.Sum256([]byte("artifact"))
	hashB := sha256.Sum256([]byte("artifact b"))
	wf, ar, arB := client.WorkflowPayload(0, hash[:]), client.ArenaPayload(1, hash[:]), client.ArenaPayload(1, hashB[:])
	gas := func(block uint64, price string) *subnetv1.MsgSubmit { return client.GasPayload(1, block, price) }
	const a, b = "miner a", "miner b" // uids 1 and 2
	// h1: EVM block 99's truth anchors the gas chain: predictions open after it.
	c.block(append([][]byte{c.tx(a, register), c.tx(b, register), c.tx("report 0", wfTask), c.tx("report 1", arTask)},
		c.truths(99, 1_700_000_005)...)...)
	// h2 (…012): miner a commits to both tasks and predicts block 100
	c.block(c.commit(a, 1, wf), c.commit(a, 1, ar), c.commit(a, 1, gas(100, "12")))
	// h3 (…018): block 100's truth (…015) is final: its reveals at h4, its
	// close at the end of h4; a predicts block 101
	c.block(append(c.truths(100, 1_700_000_015), c.commit(a, 1, gas(101, "10.5")))...)
	// h4 (…024): a reveals 100; block 101's truth (…023); a predicts 102
	c.block(append(append([][]byte{c.reveal(a, gas(100, "12"))}, c.truths(101, 1_700_000_023)...), c.commit(a, 1, gas(102, "9")))...)
	// h5 (…030): a reveals 101; block 102's truth (…029); a predicts 103,
	// b commits an arena run and a's workflow artifact, late in the window
	c.block(append(append([][]byte{c.reveal(a, gas(101, "10.5"))}, c.truths(102, 1_700_000_029)...),
		c.commit(a, 1, gas(103, "10")), c.commit(b, 2, arB), c.commit(b, 2, wf))...)
	// h6 (…036): a reveals 102; block 103's truth (…031) comes 1 s inside
	// the margin after a's commit (…030); the tasks' reveals, b's copy of the
	// artifact first: a's earlier commit still keeps it
	c.block(append(append([][]byte{c.reveal(a, gas(102, "9"))}, c.truths(103, 1_700_000_031)...),
		c.reveal(b, wf), c.reveal(a, wf), c.reveal(a, ar), c.reveal(b, arB))...)
	// h7: a reveals 103 (late at the close); the three reporters (power 10
	// each) disagree on output_quality, the workflow's retry budget and
	// total_tokens: the medians are the middle votes, 0.95, 1 and 8000.
	wfReport := func(quality string, budget int64) *subnetv1.Msg {
		return &subnetv1.Msg{Sum: &subnetv1.Msg_Report{Report: &subnetv1.MsgReport{SubmissionId: rcWorkflow,
			Measurement: &subnetv1.MsgReport_Workflow{Workflow: &subnetv1.WorkflowMeasurement{OutputQuality: quality,
				StepsCompleted: 4, Cost: "0.5", LatencySeconds: "20", Retries: 2, DeclaredRetryBudget: budget, Timeouts: 1}}}}}
	}
	arReport := func(tokens int64) *subnetv1.Msg {
		return &subnetv1.Msg{Sum: &subnetv1.Msg_Report{Report: &subnetv1.MsgReport{SubmissionId: rcArena,
			Measurement: &subnetv1.MsgReport_Arena{Arena: &subnetv1.ArenaMeasurement{TotalTokens: tokens, ToolCalls: 6,
				Iterations: 2, ExecutionTime: "200", EstimatedCost: "0.04", CriteriaPassed: 4}}}}}
	}
	quality := []string{"0.9", "0.95", "0.99"}
	budget := []int64{1, 1, 3}
	tokens := []int64{7000, 8000, 9000}
	txs := [][]byte{c.reveal(a, gas(103, "10"))}
	for i := 0; i < 3; i++ {
		r := fmt.Sprint("report ", i)
		txs = append(txs, c.tx(r, wfReport(quality[i], budget[i])), c.tx(r, arReport(tokens[i])))
	}
	c.block(txs...)
	out := make([]string, rcDuplicate+1)
	for id := range out {
		out[id] = c.answer(fmt.Sprint("submission/", id))
	}
	if *updateReceipts {
		lines := strings.Join(append(slices.Clone(out[:rcGasLate]), out[rcDuplicate]), "\n") + "\n"
		if err := os.WriteFile(filepath.Join("testdata", "receipt_answers.jsonl"), []byte(lines), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// rcOutput is one output line of score receipt: the library's line, or
// the error of a line that could not be read.
type rcOutput struct {
	offline.ReceiptLine
	Error string `json:"error"`
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
// an arena, a counted and two scored gas predictions, and a duplicate,
// verify, whole answers and bare receipts alike, with every value checked;
// each row shows the commit and reveal heights and the duplicate verdict.
func TestReceiptVerifiesRealReceipts(t *testing.T) {
	ans := receiptScenario(t)
	for id, want := range map[int]string{rcWorkflow: "scored", rcArena: "scored", rcGasCounted: "counted",
		rcGasFull: "scored", rcGasSpread: "scored", rcGasLate: "late", rcPending: "pending", rcDuplicate: "duplicate"} {
		if !strings.Contains(ans[id], `"status":"`+want+`"`) {
			t.Fatalf("scenario: submission %d is not %s: %s", id, want, ans[id])
		}
	}
	if strings.Contains(ans[rcGasSpread], `"inclusion_cov","value":"0.000000000000000000"`) {
		t.Fatalf("scenario: submission %d should have a non-zero inclusion COV: %s", rcGasSpread, ans[rcGasSpread])
	}
	ids := []int{rcWorkflow, rcArena, rcGasCounted, rcGasFull, rcGasSpread, rcDuplicate}
	var in []string
	for _, id := range ids {
		in = append(in, ans[id])
	}
	for _, id := range ids {
		in = append(in, receiptOf(t, ans[id]))
	}
	rows, code := runReceipt(t, strings.Join(in, "\n"))
	if code != 0 || len(rows) != 2*len(ids) {
		t.Fatalf("exit %d, %d rows: %+v", code, len(rows), rows)
	}
	// A bare workflow or arena receipt has no votes: its median inputs stay
	// unchecked. No answer carries the gas truth's votes.
	wfMedians := []string{"inputs.output_quality", "inputs.steps_completed", "inputs.cost", "inputs.latency_seconds",
		"inputs.retries", "inputs.declared_retry_budget", "inputs.timeouts", "inputs.hard_failures"}
	arMedians := []string{"inputs.total_tokens", "inputs.tool_calls", "inputs.iterations", "inputs.execution_time",
		"inputs.estimated_cost", "inputs.criteria_passed"}
	gasTruth := []string{"inputs.min_price", "inputs.evm_timestamp"}
	// bare: reported_power (workflow, arena), the last memory slot and the
	// history (gas), values and score, and the commit section (the duplicate
	// flag against the status, the reveal between commit and receipt);
	// whole answers add the medians (the workflow's retry budget among
	// them), track, status, the answer's commit height, reveal height and
	// duplicate flag and, for gas, the submission's own fields (prediction id
	// and price). A duplicate has its score (0), its keeper's precedence and
	// the commit section; whole, also track, status and five commit facts.
	const commit, answer = 2, 2 + 3
	want := []struct {
		track           string
		bare, whole     int
		bareUn, wholeUn []string
		commit, reveal  int64
	}{
		{"workflow", 1 + 7 + 1 + commit, 1 + 8 + 7 + 1 + commit + answer, wfMedians, nil, 2, 6},
		// 18 values, then the review fields outlier_flags and outlier
		{"arena", 1 + 18 + 2 + 1 + commit, 1 + 6 + 18 + 2 + 1 + commit + answer, arMedians, nil, 2, 6},
		// memory.1 and slot.*
		{"gas", 3 + 3 + commit, 3 + 3 + 2 + commit + answer, gasTruth, gasTruth, 2, 4},
		// memory.1, history.0 (time, inclusion_rate, avg_overpayment), slot.*, 14 ScoreGas values, score
		{"gas", 3 + 3 + 3 + 14 + 1 + commit, 3 + 3 + 3 + 14 + 1 + 2 + commit + answer, gasTruth, gasTruth, 3, 5},
		// the same with history.0.time checked against the horizon
		{"gas", 3 + 4 + 3 + 14 + 1 + commit, 3 + 4 + 3 + 14 + 1 + 2 + commit + answer, gasTruth, gasTruth, 4, 6},
		{"workflow", 2 + commit, 2 + commit + answer + 2, nil, nil, 5, 6},
	}
	for i, r := range rows {
		w, whole := want[i%len(ids)], i < len(ids)
		checked, unchecked := w.bare, w.bareUn
		if whole {
			checked, unchecked = w.whole, w.wholeUn
		}
		if !r.Verified || r.Track != w.track || r.Line != i+1 || len(r.Mismatches) != 0 || !slices.Equal(r.Unchecked, unchecked) {
			t.Errorf("row %d: %+v, want verified %s", i, r, w.track)
		}
		if r.Checked != checked {
			t.Errorf("row %d (%s, whole %v): checked %d, want %d", i, w.track, whole, r.Checked, checked)
		}
		id := ids[i%len(ids)]
		wantID := whole || w.track == "gas" // a bare workflow or arena receipt does not name its submission
		if wantID != (r.Submission != nil) || (wantID && *r.Submission != uint64(id)) {
			t.Errorf("row %d: submission %v, want %d (null for a bare %s receipt: %v)", i, r.Submission, id, w.track, !wantID)
		}
		dup := id == rcDuplicate
		if r.CommitHeight != w.commit || r.RevealHeight != w.reveal || r.Duplicate != dup ||
			dup != (r.DuplicateOfUID != nil) || dup != (r.DuplicateOfCommitHeight != nil) {
			t.Errorf("row %d: commit %d reveal %d duplicate %v (of %v at %v), want %d, %d, %v",
				i, r.CommitHeight, r.RevealHeight, r.Duplicate, r.DuplicateOfUID, r.DuplicateOfCommitHeight, w.commit, w.reveal, dup)
		}
		if dup && (*r.DuplicateOfUID != 1 || *r.DuplicateOfCommitHeight != 2) {
			t.Errorf("row %d: duplicate of uid %d at %d, want miner a (uid 1) at 2", i, *r.DuplicateOfUID, *r.DuplicateOfCommitHeight)
		}
	}
}

// TestReceiptDuplicate: the copy's receipt in the app's own answer verifies
// (score 0, the keeper committed at 2 before the copy at 5); forged
// duplicates do not: a score other than 0, a keeper that committed after
// the copy, or in the same block with a higher uid, and an answer that
// disagrees with the receipt's verdict.
func TestReceiptDuplicate(t *testing.T) {
	ans := receiptScenario(t)
	dup := ans[rcDuplicate]
	cases := []struct {
		name string
		in   string
		want []receipt.Mismatch
	}{
		{"the app's", dup, nil},
		{"score not 0", rcEdit(t, dup, "score", "", "0.8525"),
			[]receipt.Mismatch{{Name: "score", Receipt: "0.8525", Recomputed: "0.000000000000000000"}}},
		{"keeper committed later", rcEdit(t, dup, "commit", "duplicate_of_commit_height", "6"),
			[]receipt.Mismatch{{Name: "commit.duplicate_of_commit_height", Receipt: "6", Recomputed: "<= 5"},
				{Name: "submission.duplicate_of_height", Receipt: "6", Recomputed: "2"}}},
		{"keeper in the same block, higher uid", rcEdit(t, rcEdit(t, dup, "commit", "duplicate_of_commit_height", "5"), "commit", "duplicate_of_uid", "3"),
			[]receipt.Mismatch{{Name: "commit.duplicate_of_uid", Receipt: "3", Recomputed: "< 2"},
				{Name: "submission.duplicate_of_uid", Receipt: "3", Recomputed: "1"},
				{Name: "submission.duplicate_of_height", Receipt: "5", Recomputed: "2"}}},
		{"not the answer's verdict", strings.Replace(dup, `"duplicate":true`, `"duplicate":false`, 1),
			[]receipt.Mismatch{{Name: "submission.duplicate", Receipt: "true", Recomputed: "false"}}},
		{"revealed in its commit's block", rcEdit(t, dup, "commit", "reveal_height", "5"),
			[]receipt.Mismatch{{Name: "commit.reveal_height", Receipt: "5", Recomputed: "in [6, 6]"},
				{Name: "submission.reveal_height", Receipt: "5", Recomputed: "6"}}},
	}
	for _, c := range cases {
		rows, code := runReceipt(t, c.in)
		if len(rows) != 1 || rows[0].Error != "" || rows[0].Verified != (c.want == nil) || (code == 0) != (c.want == nil) ||
			(c.want != nil && !slices.Equal(rows[0].Mismatches, c.want)) {
			t.Errorf("%s: exit %d rows %+v, want mismatches %+v", c.name, code, rows, c.want)
		}
	}
	// a bare copy whose keeper committed in the same block: the uid order
	// needs the answer's uid
	rows, _ := runReceipt(t, receiptOf(t, rcEdit(t, dup, "commit", "duplicate_of_commit_height", "5")))
	if len(rows) != 1 || !rows[0].Verified || !slices.Equal(rows[0].Unchecked, []string{"commit.duplicate_of_uid"}) {
		t.Errorf("bare, keeper in the same block: %+v", rows)
	}
}

// rcEdit returns answer with one receipt entry changed: section is "inputs",
// "params", "values" or "commit" (value "" deletes the entry, a new name is
// appended), or "score".
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

func rcNames(ms []receipt.Mismatch) []string {
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
	// workflow: success 0.95 (the median of 0.9, 0.95, 0.99 at power 10 each),
	// cost 1 − 0.5/2 = 0.75, latency 1 − 20/100 = 0.8,
	// reliability 1 − (1 unplanned × 0.1 + 1 timeout × 0.2) = 0.7;
	// score .5×.95 + .25×.75 + .15×.8 + .1×.7 = 0.8525.
	// arena: tokens 8000 (the median of 7000, 8000, 9000) on the default
	// baseline 1000..50000: 42000×100/49000; debugging weights .25/.35/.15/.25.
	// gas (submission 4): prediction 9 under min 10, memories {12, 10.5} then
	// {10.5, 9}: history (…023, 1, 0.125), (…029, 0.5, 0.025).
	cases := []struct {
		name                 string
		id                   int
		edits                [][3]string // section, field, new value
		names                []string
		first, firstRecomput string // receipt and recomputed of the first mismatch
	}{
		{"workflow input", rcWorkflow, [][3]string{{"inputs", "output_quality", "0.96"}},
			[]string{"inputs.output_quality", "s_success", "score"}, "0.96", "0.950000000000000000"},
		// val0 (0.9) at 15 and val1 (0.95) at 5: 15 of 30 reaches half at 0.9.
		{"workflow vote power", rcWorkflow, [][3]string{{"params", "power.val0", "15"}, {"params", "power.val1", "5"}},
			[]string{"inputs.output_quality"}, "0.950000000000000000", "0.900000000000000000"},
		{"workflow power sum", rcWorkflow, [][3]string{{"params", "power.val2", "11"}},
			[]string{"reported_power"}, "30", "31"},
		{"workflow param", rcWorkflow, [][3]string{{"params", "gate", "0.95"}}, []string{"gated", "s_cost", "s_latency", "score"},
			"false", "true"},
		{"workflow value", rcWorkflow, [][3]string{{"values", "s_reliability", "0.8"}}, []string{"s_reliability"},
			"0.8", "0.700000000000000000"},
		{"workflow score", rcWorkflow, [][3]string{{"score", "", "0.86"}}, []string{"score"}, "0.86", "0.852500000000000000"},
		// val0 (7000) at 1, val2 (9000) at 19: 11 of 30 at 8000 is under half.
		{"arena vote power", rcArena, [][3]string{{"params", "power.val0", "1"}, {"params", "power.val2", "19"}},
			[]string{"inputs.total_tokens"}, "8000", "9000"},
		{"arena multiplier", rcArena, [][3]string{{"params", "difficulty_multiplier", "1"}},
			[]string{"multiplier", "adjusted", "overall", "score"}, "1.100000000000000000", "1.000000000000000000"},
		{"arena weights", rcArena, [][3]string{{"params", "weights.efficiency", "0.2"}, {"params", "weights.cost", "0.2"}},
			[]string{"weight_efficiency", "weight_cost", "unadjusted", "adjusted", "overall", "score"},
			"0.250000000000000000", "0.200000000000000000"},
		{"arena param", rcArena, [][3]string{{"params", "baseline.max_tokens", "57000"}},
			[]string{"token_score", "efficiency_exact", "efficiency", "unadjusted", "adjusted", "overall", "score"},
			"85.714285714285714286", "87.500000000000000000"},
		{"arena value", rcArena, [][3]string{{"values", "multiplier", "1.2"}}, []string{"multiplier"}, "1.2", "1.100000000000000000"},
		{"gas input", rcGasSpread, [][3]string{{"inputs", "min_price", "9"}}, []string{"inputs.memory.1.included", "slot.included"},
			"false", "true"},
		{"gas param", rcGasSpread, [][3]string{{"params", "beta", "3"}}, []string{"u1", "u2", "u3", "total_score", "score"}, "", ""},
		{"gas value", rcGasSpread, [][3]string{{"values", "u0", "0.7"}}, []string{"u0"}, "0.7", "0.750000000000000000"},
		{"gas mean", rcGasSpread, [][3]string{{"values", "inclusion_mean", "0.7"}}, []string{"inclusion_mean"},
			"0.7", "0.750000000000000000"},
		// inclusion [0.5, 0.5]: mean 0.5, std 0, COV 0, u1 = 1.
		{"gas history inclusion", rcGasSpread, [][3]string{{"inputs", "history.0.inclusion_rate", "0.5"}},
			[]string{"inclusion_mean", "inclusion_std", "inclusion_cov", "u0", "u1", "total_score", "score"},
			"0.750000000000000000", "0.500000000000000000"},
		{"gas history overpayment", rcGasSpread, [][3]string{{"inputs", "history.0.avg_overpayment", "0.025"}},
			[]string{"overpayment_mean", "overpayment_std", "overpayment_cov", "u2", "u3", "total_score", "score"},
			"0.075000000000000000", "0.025000000000000000"},
		{"gas history time", rcGasSpread, [][3]string{{"inputs", "history.0.time", "1699999968"}},
			[]string{"inputs.history.0.time"}, "1699999968", "in [1699999969, 1700000029]"},
		{"gas newest point", rcGasSpread, [][3]string{{"inputs", "history.1.time", "1700000028"}},
			[]string{"inputs.history.1.time"}, "1700000028", "1700000029"},
		// the newest point is the memory's performance: {false, false} includes 0.
		{"gas memory included", rcGasSpread, [][3]string{{"inputs", "memory.0.included", "false"}},
			[]string{"inputs.history.1.inclusion_rate"}, "0.500000000000000000", "0.000000000000000000"},
		// a slot recorded as not fresh must, under "miss", also be the missed slot
		{"gas memory fresh", rcGasSpread, [][3]string{{"inputs", "memory.0.fresh", "false"}},
			[]string{"inputs.memory.0.included", "inputs.memory.0.overpayment", "liveliness", "u4", "total_score", "score"},
			"true", "false"},
		{"gas answer price", rcGasSpread, [][3]string{{"values", "slot.fresh", "false"}}, []string{"slot.fresh"}, "false", "true"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := ans[tc.id]
			for _, e := range tc.edits {
				in = rcEdit(t, in, e[0], e[1], e[2])
			}
			rows, code := runReceipt(t, in)
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
// the mismatch shows the receipt's value and the answer's (for a median
// input, the median of the answer's votes).
func TestReceiptAnswerMismatch(t *testing.T) {
	ans := receiptScenario(t)
	// the first vote's retry budget 1 → 3: the votes 3, 1, 3 have median 3
	in := strings.Replace(ans[rcWorkflow], `"declared_retry_budget":1`, `"declared_retry_budget":3`, 1) + "\n" +
		strings.Replace(ans[rcGasFull], `"price":"10.500000000000000000"`, `"price":"10.6"`, 1) + "\n" +
		strings.Replace(ans[rcArena], `"status":"scored"`, `"status":"failed"`, 1)
	rows, code := runReceipt(t, in)
	if code != 1 || len(rows) != 3 {
		t.Fatalf("exit %d rows %+v", code, rows)
	}
	want := []receipt.Mismatch{
		{Name: "inputs.declared_retry_budget", Receipt: "1", Recomputed: "3"},
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
		rcDrop(t, receiptOf(t, wf), "commit"),
		rcEdit(t, ans[rcDuplicate], "inputs", "total_steps", "4"),
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
		{14, "commit: missing"},
		{15, "a duplicate's receipt lists inputs"},
		{16, ""},
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
	// the note and reported_power (the medians need the answer's votes),
	// and the commit section's duplicate flag and reveal height
	if !rows[0].Verified || rows[0].Checked != 2+2 {
		t.Errorf("the app's failure note: %+v, want verified", rows[0])
	}
	if rows[1].Verified || len(rows[1].Mismatches) != 1 || rows[1].Mismatches[0].Recomputed != "score: "+scoreErr.Error() {
		t.Errorf("another note: %+v, want a note mismatch", rows[1])
	}
	if rows[2].Error == "" {
		t.Errorf("a scored answer whose values were dropped: %+v, want an error", rows[2])
	}
}

func BenchmarkReceiptVerify(b *testing.B) {
	bz, err := os.ReadFile(filepath.Join("testdata", "receipt_answers.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(bz), []byte("\n"))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for n, l := range lines {
			if r, err := offline.VerifyLine(n+1, l, nil); err != nil || !r.Verified {
				b.Fatalf("line %d: %v %+v", n+1, err, r)
			}
		}
	}
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
	// + the recorded params, powers and total_power; arena: 8 constants, 4
	// weights, the multiplier, 3 powers, total_power; gas: 9 params (stale_prediction too).
	// (Each whole answer's commit section adds 2 + 3 checks.)
	if code != 0 || len(rows) != 5 || rows[0].Checked != 24+8+3+1 || rows[1].Checked != 35+8+4+1+3+1 || rows[4].Checked != 34+9 {
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
	other.Arena.Difficulties = slices.Clone(g.Arena.Difficulties)
	for i, d := range other.Arena.Difficulties {
		if d.Name == "intermediate" {
			other.Arena.Difficulties[i].Multiplier = decimal.RequireFromString("1.3")
		}
	}
	rows, code = runReceipt(t, in, "--params", write("other.json", other))
	if code != 1 || len(rows) != 5 {
		t.Fatalf("other params: exit %d rows %+v", code, rows)
	}
	if !rows[0].Verified {
		t.Errorf("workflow params unchanged: %+v", rows[0])
	}
	// the receipt's own tables still recompute its values: only the params differ
	wantArena := []string{"params.weights.efficiency", "params.weights.speed", "params.weights.cost",
		"params.weights.correctness", "params.difficulty_multiplier"}
	if names := rcNames(rows[1].Mismatches); !slices.Equal(names, wantArena) {
		t.Errorf("arena with other debugging weights and intermediate multiplier: %v, want %v", names, wantArena)
	}
	for _, r := range rows[2:] {
		if names := rcNames(r.Mismatches); len(names) != 1 || names[0] != "params.beta" {
			t.Errorf("gas with beta 3.3: %v", names)
		}
	}
	// a receipt that names another difficulty than its multiplier's row
	rows, _ = runReceipt(t, rcEdit(t, ans[rcArena], "inputs", "difficulty", "beginner"), "--params", write("same2.json", g))
	if len(rows) != 1 || !slices.Equal(rcNames(rows[0].Mismatches), []string{"params.difficulty_multiplier"}) ||
		rows[0].Mismatches[0].Recomputed != "1.000000000000000000" {
		t.Errorf("difficulty renamed beginner: %+v", rows)
	}
	powers := g
	powers.Validators = slices.Clone(g.Validators)
	powers.Validators[0].Power = 20
	rows, _ = runReceipt(t, ans[rcWorkflow], "--params", write("powers.json", powers))
	want := []receipt.Mismatch{{Name: "params.power.val0", Receipt: "10", Recomputed: "20"},
		{Name: "total_power", Receipt: "40", Recomputed: "50"}}
	if len(rows) != 1 || !slices.Equal(rows[0].Mismatches, want) {
		t.Errorf("val0 at power 20 on the chain: %+v, want %+v", rows, want)
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
	if code != 0 || len(rows) != 6 {
		t.Fatalf("exit %d rows %+v", code, rows)
	}
	for _, r := range rows {
		if !r.Verified {
			t.Errorf("fixture line %d: %+v", r.Line, r)
		}
	}
}

// TestReceiptPrettyStream: `validatord query submission/N | validatord score receipt` works as
// typed: the query's indented answers, one after another, verify one per "line".
func TestReceiptPrettyStream(t *testing.T) {
	bz, err := os.ReadFile(filepath.Join("testdata", "receipt_answers.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var pretty bytes.Buffer
	for _, line := range strings.Split(strings.TrimSpace(string(bz)), "\n") {
		if err := json.Indent(&pretty, []byte(line), "", "  "); err != nil {
			t.Fatal(err)
		}
		pretty.WriteString("\n")
	}
	rows, code := runReceipt(t, pretty.String())
	if code != 0 || len(rows) != 6 {
		t.Fatalf("exit %d rows %+v", code, rows)
	}
	for i, r := range rows {
		if !r.Verified || r.Line != i+1 {
			t.Errorf("answer %d: %+v", i+1, r)
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

// TestReceiptVoteValues: the median inputs are re-derived from the answer's
// votes, so a changed vote shows as the input it moves.
func TestReceiptVoteValues(t *testing.T) {
	ans := receiptScenario(t)
	// val1's 0.95 becomes 0.97: the median of 0.9, 0.97, 0.99 is 0.97.
	wf := rcVote(t, ans[rcWorkflow], "workflow", 1, "output_quality", "0.970000000000000000")
	// val0's 7000 becomes 8500: the median of 8500, 8000, 9000 is 8500.
	ar := rcVote(t, ans[rcArena], "arena", 0, "total_tokens", json.Number("8500"))
	// hard_failures (0, or left out of the JSON) becomes 3 on two votes: median 3.
	wf2 := rcVote(t, rcVote(t, ans[rcWorkflow], "workflow", 0, "hard_failures", json.Number("3")), "workflow", 2, "hard_failures", json.Number("3"))
	rows, code := runReceipt(t, wf+"\n"+ar+"\n"+wf2)
	if code != 1 || len(rows) != 3 {
		t.Fatalf("exit %d rows %+v", code, rows)
	}
	want := []receipt.Mismatch{
		{Name: "inputs.output_quality", Receipt: "0.950000000000000000", Recomputed: "0.970000000000000000"},
		{Name: "inputs.total_tokens", Receipt: "8000", Recomputed: "8500"},
		{Name: "inputs.hard_failures", Receipt: "0", Recomputed: "3"},
	}
	for i, r := range rows {
		if r.Verified || len(r.Mismatches) != 1 || r.Mismatches[0] != want[i] {
			t.Errorf("row %d: %+v, want the single mismatch %+v", i, r, want[i])
		}
	}
}

// rcVote sets one measured field of the answer's i-th vote.
func rcVote(t *testing.T, answer, track string, i int, field string, value any) string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(answer))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	m["votes"].([]any)[i].(map[string]any)[track].(map[string]any)[field] = value
	bz, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(bz)
}

// TestReceiptRecordedShape: votes and powers must pair up, and the gas
// memory and history rows must be complete, numbered 0..n−1 and consistent
// with the memory size; each violation is an error naming it.
func TestReceiptRecordedShape(t *testing.T) {
	ans := receiptScenario(t)
	wf, ar, gas, counted := ans[rcWorkflow], ans[rcArena], ans[rcGasSpread], ans[rcGasCounted]
	dropVote := func(answer string) string {
		var m map[string]any
		if err := json.Unmarshal([]byte(answer), &m); err != nil {
			t.Fatal(err)
		}
		m["votes"] = m["votes"].([]any)[1:]
		bz, _ := json.Marshal(m)
		return string(bz)
	}
	cases := []struct {
		name, in, err string
	}{
		{"vote without power", rcEdit(t, wf, "params", "power.val0", ""), "params: missing power.val0"},
		{"power without vote", dropVote(wf), `params: unknown "power.val0" (no vote in the answer)`},
		{"power not positive", rcEdit(t, wf, "params", "power.val1", "0"), "params.power.val1: \"0\" is not a positive power"},
		{"no powers", rcEdit(t, rcEdit(t, rcEdit(t, ar, "params", "power.val0", ""), "params", "power.val1", ""), "params", "power.val2", ""),
			"params: no power.<validator> entries"},
		{"twice the same voter", strings.Replace(wf, `"validator":"val1"`, `"validator":"val0"`, 1), `"val0" voted twice`},
		{"memory gap", rcEdit(t, rcEdit(t, rcEdit(t, gas, "inputs", "memory.0.included", ""), "inputs", "memory.0.overpayment", ""),
			"inputs", "memory.0.fresh", ""), "inputs: missing memory.0.included, memory.0.overpayment, memory.0.fresh"},
		{"memory index", rcEdit(t, gas, "inputs", "memory.01.fresh", "true"), `"memory.01.fresh" is not memory.<index>.<field>`},
		{"memory field", rcEdit(t, gas, "inputs", "memory.0.stale", "true"), `unknown "memory.0.stale"`},
		{"memory bool", rcEdit(t, gas, "inputs", "memory.0.fresh", "yes"), "inputs.memory.0.included/fresh"},
		{"history incomplete", rcEdit(t, gas, "inputs", "history.1.avg_overpayment", ""), "inputs: missing history.1.avg_overpayment"},
		{"history rate", rcEdit(t, gas, "inputs", "history.0.inclusion_rate", "1.5"), "history[0].inclusion_rate"},
		{"history without full memory", rcEdit(t, rcEdit(t, rcEdit(t, gas, "inputs", "memory.1.included", ""), "inputs", "memory.1.overpayment", ""),
			"inputs", "memory.1.fresh", ""), "history.* points with 1 memory slots"},
		{"full memory without history", rcEdit(t, counted, "inputs", "memory.1.included", "true"), ""},
		{"no memory", rcEdit(t, rcEdit(t, rcEdit(t, counted, "inputs", "memory.0.included", ""), "inputs", "memory.0.overpayment", ""),
			"inputs", "memory.0.fresh", ""), "inputs: 0 memory.* slots"},
	}
	for _, tc := range cases {
		if tc.name == "full memory without history" {
			// memory.1.* added to a counted receipt whose memory holds 1 slot
			tc.in = rcEdit(t, rcEdit(t, tc.in, "inputs", "memory.1.overpayment", "0"), "inputs", "memory.1.fresh", "true")
			tc.err = "the memory is full (2 slots) but no history.* points are listed"
		}
		rows, code := runReceipt(t, tc.in)
		if code != 1 || len(rows) != 1 || !strings.Contains(rows[0].Error, tc.err) {
			t.Errorf("%s: exit %d rows %+v, want an error containing %q", tc.name, code, rows, tc.err)
		}
	}
}

// TestReceiptArenaTables: a category the chain's table does not have is
// recorded without weights and fails as the app failed; the category "" must
// record the default weights; an empty difficulty must record multiplier 1.
func TestReceiptArenaTables(t *testing.T) {
	ans := receiptScenario(t)
	rec := receiptOf(t, ans[rcArena])
	for _, w := range []string{"efficiency", "speed", "cost", "correctness"} {
		rec = rcEditBare(t, rec, "params", "weights."+w, "")
	}
	_, scoreErr := scoring.ScoreArena(scoring.DefaultArenaParams(), scoring.ArenaSubmission{TotalTokens: 8000, ToolCalls: 6,
		Iterations: 2, ExecutionTime: decimal.New(200, 0), EstimatedCost: decimal.New(4, -2), CriteriaPassed: 4, CriteriaTotal: 5},
		scoring.DefaultArenaBaseline(), "nope", "intermediate")
	if scoreErr == nil {
		t.Fatal("the category nope scored")
	}
	unknown := rcDrop(t, rcEditBare(t, rec, "inputs", "category", "nope"), "values", "score")
	note, _ := json.Marshal("score: " + scoreErr.Error())
	unknown = strings.Replace(unknown, `"status":"scored"`, `"status":"failed","note":`+string(note), 1)
	// the app's JSON leaves out an empty value: {"name": "category"}
	empty := strings.Replace(rec, `{"name":"category","value":"debugging"}`, `{"name":"category"}`, 1)
	noDifficulty := strings.Replace(receiptOf(t, ans[rcArena]), `{"name":"difficulty","value":"intermediate"}`, `{"name":"difficulty"}`, 1)
	if empty == rec || !strings.Contains(unknown, `"note"`) || !strings.Contains(noDifficulty, `{"name":"difficulty"}`) {
		t.Fatal("scenario: the receipt members to edit were not found")
	}
	rows, code := runReceipt(t, unknown+"\n"+empty+"\n"+noDifficulty)
	if code != 1 || len(rows) != 3 {
		t.Fatalf("exit %d rows %+v", code, rows)
	}
	if !rows[0].Verified {
		t.Errorf("unknown category recorded without weights: %+v, want the failure note verified", rows[0])
	}
	if !strings.Contains(rows[1].Error, `missing weights.*`) {
		t.Errorf("category \"\" without weights: %+v", rows[1])
	}
	// without a difficulty ScoreArena multiplies by 1, but the receipt says 1.1
	names := rcNames(rows[2].Mismatches)
	if want := []string{"multiplier", "adjusted", "overall", "params.difficulty_multiplier", "score"}; !slices.Equal(names, want) {
		t.Errorf("empty difficulty with multiplier 1.1: %v, want %v", names, want)
	}
}

// rcDrop removes top-level members of a bare receipt.
func rcDrop(t *testing.T, receipt string, members ...string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(receipt), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range members {
		delete(m, k)
	}
	bz, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(bz)
}

// rcEditBare is rcEdit on a bare receipt.
func rcEditBare(t *testing.T, receipt, section, name, value string) string {
	t.Helper()
	wrapped := rcEdit(t, `{"id":0,"receipt":`+receipt+`}`, section, name, value)
	return receiptOf(t, wrapped)
}
