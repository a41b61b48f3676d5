package scoring

import (
	"strconv"

	"github.com/shopspring/decimal"
)

// GasParams are the constants of the gas agent score (gas-agent-evaluation.md).
type GasParams struct {
	MemorySize            int             `json:"memory_size"`     // block windows in the fixed memory array
	HorizonSeconds        int64           `json:"horizon_seconds"` // history entries older than this (block time) are not scored
	Beta                  decimal.Decimal `json:"beta"`
	WInclusion            decimal.Decimal `json:"w_inclusion"`
	WInclusionStability   decimal.Decimal `json:"w_inclusion_stability"`
	WOverpayment          decimal.Decimal `json:"w_overpayment"`
	WOverpaymentStability decimal.Decimal `json:"w_overpayment_stability"`
	WLiveliness           decimal.Decimal `json:"w_liveliness"`
	// StalePrediction is how a block window without a fresh prediction is
	// judged (the seed is silent): StaleMiss or StaleCarry.
	StalePrediction StalePolicy `json:"stale_prediction"`
}

// StalePolicy names how a block window without a fresh prediction from an
// agent that predicted before is judged.
type StalePolicy string

const (
	// StaleMiss judges such a window as missed: not included, overpayment 0,
	// liveliness 0 (GasMissed). The default: silence never pays.
	StaleMiss StalePolicy = "miss"
	// StaleCarry judges it on the agent's latest earlier prediction, with
	// liveliness 0 (the reading before the silence fix). One cheap high prediction
	// then silence out-scores honest agents under it (docs/scoring.md §4).
	StaleCarry StalePolicy = "carry"
)

// DefaultGasParams are the seed's values: memory 10, horizon 60 s, β = 3.2, weights
// 0.5/0.15/0.15/0.10/0.10; a window without a fresh prediction is missed.
func DefaultGasParams() GasParams {
	return GasParams{
		MemorySize:            10,
		HorizonSeconds:        60,
		Beta:                  decimal.RequireFromString("3.2"),
		WInclusion:            decimal.RequireFromString("0.5"),
		WInclusionStability:   decimal.RequireFromString("0.15"),
		WOverpayment:          decimal.RequireFromString("0.15"),
		WOverpaymentStability: decimal.RequireFromString("0.10"),
		WLiveliness:           decimal.RequireFromString("0.10"),
		StalePrediction:       StaleMiss,
	}
}

// Validate checks sizes > 0, β > 0, every weight in [0, 1], the weights summing
// to exactly 1 and a known stale-prediction policy.
func (p GasParams) Validate() error {
	if p.StalePrediction != StaleMiss && p.StalePrediction != StaleCarry {
		return inputErr("gas.stale_prediction", strconv.Quote(string(p.StalePrediction)), `must be "miss" or "carry"`)
	}
	if p.MemorySize < 1 {
		return inputErr("gas.memory_size", strconv.Itoa(p.MemorySize), "must be at least 1")
	}
	if p.HorizonSeconds < 1 {
		return inputErr("gas.horizon_seconds", strconv.FormatInt(p.HorizonSeconds, 10), "must be at least 1")
	}
	if p.Beta.Sign() <= 0 {
		return inputErr("gas.beta", p.Beta.String(), "must be positive")
	}
	names := [5]string{"gas.w_inclusion", "gas.w_inclusion_stability", "gas.w_overpayment", "gas.w_overpayment_stability", "gas.w_liveliness"}
	ws := p.weights()
	for i, w := range ws {
		if w.Sign() < 0 || w.Cmp(One) > 0 {
			return inputErr(names[i], w.String(), "must be in [0, 1]")
		}
	}
	if s := Sum(ws[:]); !s.Equal(One) {
		return inputErr("gas.weights", s.String(), "must sum to 1")
	}
	return nil
}

func (p GasParams) weights() [5]decimal.Decimal {
	return [5]decimal.Decimal{p.WInclusion, p.WInclusionStability, p.WOverpayment, p.WOverpaymentStability, p.WLiveliness}
}

// GasSlot is one closed block window in an agent's memory array.
type GasSlot struct {
	Included    bool            // estimate ≥ the block window's minimum gas price
	Overpayment decimal.Decimal // (estimate − min)/min when included, else 0
	Fresh       bool            // the agent sent a prediction for this window
}

// GasOutcome judges one estimate against the block window's minimum non-zero gas price.
// minPrice must be > 0 and estimate ≥ 0. The overpayment is relative and rounded to Places;
// an estimate below the minimum is not included and counts 0 overpayment.
func GasOutcome(estimate, minPrice decimal.Decimal, fresh bool) (GasSlot, error) {
	if minPrice.Sign() <= 0 {
		return GasSlot{}, inputErr("min_price", minPrice.String(), "must be positive (non-zero minimum gas price)")
	}
	if estimate.Sign() < 0 {
		return GasSlot{}, inputErr("estimate", estimate.String(), "must not be negative")
	}
	if estimate.Cmp(minPrice) < 0 {
		return GasSlot{Included: false, Overpayment: Zero, Fresh: fresh}, nil
	}
	return GasSlot{Included: true, Overpayment: Quo(estimate.Sub(minPrice), minPrice), Fresh: fresh}, nil
}

// GasMissed is the slot of a block window that an agent let pass without a
// fresh prediction under StaleMiss: not included, overpayment 0, not fresh.
func GasMissed() GasSlot {
	return GasSlot{Included: false, Overpayment: Zero, Fresh: false}
}

// GasStale judges a block window without a fresh prediction under the
// policy: StaleMiss gives GasMissed, StaleCarry judges last (the agent's
// latest earlier prediction) with Fresh = false.
func GasStale(policy StalePolicy, last, minPrice decimal.Decimal) (GasSlot, error) {
	switch policy {
	case StaleMiss:
		if minPrice.Sign() <= 0 {
			return GasSlot{}, inputErr("min_price", minPrice.String(), "must be positive (non-zero minimum gas price)")
		}
		return GasMissed(), nil
	case StaleCarry:
		return GasOutcome(last, minPrice, false)
	}
	return GasSlot{}, inputErr("gas.stale_prediction", strconv.Quote(string(policy)), `must be "miss" or "carry"`)
}

// GasPerformance is what one full memory array yields.
type GasPerformance struct {
	InclusionRate  decimal.Decimal // included / len
	AvgOverpayment decimal.Decimal // Σ overpayment / len
	Liveliness     decimal.Decimal // fresh / len
}

// MemoryPerformance computes the three rates over mem, each rounded to Places. An empty
// memory yields zeros (the caller scores only a filled array).
func MemoryPerformance(mem []GasSlot) GasPerformance {
	if len(mem) == 0 {
		return GasPerformance{InclusionRate: Zero, AvgOverpayment: Zero, Liveliness: Zero}
	}
	var included, fresh int64
	over := Zero
	for _, s := range mem {
		if s.Included {
			included++
		}
		if s.Fresh {
			fresh++
		}
		over = over.Add(s.Overpayment)
	}
	n := decimal.NewFromInt(int64(len(mem)))
	return GasPerformance{
		InclusionRate:  Quo(decimal.NewFromInt(included), n),
		AvgOverpayment: Quo(over, n),
		Liveliness:     Quo(decimal.NewFromInt(fresh), n),
	}
}

// GasHistoryPoint is one AgentHistory entry: the performance after a window closed at Time
// (block time, seconds).
type GasHistoryPoint struct {
	Time           int64
	InclusionRate  decimal.Decimal
	AvgOverpayment decimal.Decimal
}

// GasResult is the score with every intermediate, for receipts.
type GasResult struct {
	Score           decimal.Decimal
	InclusionMean   decimal.Decimal
	InclusionStd    decimal.Decimal
	InclusionCOV    decimal.Decimal
	OverpaymentMean decimal.Decimal
	OverpaymentStd  decimal.Decimal
	OverpaymentCOV  decimal.Decimal
	Liveliness      decimal.Decimal
	Utilities       [5]decimal.Decimal // u0..u4 in the seed's order
	Points          int
}

// GasStats are what ScoreGas takes from the history: the population mean and standard
// deviation of the inclusion rates and of the average overpayments (each rounded to Places)
// and the number of points.
type GasStats struct {
	InclusionMean   decimal.Decimal
	InclusionStd    decimal.Decimal
	OverpaymentMean decimal.Decimal
	OverpaymentStd  decimal.Decimal
	Points          int
}

// ScoreGas scores an agent over history (already cut to the horizon by the caller) and the
// liveliness of its current memory: GasHistoryStats of the history, then GasFromStats. See
// docs/scoring.md, section "gas", for each rounding point.
func ScoreGas(p GasParams, history []GasHistoryPoint, liveliness decimal.Decimal) (GasResult, error) {
	if err := p.Validate(); err != nil {
		return GasResult{}, err
	}
	if err := checkGasInputs(history, liveliness); err != nil {
		return GasResult{}, err
	}
	return gasFromStats(p, historyStats(history), liveliness), nil
}

// GasHistoryStats computes the statistics ScoreGas scores a history by. The history must
// hold at least one point, each with an inclusion rate in [0, 1] and a non-negative average
// overpayment.
func GasHistoryStats(history []GasHistoryPoint) (GasStats, error) {
	if err := checkGasInputs(history, Zero); err != nil {
		return GasStats{}, err
	}
	return historyStats(history), nil
}

// GasFromStats is the second half of ScoreGas: the COVs, the five utilities and the
// weighted total from a history's statistics and the memory's liveliness. Its checks are
// what any real history satisfies: at least 1 point, the inclusion mean and the liveliness
// in [0, 1], the overpayment mean and both stds non-negative.
func GasFromStats(p GasParams, s GasStats, liveliness decimal.Decimal) (GasResult, error) {
	if err := p.Validate(); err != nil {
		return GasResult{}, err
	}
	if err := checkGasStats(s, liveliness); err != nil {
		return GasResult{}, err
	}
	return gasFromStats(p, s, liveliness), nil
}

func historyStats(history []GasHistoryPoint) GasStats {
	incl := make([]decimal.Decimal, len(history))
	over := make([]decimal.Decimal, len(history))
	for i, h := range history {
		incl[i], over[i] = h.InclusionRate, h.AvgOverpayment
	}
	s := GasStats{Points: len(history)}
	s.InclusionMean, s.InclusionStd = meanAndPStdev(incl)
	s.OverpaymentMean, s.OverpaymentStd = meanAndPStdev(over)
	return s
}

// gasFromStats computes GasFromStats on checked inputs.
func gasFromStats(p GasParams, s GasStats, liveliness decimal.Decimal) GasResult {
	r := GasResult{Liveliness: liveliness, Points: s.Points,
		InclusionMean: s.InclusionMean, InclusionStd: s.InclusionStd,
		OverpaymentMean: s.OverpaymentMean, OverpaymentStd: s.OverpaymentStd}
	inclCOV, inclOK := cov(r.InclusionMean, r.InclusionStd)
	overCOV, overOK := cov(r.OverpaymentMean, r.OverpaymentStd)
	r.InclusionCOV, r.OverpaymentCOV = inclCOV, overCOV
	r.Utilities[0] = Clamp01(r.InclusionMean)
	r.Utilities[1] = expUtility(p.Beta, inclCOV, inclOK)
	r.Utilities[2] = expUtility(p.Beta, r.OverpaymentMean, true)
	r.Utilities[3] = expUtility(p.Beta, overCOV, overOK)
	r.Utilities[4] = Clamp01(liveliness)
	total := Zero
	for i, w := range p.weights() {
		total = total.Add(w.Mul(r.Utilities[i]))
	}
	r.Score = Clamp01(Round(total))
	return r
}

func checkGasStats(s GasStats, liveliness decimal.Decimal) error {
	if s.Points < 1 {
		return inputErr("stats.points", strconv.Itoa(s.Points), "needs at least 1 point")
	}
	if liveliness.Sign() < 0 || liveliness.Cmp(One) > 0 {
		return inputErr("liveliness", liveliness.String(), "must be in [0, 1]")
	}
	if s.InclusionMean.Sign() < 0 || s.InclusionMean.Cmp(One) > 0 {
		return inputErr("stats.inclusion_mean", s.InclusionMean.String(), "must be in [0, 1]")
	}
	for _, f := range []struct {
		name string
		v    decimal.Decimal
	}{{"stats.inclusion_std", s.InclusionStd}, {"stats.overpayment_mean", s.OverpaymentMean}, {"stats.overpayment_std", s.OverpaymentStd}} {
		if f.v.Sign() < 0 {
			return inputErr(f.name, f.v.String(), "must not be negative")
		}
	}
	return nil
}

func checkGasInputs(history []GasHistoryPoint, liveliness decimal.Decimal) error {
	if len(history) == 0 {
		return inputErr("history", "n=0", "needs at least 1 point")
	}
	if liveliness.Sign() < 0 || liveliness.Cmp(One) > 0 {
		return inputErr("liveliness", liveliness.String(), "must be in [0, 1]")
	}
	for i, h := range history {
		at := "history[" + strconv.Itoa(i) + "]"
		if h.InclusionRate.Sign() < 0 || h.InclusionRate.Cmp(One) > 0 {
			return inputErr(at+".inclusion_rate", h.InclusionRate.String(), "must be in [0, 1]")
		}
		if h.AvgOverpayment.Sign() < 0 {
			return inputErr(at+".avg_overpayment", h.AvgOverpayment.String(), "must not be negative")
		}
	}
	return nil
}

// meanAndPStdev is Mean and PStdev of a non-empty sample from one pass over it.
func meanAndPStdev(xs []decimal.Decimal) (decimal.Decimal, decimal.Decimal) {
	sum, sq := moments(xs, true)
	n := decimal.NewFromInt(int64(len(xs)))
	std, err := rootOfRatio(n.Mul(sq).Sub(sum.Mul(sum)), n.Mul(n))
	if err != nil {
		panic("scoring: root of a variance that cannot be negative: " + err.Error())
	}
	return Quo(sum, n), std
}

// cov is the coefficient of variation std/mean rounded to Places. It is 0 when std is 0, and
// undefined (ok = false, utility 0) when the mean is 0 but std is not.
func cov(mean, std decimal.Decimal) (decimal.Decimal, bool) {
	if std.IsZero() {
		return Zero, true
	}
	if mean.IsZero() {
		return Zero, false
	}
	return Quo(std, mean), true
}

// expUtility is exp(−β·x) clamped to [0, 1], or 0 when x is undefined.
func expUtility(beta, x decimal.Decimal, defined bool) decimal.Decimal {
	if !defined {
		return Zero
	}
	u, err := Exp(beta.Mul(x).Neg())
	if err != nil {
		// −β·x > 100 means x < 0, which checkGasInputs, checkGasStats and cov rule out.
		panic("scoring: exp of a non-positive argument: " + err.Error())
	}
	return Clamp01(u)
}
