package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

// takeRows takes the fields named <prefix>.<i>.<sub> out of fs: rows[i][j]
// is the value of subs[j] in row i. The rows must be 0..n−1 (canonical
// decimal indices), each with every sub exactly once.
func takeRows(section, prefix string, fs []receiptField, subs []string) ([]receiptField, [][]string, error) {
	var rest []receiptField
	var rows [][]string
	for _, f := range fs {
		tail, ok := strings.CutPrefix(f.Name, prefix+".")
		if !ok {
			rest = append(rest, f)
			continue
		}
		idx, sub, ok := strings.Cut(tail, ".")
		i, err := strconv.Atoi(idx)
		if !ok || err != nil || i < 0 || strconv.Itoa(i) != idx || i >= len(fs) {
			return nil, nil, fmt.Errorf("%s: %q is not %s.<index>.<field>", section, f.Name, prefix)
		}
		j := -1
		for k, s := range subs {
			if s == sub {
				j = k
			}
		}
		if j < 0 {
			return nil, nil, fmt.Errorf("%s: unknown %q (want %s.<index>.%s)", section, f.Name, prefix, strings.Join(subs, "|"))
		}
		for len(rows) <= i {
			rows = append(rows, make([]string, len(subs)))
		}
		if rows[i][j] != "" {
			return nil, nil, fmt.Errorf("%s: duplicate %s", section, f.Name)
		}
		if f.Value == "" {
			return nil, nil, fmt.Errorf("%s.%s: empty", section, f.Name)
		}
		rows[i][j] = f.Value
	}
	var missing []string
	for i, r := range rows {
		for j, v := range r {
			if v == "" {
				missing = append(missing, prefix+"."+strconv.Itoa(i)+"."+subs[j])
			}
		}
	}
	return rest, rows, nameError(section, nil, nil, missing)
}

var (
	memorySubs  = []string{"included", "overpayment", "fresh"}
	historySubs = []string{"time", "inclusion_rate", "avg_overpayment"}
)

func parseMemory(rows [][]string) ([]scoring.GasSlot, error) {
	mem := make([]scoring.GasSlot, len(rows))
	for i, r := range rows {
		at := "inputs.memory." + strconv.Itoa(i) + "."
		inc, err1 := strconv.ParseBool(r[0])
		fresh, err2 := strconv.ParseBool(r[2])
		if err1 != nil || err2 != nil || (r[0] != "true" && r[0] != "false") || (r[2] != "true" && r[2] != "false") {
			return nil, fmt.Errorf("%sincluded/fresh: %q/%q are not true or false", at, r[0], r[2])
		}
		over, err := scoring.Parse(r[1])
		if err != nil {
			return nil, fmt.Errorf("%soverpayment: %w", at, err)
		}
		mem[i] = scoring.GasSlot{Included: inc, Overpayment: over, Fresh: fresh}
	}
	return mem, nil
}

func parseHistory(rows [][]string) ([]scoring.GasHistoryPoint, error) {
	h := make([]scoring.GasHistoryPoint, len(rows))
	for i, r := range rows {
		at := "inputs.history." + strconv.Itoa(i) + "."
		t, err := strconv.ParseInt(r[0], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%stime: %q is not an integer", at, r[0])
		}
		incl, err := scoring.Parse(r[1])
		if err != nil {
			return nil, fmt.Errorf("%sinclusion_rate: %w", at, err)
		}
		over, err := scoring.Parse(r[2])
		if err != nil {
			return nil, fmt.Errorf("%savg_overpayment: %w", at, err)
		}
		h[i] = scoring.GasHistoryPoint{Time: t, InclusionRate: incl, AvgOverpayment: over}
	}
	return h, nil
}

// gasParamBindings binds the gas params; memory is MemorySize as int64, copied
// back by the caller.
func gasParamBindings(p *scoring.GasParams, memory *int64) []binding {
	return []binding{bInt("memory_size", memory), bInt("horizon_seconds", &p.HorizonSeconds), bDec("beta", &p.Beta),
		bDec("w_inclusion", &p.WInclusion), bDec("w_inclusion_stability", &p.WInclusionStability),
		bDec("w_overpayment", &p.WOverpayment), bDec("w_overpayment_stability", &p.WOverpaymentStability),
		bDec("w_liveliness", &p.WLiveliness)}
}

// gasReceipt is what a gas receipt's inputs and params hold.
type gasReceipt struct {
	estimate, minPrice decimal.Decimal
	timestamp          int64
	params             scoring.GasParams
	memory             []scoring.GasSlot
	history            []scoring.GasHistoryPoint
}

func (v receiptVerifier) verifyGas(c *receiptCheck, doc receiptDoc) error {
	g, err := v.bindGas(c, doc)
	if err != nil {
		return err
	}
	if len(doc.Values) == 0 {
		return fmt.Errorf("values: none listed (status %q, note %q)", doc.Status, doc.Note)
	}
	// The truth's min_price and timestamp are medians of the truth votes,
	// which the submission answer does not carry.
	c.res.Unchecked = append(c.res.Unchecked, "inputs.min_price", "inputs.evm_timestamp")
	// A prediction's receipt: the window it was counted in is fresh.
	slot, err := scoring.GasOutcome(g.estimate, g.minPrice, true)
	if err != nil {
		return fmt.Errorf("inputs: %w", err)
	}
	if len(g.memory) == 0 || len(g.memory) > g.params.MemorySize {
		return fmt.Errorf("inputs: %d memory.* slots, want 1 to memory_size %d", len(g.memory), g.params.MemorySize)
	}
	last := "inputs.memory." + strconv.Itoa(len(g.memory)-1) + "."
	m := g.memory[len(g.memory)-1]
	c.same(last+"included", strconv.FormatBool(m.Included), expBool(slot.Included))
	c.same(last+"overpayment", scoring.Format(m.Overpayment), expDec(slot.Overpayment))
	c.same(last+"fresh", strconv.FormatBool(m.Fresh), expBool(slot.Fresh))
	want := []namedValue{{"slot.included", expBool(slot.Included)}, {"slot.overpayment", expDec(slot.Overpayment)},
		{"slot.fresh", expBool(slot.Fresh)}}
	if len(g.history) == 0 {
		if len(g.memory) == g.params.MemorySize {
			return fmt.Errorf("inputs: the memory is full (%d slots) but no history.* points are listed", len(g.memory))
		}
		if err := compareValues(c, doc.Values, want, nil); err != nil {
			return err
		}
		if doc.Score != "" {
			return fmt.Errorf("score: %q without the history it is scored over", doc.Score)
		}
		return nil
	}
	if len(g.memory) != g.params.MemorySize {
		return fmt.Errorf("inputs: history.* points with %d memory slots; ScoreGas runs on a full memory of %d", len(g.memory), g.params.MemorySize)
	}
	res, err := recomputeGas(c, g)
	if err != nil {
		return err
	}
	want = append(want, gasResultValues(res)...)
	if err := compareValues(c, doc.Values, want, nil); err != nil {
		return err
	}
	if doc.Score == "" {
		return fmt.Errorf("score: missing beside the history")
	}
	c.same("score", doc.Score, expDec(res.Score))
	return nil
}

// bindGas reads the inputs (fixed names, memory.* and history.*) and the params.
func (v receiptVerifier) bindGas(c *receiptCheck, doc receiptDoc) (gasReceipt, error) {
	var g gasReceipt
	rest, memRows, err := takeRows("inputs", "memory", doc.Inputs, memorySubs)
	if err != nil {
		return g, err
	}
	rest, histRows, err := takeRows("inputs", "history", rest, historySubs)
	if err != nil {
		return g, err
	}
	var chainID, block, predID, minPrice, prediction string
	var includedAt int64
	if err := bind("inputs", rest, []binding{
		bStr("evm_chain_id", &chainID), bStr("evm_block", &block), bStr("min_price", &minPrice),
		bInt("evm_timestamp", &g.timestamp), bStr("prediction", &prediction), bInt("included_at", &includedAt),
		bStr("prediction_submission_id", &predID),
	}); err != nil {
		return g, err
	}
	for _, u := range []struct{ name, v string }{{"evm_chain_id", chainID}, {"evm_block", block}, {"prediction_submission_id", predID}} {
		if _, err := strconv.ParseUint(u.v, 10, 64); err != nil {
			return g, fmt.Errorf("inputs.%s: %q is not an unsigned integer", u.name, u.v)
		}
	}
	if c.res.Submission == nil {
		id, _ := strconv.ParseUint(predID, 10, 64)
		c.res.Submission = &id
	} else {
		c.same("inputs.prediction_submission_id", predID, expected{text: strconv.FormatUint(*c.res.Submission, 10)})
	}
	if g.estimate, err = scoring.Parse(prediction); err != nil {
		return g, fmt.Errorf("inputs.prediction: %w", err)
	}
	if g.minPrice, err = scoring.Parse(minPrice); err != nil {
		return g, fmt.Errorf("inputs.min_price: %w", err)
	}
	if g.memory, err = parseMemory(memRows); err != nil {
		return g, err
	}
	if g.history, err = parseHistory(histRows); err != nil {
		return g, err
	}
	var memory int64
	recorded := gasParamBindings(&g.params, &memory)
	if err := bind("params", doc.Params, recorded); err != nil {
		return g, err
	}
	if memory < 1 || memory > 1<<20 {
		return g, fmt.Errorf("params.memory_size: %d out of range", memory)
	}
	g.params.MemorySize = int(memory)
	if err := g.params.Validate(); err != nil {
		return g, fmt.Errorf("params: %w", err)
	}
	chain := v.chain.Gas
	chainMemory := int64(chain.MemorySize)
	v.compareParams(c, recorded, gasParamBindings(&chain, &chainMemory))
	return g, nil
}

// recomputeGas checks the history against the memory and the horizon, then
// scores it as the app does: MemoryPerformance of the memory gives the newest
// point and the liveliness, GasHistoryStats and GasFromStats (ScoreGas's two
// halves) the rest. The recorded history is scored as recorded, so a tampered
// point shows in the statistics that depend on it.
func recomputeGas(c *receiptCheck, g gasReceipt) (scoring.GasResult, error) {
	perf := scoring.MemoryPerformance(g.memory)
	n := len(g.history) - 1
	from := int64(math.MinInt64)
	if g.timestamp >= math.MinInt64+g.params.HorizonSeconds {
		from = g.timestamp - g.params.HorizonSeconds
	}
	for i, h := range g.history[:n] {
		lo := from
		if i > 0 {
			lo = max(lo, g.history[i-1].Time)
		}
		want := expected{text: fmt.Sprintf("in [%d, %d]", lo, g.timestamp)}
		if h.Time >= lo && h.Time <= g.timestamp {
			want = expInt(h.Time)
		}
		c.same("inputs.history."+strconv.Itoa(i)+".time", strconv.FormatInt(h.Time, 10), want)
	}
	at := "inputs.history." + strconv.Itoa(n) + "."
	c.same(at+"time", strconv.FormatInt(g.history[n].Time, 10), expInt(g.timestamp))
	c.same(at+"inclusion_rate", scoring.Format(g.history[n].InclusionRate), expDec(perf.InclusionRate))
	c.same(at+"avg_overpayment", scoring.Format(g.history[n].AvgOverpayment), expDec(perf.AvgOverpayment))
	stats, err := scoring.GasHistoryStats(g.history)
	if err != nil {
		return scoring.GasResult{}, fmt.Errorf("inputs: %w", err)
	}
	res, err := scoring.GasFromStats(g.params, stats, perf.Liveliness)
	if err != nil {
		return scoring.GasResult{}, fmt.Errorf("inputs.memory: %w", err)
	}
	return res, nil
}

// gasResultValues names every ScoreGas intermediate as the app's receipt does.
func gasResultValues(r scoring.GasResult) []namedValue {
	out := []namedValue{{"inclusion_mean", expDec(r.InclusionMean)}, {"inclusion_std", expDec(r.InclusionStd)},
		{"inclusion_cov", expDec(r.InclusionCOV)}, {"overpayment_mean", expDec(r.OverpaymentMean)},
		{"overpayment_std", expDec(r.OverpaymentStd)}, {"overpayment_cov", expDec(r.OverpaymentCOV)},
		{"liveliness", expDec(r.Liveliness)}}
	for i, u := range r.Utilities {
		out = append(out, namedValue{"u" + strconv.Itoa(i), expDec(u)})
	}
	return append(out, namedValue{"points", expInt(int64(r.Points))}, namedValue{"total_score", expDec(r.Score)})
}
