package receipt

import (
	"fmt"
	"math"
	"strconv"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

// gasRecorded is what a gas receipt's inputs and params hold.
type gasRecorded struct {
	estimate, minPrice decimal.Decimal
	timestamp          int64
	params             scoring.GasParams
	memory             []scoring.GasSlot
	history            []scoring.GasHistoryPoint
}

func (c *check) gas(d doc) error {
	g, err := c.gasInputs(d)
	if err != nil {
		return err
	}
	if len(d.values) == 0 {
		return fieldErrf("values", "none listed (status %q, note %q)", d.Status, d.Note)
	}
	// The truth's min_price and timestamp are medians of the truth votes,
	// which the submission answer does not carry.
	c.res.Unchecked = append(c.res.Unchecked, "inputs.min_price", "inputs.evm_timestamp")
	// A prediction's receipt: the window it was counted in is fresh.
	slot, err := scoring.GasOutcome(g.estimate, g.minPrice, true)
	if err != nil {
		return fieldErr("inputs", err)
	}
	if len(g.memory) == 0 || len(g.memory) > g.params.MemorySize {
		return fieldErrf("inputs", "%d memory.* slots, want 1 to memory_size %d", len(g.memory), g.params.MemorySize)
	}
	last := "inputs." + rowPrefix(memoryPrefix, len(g.memory)-1)
	m := g.memory[len(g.memory)-1]
	for i, b := range slotSchema(&slot) {
		c.same(last+b.name, slotSchema(&m)[i].text(), b.want())
	}
	c.staleSlots(g)
	want := prefixed(slotPrefix, slotSchema(&slot))
	if len(g.history) == 0 {
		if len(g.memory) == g.params.MemorySize {
			return fieldErrf("inputs", "the memory is full (%d slots) but no history.* points are listed", len(g.memory))
		}
		if err := c.compareValues(d.values, want); err != nil {
			return err
		}
		if d.Score != "" {
			return fieldErrf("score", "%q without the history it is scored over", d.Score)
		}
		return nil
	}
	if len(g.memory) != g.params.MemorySize {
		return fieldErrf("inputs", "history.* points with %d memory slots; ScoreGas runs on a full memory of %d", len(g.memory), g.params.MemorySize)
	}
	res, err := c.recomputeGas(g)
	if err != nil {
		return err
	}
	if err := c.compareValues(d.values, append(want, gasResultSchema(&res)...)); err != nil {
		return err
	}
	if d.Score == "" {
		return fieldErrf("score", "missing beside the history")
	}
	c.same("score", d.Score, expDec(res.Score))
	return nil
}

// staleSlots checks the memory's slots without a fresh prediction under the
// recorded stale_prediction policy: under "miss" each must be the missed slot
// (not included, overpayment 0); under "carry" each was judged on an earlier
// prediction that the receipt does not carry, so it is listed as unchecked.
func (c *check) staleSlots(g gasRecorded) {
	missed := scoring.GasMissed()
	for i, m := range g.memory {
		if m.Fresh {
			continue
		}
		row := "inputs." + rowPrefix(memoryPrefix, i)
		if g.params.StalePrediction == scoring.StaleCarry {
			c.res.Unchecked = append(c.res.Unchecked, row+"included", row+"overpayment")
			continue
		}
		recorded := slotSchema(&m)
		for j, b := range slotSchema(&missed) {
			c.same(row+b.name, recorded[j].text(), b.want())
		}
	}
}

// prefixed renames bindings with prefix before each name.
func prefixed(prefix string, bs []binding) []binding {
	out := make([]binding, len(bs))
	for i, b := range bs {
		out[i] = b
		out[i].name = prefix + b.name
	}
	return out
}

// gasInputs reads the inputs (fixed names, memory.* and history.*) and the params.
func (c *check) gasInputs(d doc) (gasRecorded, error) {
	var g gasRecorded
	rest, memRows, err := takeRows("inputs", memoryPrefix, d.inputs, memorySubs)
	if err != nil {
		return g, err
	}
	rest, histRows, err := takeRows("inputs", historyPrefix, rest, historySubs)
	if err != nil {
		return g, err
	}
	var in gasInputs
	if err := bind("inputs", rest, append(gasTruthSchema(&in), gasPredictionSchema(&in)...)); err != nil {
		return g, err
	}
	g.timestamp = in.timestamp
	for _, u := range []struct{ name, v string }{{"evm_chain_id", in.chainID}, {"evm_block", in.block}, {"prediction_submission_id", in.predictionID}} {
		if _, err := strconv.ParseUint(u.v, 10, 64); err != nil {
			return g, fieldErrf("inputs."+u.name, "%q is not an unsigned integer", u.v)
		}
	}
	if c.res.Submission == nil {
		id, _ := strconv.ParseUint(in.predictionID, 10, 64)
		c.res.Submission = &id
	} else {
		c.same("inputs.prediction_submission_id", in.predictionID, expText(strconv.FormatUint(*c.res.Submission, 10)))
	}
	if g.estimate, err = scoring.Parse(in.prediction); err != nil {
		return g, fieldErr("inputs.prediction", err)
	}
	if g.minPrice, err = scoring.Parse(in.minPrice); err != nil {
		return g, fieldErr("inputs.min_price", err)
	}
	if g.memory, err = parseMemory(memRows); err != nil {
		return g, err
	}
	if g.history, err = parseHistory(histRows); err != nil {
		return g, err
	}
	return g, c.gasParams(d, &g)
}

// gasParams reads the params into g and compares them with the chain's.
func (c *check) gasParams(d doc, g *gasRecorded) error {
	var memory int64
	recorded := gasParamSchema(&g.params, &memory)
	if err := bind("params", d.params, recorded); err != nil {
		return err
	}
	if memory < 1 || memory > 1<<20 {
		return fieldErrf("params.memory_size", "%d out of range", memory)
	}
	g.params.MemorySize = int(memory)
	if err := g.params.Validate(); err != nil {
		return fieldErr("params", err)
	}
	chain := c.chain.Gas
	chainMemory := int64(chain.MemorySize)
	c.compareParams(recorded, gasParamSchema(&chain, &chainMemory))
	return nil
}

// recomputeGas checks the history against the memory and the horizon, then
// scores it as the app does: MemoryPerformance of the memory gives the newest
// point and the liveliness, GasHistoryStats and GasFromStats (ScoreGas's two
// halves) the rest. The recorded history is scored as recorded, so a tampered
// point shows in the statistics that depend on it.
func (c *check) recomputeGas(g gasRecorded) (scoring.GasResult, error) {
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
		want := expText(fmt.Sprintf("in [%d, %d]", lo, g.timestamp))
		if h.Time >= lo && h.Time <= g.timestamp {
			want = expInt(h.Time)
		}
		c.same("inputs."+rowPrefix(historyPrefix, i)+"time", strconv.FormatInt(h.Time, 10), want)
	}
	at := "inputs." + rowPrefix(historyPrefix, n)
	newest := scoring.GasHistoryPoint{Time: g.timestamp, InclusionRate: perf.InclusionRate, AvgOverpayment: perf.AvgOverpayment}
	recorded := historySchema(&g.history[n])
	for i, b := range historySchema(&newest) {
		c.same(at+b.name, recorded[i].text(), b.want())
	}
	stats, err := scoring.GasHistoryStats(g.history)
	if err != nil {
		return scoring.GasResult{}, fieldErr("inputs", err)
	}
	res, err := scoring.GasFromStats(g.params, stats, perf.Liveliness)
	if err != nil {
		return scoring.GasResult{}, fieldErr("inputs.memory", err)
	}
	return res, nil
}
