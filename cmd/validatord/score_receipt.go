package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/x/scoring"
)

const receiptUsage = `score receipt [--params FILE] < answers.jsonl

Verifies score receipts: each input line is a whole ` + "`query submission/<id>`" + ` answer
or just its "receipt" object; a stream of pretty-printed answers (as
` + "`validatord query`" + ` prints them) is read as one answer per "line". The formula's
inputs and params are rebuilt from the receipt's "inputs" and "params" by name (an unknown or missing name is an error),
the x/scoring function of the receipt's track is run, and every entry of
"values" and the "score" are compared with the recomputation as decimals
(exactly, 18 places).

The power.<validator> params must add up to reported_power; with a whole
answer every median input (workflow, arena) is re-derived with
quorum.WeightedMedian from the answer's votes and those powers
("inputs.<name>" mismatches). A bare receipt lists its median inputs under
"unchecked".

  workflow  ScoreWorkflow on the inputs and params.
  arena     ScoreArena with the baseline.* params as the baseline and the
            recorded weights.* and difficulty_multiplier as the category and
            difficulty tables.
  gas       GasOutcome(prediction, min_price, fresh) for slot.* and the last
            memory.* slot; with history.* points (a full memory), the last
            point must be MemoryPerformance of the memory at evm_timestamp,
            earlier points lie within the horizon, and every ScoreGas value is
            recomputed by GasHistoryStats and GasFromStats over the recorded
            history. min_price and evm_timestamp (medians of truth votes no
            answer carries) are listed under "unchecked".

A whole answer is also checked against its receipt: track, status, and the
workflow declared_retry_budget or the gas prediction. With --params FILE (the
output of ` + "`validatord query params`" + ` or a genesis.json), every recorded param
(workflow, gas, the arena constants, weights and multiplier, each
validator's power and total_power) must equal the chain's ("params.<name>"
mismatches). A failed receipt whose note is "score: <error>"
verifies when the recomputation fails with the same error.

Output: one line per input line,
  {"line": N, "submission": id, "track": "...", "verified": true|false,
   "checked": K, "mismatches": [{"name": "...", "receipt": "...", "recomputed": "..."}],
   "unchecked": ["..."]}
"submission" is null for a bare workflow or arena receipt. A malformed line gets
{"line": N, "error": "..."}. The exit status is 1 if any line is malformed or
does not verify.`

func init() {
	registerScoreMode("receipt", "verify score receipts of `query submission` answers by recomputing them", runScoreReceipt)
}

// receiptMismatch is one value the receipt records differently from the recomputation.
type receiptMismatch struct {
	Name       string `json:"name"`
	Receipt    string `json:"receipt"`
	Recomputed string `json:"recomputed"`
}

// receiptResult is the output for one verified (or refuted) receipt.
type receiptResult struct {
	Line       int               `json:"line"`
	Submission *uint64           `json:"submission"`
	Track      string            `json:"track"`
	Verified   bool              `json:"verified"`
	Checked    int               `json:"checked"`
	Mismatches []receiptMismatch `json:"mismatches"`
	Unchecked  []string          `json:"unchecked,omitempty"`
}

// errReceiptMismatch makes scoreLines count a line that did not verify as failed
// after its result line has been written.
var errReceiptMismatch = errors.New("receipt did not verify")

func runScoreReceipt(_ context.Context, env Env, args []string) error {
	fs := scoreFlags("receipt")
	paramsFile := fs.String("params", "", "app_state to check the recorded params and powers against (`query params` output or genesis.json)")
	if done, err := parseScoreFlags(env, fs, receiptUsage, args); done || err != nil {
		return err
	}
	v := receiptVerifier{chain: genesis.DefaultGenesis()}
	if *paramsFile != "" {
		st, err := loadReceiptParams(*paramsFile)
		if err != nil {
			return err
		}
		v.chain, v.strict = st, true
	}
	in, err := compactJSONStream(env.Stdin)
	if err != nil {
		return err
	}
	failed := 0
	err = scoreEvents(Env{Stdin: in, Stdout: env.Stdout, Stderr: env.Stderr}, func(n int, line []byte) ([]any, error) {
		res, err := v.verifyLine(n, line)
		if err != nil {
			return nil, err
		}
		if !res.Verified {
			failed++
		}
		return []any{res}, nil
	})
	if err == nil && failed > 0 {
		return fmt.Errorf("%d receipt(s) did not verify: %w", failed, errReceiptMismatch)
	}
	if err != nil && failed > 0 {
		return fmt.Errorf("%w; %d receipt(s) did not verify", err, failed)
	}
	return err
}

// loadReceiptParams reads an app_state: the "app_state" member of the file's
// object when it has one (query params, genesis.json), else the whole file.
func loadReceiptParams(path string) (genesis.AppState, error) {
	bz, err := os.ReadFile(path)
	if err != nil {
		return genesis.AppState{}, fmt.Errorf("--params: %w", err)
	}
	var wrap struct {
		AppState json.RawMessage `json:"app_state"`
	}
	if err := json.Unmarshal(bz, &wrap); err != nil {
		return genesis.AppState{}, fmt.Errorf("--params %s: %v", path, err)
	}
	if len(wrap.AppState) > 0 {
		bz = wrap.AppState
	}
	st, err := genesis.Decode(bz)
	if err != nil {
		return genesis.AppState{}, fmt.Errorf("--params %s: %w", path, err)
	}
	return st, nil
}

// receiptField is one {name, value} of a receipt; a missing value is "".
type receiptField = wire.FieldView

// receiptDoc is a receipt as the submission query answers it (wire owns its shape).
type receiptDoc = wire.ReceiptView

// receiptVerifier holds the chain parameters that --params cross-checks the
// recorded ones against (the default genesis without it).
type receiptVerifier struct {
	chain  genesis.AppState
	strict bool // compare recorded params with chain (--params given)
}

// receiptCheck accumulates the comparisons of one line.
type receiptCheck struct {
	res    *receiptResult
	answer jsonObject // the whole answer, nil for a bare receipt
}

func (c *receiptCheck) mismatch(name, receipt, recomputed string) {
	c.res.Mismatches = append(c.res.Mismatches, receiptMismatch{Name: name, Receipt: receipt, Recomputed: recomputed})
}

// same compares a recorded value with a recomputed one: decimals as decimals
// (a recorded value that does not parse is a mismatch), the rest as text.
func (c *receiptCheck) same(name, receipt string, want expected) {
	c.res.Checked++
	ok := receipt == want.text
	if want.dec {
		d, err := scoring.Parse(receipt)
		ok = err == nil && d.Equal(want.value)
	}
	if !ok {
		c.mismatch(name, receipt, want.text)
	}
}

// expected is one recomputed value: a decimal (compared numerically) or a text
// (integers and booleans, compared exactly).
type expected struct {
	text  string
	dec   bool
	value decimal.Decimal
}

func expDec(d decimal.Decimal) expected {
	return expected{text: scoring.Format(d), dec: true, value: d}
}
func expInt(n int64) expected { return expected{text: strconv.FormatInt(n, 10)} }
func expBool(b bool) expected { return expected{text: strconv.FormatBool(b)} }

// namedValue is a recomputed value under its receipt name.
type namedValue struct {
	name string
	want expected
}

func (v receiptVerifier) verifyLine(n int, line []byte) (*receiptResult, error) {
	obj, err := decodeObject(line)
	if err != nil {
		return nil, err
	}
	res := &receiptResult{Line: n, Mismatches: []receiptMismatch{}}
	c := &receiptCheck{res: res}
	raw := json.RawMessage(line)
	var answer jsonObject
	if r, ok := obj["receipt"]; ok {
		answer, raw = obj, r
		id, err := answerID(obj)
		if err != nil {
			return nil, err
		}
		res.Submission = &id
		if bytes.Equal(bytes.TrimSpace(r), []byte("null")) {
			status, _ := obj.str("status")
			return nil, fmt.Errorf("submission %d has no receipt (status %q)", id, status)
		}
	}
	doc, err := decodeReceipt(raw)
	if err != nil {
		return nil, err
	}
	c.answer = answer
	res.Track = doc.Track
	if len(doc.Inputs) == 0 {
		return nil, fmt.Errorf("receipt has no inputs to recompute (status %q, note %q)", doc.Status, doc.Note)
	}
	switch doc.Track {
	case genesis.TrackWorkflow:
		err = v.verifyWorkflow(c, doc)
	case genesis.TrackArena:
		err = v.verifyArena(c, doc)
	case genesis.TrackGas:
		err = v.verifyGas(c, doc)
	default:
		err = fmt.Errorf("track: %q is not workflow, arena or gas", doc.Track)
	}
	if err != nil {
		return nil, err
	}
	if answer != nil {
		if err := checkAnswer(c, answer, doc); err != nil {
			return nil, err
		}
	}
	res.Verified = len(res.Mismatches) == 0
	return res, nil
}

// answerID reads the "id" of a submission answer.
func answerID(obj jsonObject) (uint64, error) {
	raw, ok := obj["id"]
	if !ok {
		return 0, fmt.Errorf("id: missing (a line with a receipt member must be a whole submission answer)")
	}
	text, err := numberText(raw)
	if err != nil {
		return 0, fmt.Errorf("id: %v", err)
	}
	id, err := strconv.ParseUint(text, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("id: %q is not a submission id", text)
	}
	return id, nil
}

// decodeReceipt reads a receipt object strictly: an unknown member is an error.
func decodeReceipt(raw []byte) (receiptDoc, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var doc receiptDoc
	if err := dec.Decode(&doc); err != nil {
		return receiptDoc{}, fmt.Errorf("receipt: %v", err)
	}
	if dec.More() {
		return receiptDoc{}, fmt.Errorf("receipt: trailing data after the JSON object")
	}
	return doc, nil
}

// checkAnswer compares a whole answer with its receipt: the track, the status
// and what the submission itself carries into the inputs. A mismatch shows
// the receipt's value and the answer's (as "recomputed").
func checkAnswer(c *receiptCheck, answer jsonObject, doc receiptDoc) error {
	track, err := answer.str("track")
	if err != nil {
		return err
	}
	c.same("submission.track", doc.Track, expected{text: track})
	status, err := answer.str("status")
	if err != nil {
		return err
	}
	c.same("submission.status", doc.Status, expected{text: status})
	in := fieldMap(doc.Inputs)
	switch doc.Track {
	case genesis.TrackWorkflow:
		b, err := answer.int64("declared_retry_budget")
		if err != nil {
			return err
		}
		c.same("submission.declared_retry_budget", in["declared_retry_budget"], expInt(b))
	case genesis.TrackGas:
		g, err := answer.object("gas")
		if err != nil {
			return err
		}
		price, err := g.decimal("price")
		if err != nil {
			return fmt.Errorf("gas.%w", err)
		}
		c.same("submission.gas.price", in["prediction"], expDec(price))
	}
	return nil
}

func fieldMap(fs []receiptField) map[string]string {
	m := make(map[string]string, len(fs))
	for _, f := range fs {
		m[f.Name] = f.Value
	}
	return m
}

// binding ties a receipt name to the field it fills: exactly one of dec, i64
// or str is set.
type binding struct {
	name string
	dec  *decimal.Decimal
	i64  *int64
	str  *string
}

func bDec(name string, d *decimal.Decimal) binding { return binding{name: name, dec: d} }
func bInt(name string, n *int64) binding           { return binding{name: name, i64: n} }
func bStr(name string, s *string) binding          { return binding{name: name, str: s} }

// text formats the bound field as the app records it.
func (b binding) text() string {
	switch {
	case b.dec != nil:
		return scoring.Format(*b.dec)
	case b.i64 != nil:
		return strconv.FormatInt(*b.i64, 10)
	default:
		return *b.str
	}
}

// bind fills every binding from the section's fields by name. Duplicate,
// unknown and missing names are one error naming them all.
func bind(section string, fs []receiptField, bs []binding) error {
	given := make(map[string]string, len(fs))
	var dups, unknown, missing []string
	known := make(map[string]bool, len(bs))
	for _, b := range bs {
		known[b.name] = true
	}
	for _, f := range fs {
		if _, dup := given[f.Name]; dup {
			dups = append(dups, f.Name)
		}
		given[f.Name] = f.Value
		if !known[f.Name] {
			unknown = append(unknown, strconv.Quote(f.Name))
		}
	}
	for _, b := range bs {
		if _, ok := given[b.name]; !ok {
			missing = append(missing, b.name)
		}
	}
	if err := nameError(section, dups, unknown, missing); err != nil {
		return err
	}
	for _, b := range bs {
		v := given[b.name]
		switch {
		case b.dec != nil:
			d, err := scoring.Parse(v)
			if err != nil {
				return fmt.Errorf("%s.%s: %w", section, b.name, err)
			}
			*b.dec = d
		case b.i64 != nil:
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return fmt.Errorf("%s.%s: %q is not an integer", section, b.name, v)
			}
			*b.i64 = n
		default:
			*b.str = v
		}
	}
	return nil
}

func nameError(section string, dups, unknown, missing []string) error {
	var parts []string
	for _, p := range []struct {
		what  string
		names []string
	}{{"duplicate", dups}, {"unknown", unknown}, {"missing", missing}} {
		if len(p.names) > 0 {
			parts = append(parts, p.what+" "+strings.Join(p.names, ", "))
		}
	}
	if len(parts) == 0 {
		return nil
	}
	return fmt.Errorf("%s: %s", section, strings.Join(parts, "; "))
}

// compareParams checks each recorded param against the chain's value (--params only).
func (v receiptVerifier) compareParams(c *receiptCheck, recorded, chain []binding) {
	if !v.strict {
		return
	}
	for i, b := range recorded {
		c.same("params."+b.name, b.text(), expected{text: chain[i].text()})
	}
}

// compareValues compares the receipt's values with the recomputed ones.
// Every recorded name must be recomputed (or be one of the unchecked ones),
// and every recomputed name must be recorded.
func compareValues(c *receiptCheck, fs []receiptField, want []namedValue, unchecked []string) error {
	byName := make(map[string]expected, len(want))
	for _, w := range want {
		byName[w.name] = w.want
	}
	skip := make(map[string]bool, len(unchecked))
	for _, u := range unchecked {
		skip[u] = true
	}
	seen := make(map[string]bool, len(fs))
	var dups, unknown, missing []string
	for _, f := range fs {
		if seen[f.Name] {
			dups = append(dups, f.Name)
		}
		seen[f.Name] = true
		if _, ok := byName[f.Name]; !ok && !skip[f.Name] {
			unknown = append(unknown, strconv.Quote(f.Name))
		}
	}
	for _, w := range want {
		if !seen[w.name] {
			missing = append(missing, w.name)
		}
	}
	if err := nameError("values", dups, unknown, missing); err != nil {
		return err
	}
	for _, f := range fs {
		if w, ok := byName[f.Name]; ok {
			c.same(f.Name, f.Value, w)
		} else {
			c.res.Unchecked = append(c.res.Unchecked, f.Name)
		}
	}
	return nil
}

// compareScore checks the score: present when scored, absent otherwise.
func compareScore(c *receiptCheck, doc receiptDoc, want expected) error {
	if doc.Score == "" {
		if doc.Status == "scored" {
			return fmt.Errorf("score: missing from a scored receipt")
		}
		return nil
	}
	c.same("score", doc.Score, want)
	return nil
}

// formulaFailed handles a recomputation that failed: the receipt must be the
// app's record of that same failure (no values, note "score: <error>").
func formulaFailed(c *receiptCheck, doc receiptDoc, err error) error {
	want := "score: " + err.Error()
	if len(doc.Values) > 0 || doc.Score != "" {
		return fmt.Errorf("recomputation failed (%v) but the receipt lists values", err)
	}
	c.same("note", doc.Note, expected{text: want})
	return nil
}

// noValues is a receipt with inputs but no values: only a formula failure,
// which the recomputation must reproduce.
func noValues(c *receiptCheck, doc receiptDoc) error {
	if strings.HasPrefix(doc.Note, "score: ") {
		c.same("note", doc.Note, expected{text: ""})
		return nil
	}
	return fmt.Errorf("values: none listed (status %q, note %q)", doc.Status, doc.Note)
}

func workflowParamBindings(p *scoring.WorkflowParams) []binding {
	return []binding{bDec("w_success", &p.WSuccess), bDec("w_cost", &p.WCost), bDec("w_latency", &p.WLatency),
		bDec("w_reliability", &p.WReliability), bDec("gate", &p.Gate), bDec("retry_penalty", &p.RetryPenalty),
		bDec("timeout_penalty", &p.TimeoutPenalty), bDec("failure_penalty", &p.FailurePenalty)}
}

func (v receiptVerifier) verifyWorkflow(c *receiptCheck, doc receiptDoc) error {
	var in scoring.WorkflowInput
	var p scoring.WorkflowParams
	if err := bind("inputs", doc.Inputs, []binding{
		bDec("output_quality", &in.OutputQuality), bInt("steps_completed", &in.StepsCompleted),
		bInt("total_steps", &in.TotalSteps), bDec("cost", &in.Cost), bDec("max_budget", &in.MaxBudget),
		bDec("latency_seconds", &in.LatencySeconds), bDec("max_latency_seconds", &in.MaxLatencySeconds),
		bInt("retries", &in.Retries), bInt("declared_retry_budget", &in.DeclaredRetryBudget),
		bInt("timeouts", &in.Timeouts), bInt("hard_failures", &in.HardFailures),
	}); err != nil {
		return err
	}
	params, powers, err := takePowers(doc.Params)
	if err != nil {
		return err
	}
	recorded := workflowParamBindings(&p)
	if err := bind("params", params, recorded); err != nil {
		return err
	}
	if err := p.Validate(); err != nil {
		return fmt.Errorf("params: %w", err)
	}
	chain := v.chain.Workflow
	v.compareParams(c, recorded, workflowParamBindings(&chain))
	if err := v.checkPowers(c, doc, powers); err != nil {
		return err
	}
	if err := checkMedians(c, doc.Track, workflowMedians, doc.Inputs, powers); err != nil {
		return err
	}
	r, err := scoring.ScoreWorkflow(p, in)
	if err != nil {
		return formulaFailed(c, doc, err)
	}
	if len(doc.Values) == 0 {
		return noValues(c, doc)
	}
	if err := compareValues(c, doc.Values, []namedValue{
		{"completion_ratio", expDec(r.CompletionRatio)}, {"s_success", expDec(r.Success)},
		{"gated", expBool(r.Gated)}, {"s_cost", expDec(r.Cost)}, {"s_latency", expDec(r.Latency)},
		{"unplanned_retries", expInt(r.UnplannedRetries)}, {"s_reliability", expDec(r.Reliability)},
	}, nil); err != nil {
		return err
	}
	return compareScore(c, doc, expDec(r.Score))
}

func arenaConstBindings(p *scoring.ArenaParams) []binding {
	return []binding{bDec("token_weight", &p.TokenWeight), bDec("tool_call_weight", &p.ToolCallWeight),
		bDec("iteration_weight", &p.IterationWeight), bDec("speed_exponent", &p.SpeedExponent),
		bDec("missing_score", &p.MissingScore), bDec("iteration_step", &p.IterationStep),
		bDec("iteration_floor", &p.IterationFloor), bDec("iteration_over_step", &p.IterationOverStep)}
}

func arenaBaselineBindings(b *scoring.ArenaBaseline) []binding {
	return []binding{bInt("baseline.submission_count", &b.SubmissionCount),
		bDec("baseline.min_tokens", &b.MinTokens), bDec("baseline.q25_tokens", &b.Q25Tokens),
		bDec("baseline.median_tokens", &b.MedianTokens), bDec("baseline.q75_tokens", &b.Q75Tokens),
		bDec("baseline.max_tokens", &b.MaxTokens), bDec("baseline.min_tool_calls", &b.MinToolCalls),
		bDec("baseline.median_tool_calls", &b.MedianToolCalls), bDec("baseline.max_tool_calls", &b.MaxToolCalls),
		bDec("baseline.median_iterations", &b.MedianIterations),
		bDec("baseline.min_execution_time", &b.MinExecutionTime),
		bDec("baseline.median_execution_time", &b.MedianExecutionTime),
		bDec("baseline.max_execution_time", &b.MaxExecutionTime), bDec("baseline.min_cost", &b.MinCost),
		bDec("baseline.median_cost", &b.MedianCost), bDec("baseline.max_cost", &b.MaxCost)}
}

func (v receiptVerifier) verifyArena(c *receiptCheck, doc receiptDoc) error {
	var s scoring.ArenaSubmission
	var category, difficulty string
	if err := bind("inputs", doc.Inputs, []binding{
		bInt("total_tokens", &s.TotalTokens), bInt("tool_calls", &s.ToolCalls), bInt("iterations", &s.Iterations),
		bDec("execution_time", &s.ExecutionTime), bDec("estimated_cost", &s.EstimatedCost),
		bInt("criteria_passed", &s.CriteriaPassed), bInt("criteria_total", &s.CriteriaTotal),
		bStr("category", &category), bStr("difficulty", &difficulty),
	}); err != nil {
		return err
	}
	params, powers, err := takePowers(doc.Params)
	if err != nil {
		return err
	}
	p, t, err := v.bindArenaParams(c, params, category, difficulty)
	if err != nil {
		return err
	}
	if err := v.checkPowers(c, doc, powers); err != nil {
		return err
	}
	if err := checkMedians(c, doc.Track, arenaMedians, doc.Inputs, powers); err != nil {
		return err
	}
	r, err := scoring.ScoreArena(p, s, t.baseline, category, difficulty)
	if err != nil {
		return formulaFailed(c, doc, err)
	}
	if len(doc.Values) == 0 {
		return noValues(c, doc)
	}
	if err := compareValues(c, doc.Values, []namedValue{
		{"token_score", expDec(r.TokenScore)}, {"tool_call_score", expDec(r.ToolCallScore)},
		{"iteration_score", expDec(r.IterationScore)}, {"efficiency_exact", expDec(r.EfficiencyExact)},
		{"speed_exact", expDec(r.SpeedExact)}, {"cost_exact", expDec(r.CostExact)},
		{"efficiency", expDec(r.Efficiency)}, {"speed", expDec(r.Speed)}, {"cost", expDec(r.Cost)},
		{"correctness", expDec(r.Correctness)}, {"weight_efficiency", expDec(r.Weights.Efficiency)},
		{"weight_speed", expDec(r.Weights.Speed)}, {"weight_cost", expDec(r.Weights.Cost)},
		{"weight_correctness", expDec(r.Weights.Correctness)}, {"unadjusted", expDec(r.Unadjusted)},
		{"multiplier", expDec(r.Multiplier)}, {"adjusted", expDec(r.Adjusted)}, {"overall", expDec(r.Overall)},
	}, nil); err != nil {
		return err
	}
	if difficulty == "" {
		// no table row was built for it: the recorded multiplier must be ScoreArena's 1
		c.same("params.difficulty_multiplier", t.multiplierText, expDec(r.Multiplier))
	}
	return compareScore(c, doc, expDec(r.Overall))
}

// compactJSONStream lets `validatord query submission/N | validatord score receipt` work as it
// reads: when the whole input is a stream of JSON values (pretty-printed answers, one after
// another), each value is re-emitted compacted on its own line, so "line" N in the output is the
// Nth answer. Input that is not such a stream (JSON lines with a malformed line among them) is
// passed through unchanged, so each bad line is still reported by its own number.
func compactJSONStream(r io.Reader) (io.Reader, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	var out bytes.Buffer
	for {
		var v json.RawMessage
		if err := dec.Decode(&v); err == io.EOF {
			return &out, nil
		} else if err != nil {
			return bytes.NewReader(raw), nil
		}
		if err := json.Compact(&out, v); err != nil {
			return bytes.NewReader(raw), nil
		}
		out.WriteByte('\n')
	}
}
