package receipt

import (
	"strconv"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// The gas schema: the truth and the prediction a window closed with, the
// gas params, the agent's memory and history rows, the judged slot and
// ScoreGas's intermediates.

const (
	memoryPrefix  = "memory"  // memory.<i>.<slot field>
	historyPrefix = "history" // history.<i>.<point field>
	slotPrefix    = "slot."   // the slot this window judged
)

// gasInputs is what a gas receipt's inputs record, as recorded text: the
// truth's median min_price and the prediction's price are kept verbatim.
type gasInputs struct {
	chainID, block, minPrice string
	timestamp                int64
	prediction               string
	includedAt               int64
	predictionID             string
}

func gasTruthSchema(g *gasInputs) []binding {
	return []binding{bStr("evm_chain_id", &g.chainID), bStr("evm_block", &g.block), bStr("min_price", &g.minPrice),
		bInt("evm_timestamp", &g.timestamp)}
}

func gasPredictionSchema(g *gasInputs) []binding {
	return []binding{bStr("prediction", &g.prediction), bInt("included_at", &g.includedAt),
		bStr("prediction_submission_id", &g.predictionID)}
}

// gasParamSchema binds memory_size as int64 (GasParams has an int); the
// caller copies it. stale_prediction is the policy that judged the memory's
// slots without a fresh prediction ("miss" or "carry").
func gasParamSchema(p *scoring.GasParams, memory *int64) []binding {
	return []binding{bInt("memory_size", memory), bInt("horizon_seconds", &p.HorizonSeconds), bDec("beta", &p.Beta),
		bDec("w_inclusion", &p.WInclusion), bDec("w_inclusion_stability", &p.WInclusionStability),
		bDec("w_overpayment", &p.WOverpayment), bDec("w_overpayment_stability", &p.WOverpaymentStability),
		bDec("w_liveliness", &p.WLiveliness), bStr("stale_prediction", (*string)(&p.StalePrediction))}
}

// slotSchema is one memory slot: a memory.<i>. row and the slot.* values.
func slotSchema(s *scoring.GasSlot) []binding {
	return []binding{bBool("included", &s.Included), bDec("overpayment", &s.Overpayment), bBool("fresh", &s.Fresh)}
}

// historySchema is one history.<i>. row.
func historySchema(p *scoring.GasHistoryPoint) []binding {
	return []binding{bInt("time", &p.Time), bDec("inclusion_rate", &p.InclusionRate),
		bDec("avg_overpayment", &p.AvgOverpayment)}
}

// gasResultSchema names every ScoreGas intermediate; total_score is also the
// receipt's score.
func gasResultSchema(r *scoring.GasResult) []binding {
	bs := []binding{bDec("inclusion_mean", &r.InclusionMean), bDec("inclusion_std", &r.InclusionStd),
		bDec("inclusion_cov", &r.InclusionCOV), bDec("overpayment_mean", &r.OverpaymentMean),
		bDec("overpayment_std", &r.OverpaymentStd), bDec("overpayment_cov", &r.OverpaymentCOV),
		bDec("liveliness", &r.Liveliness)}
	for i := range r.Utilities {
		bs = append(bs, bDec("u"+strconv.Itoa(i), &r.Utilities[i]))
	}
	points := int64(r.Points)
	return append(bs, bInt("points", &points), bDec("total_score", &r.Score))
}

// GasInputs is a gas receipt's inputs of the closing truth (evm_chain_id,
// evm_block, min_price, evm_timestamp) and, when pred is not nil, of the
// prediction it judged (prediction, included_at, prediction_submission_id).
// A prediction's receipt appends GasMemory and GasHistory to them.
func GasInputs(truth *subnetv1.TruthRound, pred *subnetv1.Prediction) []*subnetv1.Field {
	g := gasInputs{chainID: strconv.FormatUint(truth.EvmChainId, 10), block: strconv.FormatUint(truth.EvmBlock, 10),
		minPrice: truth.MinPrice, timestamp: truth.Timestamp}
	bs := gasTruthSchema(&g)
	if pred != nil {
		g.prediction, g.includedAt = pred.Price, pred.BlockTime
		g.predictionID = strconv.FormatUint(pred.SubmissionId, 10)
		bs = append(bs, gasPredictionSchema(&g)...)
	}
	return build(bs)
}

// GasParams is a gas receipt's params.
func GasParams(p scoring.GasParams) []*subnetv1.Field {
	memory := int64(p.MemorySize)
	return build(gasParamSchema(&p, &memory))
}

// GasSlot is the slot.* values of the slot a window close judged.
func GasSlot(s scoring.GasSlot) []*subnetv1.Field {
	return buildPrefixed(slotPrefix, slotSchema(&s))
}

// GasValues is ScoreGas's intermediates, after GasSlot in a scored receipt's values.
func GasValues(r scoring.GasResult) []*subnetv1.Field {
	return build(gasResultSchema(&r))
}

// GasMemory records an agent's memory, oldest slot first, as
// memory.<i>.included, memory.<i>.overpayment and memory.<i>.fresh.
func GasMemory(mem []scoring.GasSlot) []*subnetv1.Field {
	return buildRows(memoryPrefix, len(mem), func(i int) []binding { s := mem[i]; return slotSchema(&s) })
}

// GasHistory records the history points ScoreGas scored (after the horizon
// cut, the newest last) as history.<i>.time, history.<i>.inclusion_rate and
// history.<i>.avg_overpayment.
func GasHistory(h []scoring.GasHistoryPoint) []*subnetv1.Field {
	return buildRows(historyPrefix, len(h), func(i int) []binding { p := h[i]; return historySchema(&p) })
}

// buildRows formats n rows as <prefix>.<i>.<name>, row by row.
func buildRows(prefix string, n int, row func(i int) []binding) []*subnetv1.Field {
	var out []*subnetv1.Field
	for i := 0; i < n; i++ {
		out = append(out, buildPrefixed(rowPrefix(prefix, i), row(i))...)
	}
	return out
}

// rowPrefix is "<prefix>.<i>.".
func rowPrefix(prefix string, i int) string { return prefix + "." + strconv.Itoa(i) + "." }
