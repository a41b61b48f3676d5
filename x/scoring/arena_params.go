package scoring

import (
	"slices"
	"strconv"

	"github.com/shopspring/decimal"
)

// ArenaWeights weigh the four arena components; they sum to 1.
type ArenaWeights struct {
	Efficiency  decimal.Decimal `json:"efficiency"`
	Speed       decimal.Decimal `json:"speed"`
	Cost        decimal.Decimal `json:"cost"`
	Correctness decimal.Decimal `json:"correctness"`
}

// ArenaCategory gives a task category its own weights (TASK_CATEGORY_WEIGHTS).
type ArenaCategory struct {
	Name    string       `json:"name"`
	Weights ArenaWeights `json:"weights"`
}

// ArenaDifficulty multiplies the overall score of a task of that difficulty.
type ArenaDifficulty struct {
	Name       string          `json:"name"`
	Multiplier decimal.Decimal `json:"multiplier"`
}

// ArenaParams are the constants of agentic-arena-metrics.md.
type ArenaParams struct {
	Default      ArenaWeights      `json:"default"`      // used for the category "" only; other unknown categories are rejected
	Categories   []ArenaCategory   `json:"categories"`   // TASK_CATEGORY_WEIGHTS
	Difficulties []ArenaDifficulty `json:"difficulties"` // an unknown difficulty multiplies by 1 (the seed's .get default)

	// the efficiency blend 0.5/0.3/0.2
	TokenWeight     decimal.Decimal `json:"token_weight"`
	ToolCallWeight  decimal.Decimal `json:"tool_call_weight"`
	IterationWeight decimal.Decimal `json:"iteration_weight"`

	SpeedExponent     decimal.Decimal `json:"speed_exponent"`      // 0.7
	MissingScore      decimal.Decimal `json:"missing_score"`       // 50: speed or cost when the value is 0
	IterationStep     decimal.Decimal `json:"iteration_step"`      // 15 points per extra iteration up to the median
	IterationFloor    decimal.Decimal `json:"iteration_floor"`     // 50: floor while at or under the median
	IterationOverStep decimal.Decimal `json:"iteration_over_step"` // 10 points per iteration above the median
}

// seedConst parses a constant of the seed; a malformed literal is a programming error.
func seedConst(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// DefaultArenaParams are the seed's values.
func DefaultArenaParams() ArenaParams {
	w := func(e, s, c, k string) ArenaWeights {
		return ArenaWeights{Efficiency: seedConst(e), Speed: seedConst(s), Cost: seedConst(c), Correctness: seedConst(k)}
	}
	return ArenaParams{
		Default: w("0.35", "0.25", "0.20", "0.20"),
		Categories: []ArenaCategory{
			{Name: "frontend_development", Weights: w("0.30", "0.25", "0.15", "0.30")},
			{Name: "backend_development", Weights: w("0.35", "0.30", "0.20", "0.15")},
			{Name: "data_analysis", Weights: w("0.40", "0.20", "0.25", "0.15")},
			{Name: "debugging", Weights: w("0.25", "0.35", "0.15", "0.25")},
			{Name: "refactoring", Weights: w("0.45", "0.20", "0.20", "0.15")},
		},
		Difficulties: []ArenaDifficulty{
			{Name: "beginner", Multiplier: seedConst("1.0")},
			{Name: "intermediate", Multiplier: seedConst("1.1")},
			{Name: "advanced", Multiplier: seedConst("1.2")},
		},
		TokenWeight:       seedConst("0.5"),
		ToolCallWeight:    seedConst("0.3"),
		IterationWeight:   seedConst("0.2"),
		SpeedExponent:     seedConst("0.7"),
		MissingScore:      seedConst("50"),
		IterationStep:     seedConst("15"),
		IterationFloor:    seedConst("50"),
		IterationOverStep: seedConst("10"),
	}
}

// Validate checks every weight set (each weight in [0, 1], summing to 1), unique non-empty
// category and difficulty names, positive multipliers and exponent, and constants in [0, 100].
func (p ArenaParams) Validate() error {
	if err := p.Default.validate(-1); err != nil {
		return err
	}
	for i, c := range p.Categories {
		if c.Name == "" || slices.ContainsFunc(p.Categories[:i], func(o ArenaCategory) bool { return o.Name == c.Name }) {
			return inputErr("arena.categories["+strconv.Itoa(i)+"].name", strconv.Quote(c.Name), "must be non-empty and unique")
		}
		if err := c.Weights.validate(i); err != nil {
			return err
		}
	}
	for i, d := range p.Difficulties {
		at := "arena.difficulties[" + strconv.Itoa(i) + "]"
		if d.Name == "" || slices.ContainsFunc(p.Difficulties[:i], func(o ArenaDifficulty) bool { return o.Name == d.Name }) {
			return inputErr(at+".name", strconv.Quote(d.Name), "must be non-empty and unique")
		}
		if d.Multiplier.Sign() <= 0 {
			return inputErr(at+".multiplier", d.Multiplier.String(), "must be positive")
		}
	}
	return p.validateConstants()
}

func (p ArenaParams) validateConstants() error {
	blend := []decimal.Decimal{p.TokenWeight, p.ToolCallWeight, p.IterationWeight}
	for i, n := range []string{"arena.token_weight", "arena.tool_call_weight", "arena.iteration_weight"} {
		if blend[i].Sign() < 0 || blend[i].Cmp(One) > 0 {
			return inputErr(n, blend[i].String(), "must be in [0, 1]")
		}
	}
	if s := Sum(blend); !s.Equal(One) {
		return inputErr("arena.efficiency_blend", s.String(), "must sum to 1")
	}
	if p.SpeedExponent.Sign() <= 0 {
		return inputErr("arena.speed_exponent", p.SpeedExponent.String(), "must be positive")
	}
	consts := []decimal.Decimal{p.MissingScore, p.IterationStep, p.IterationFloor, p.IterationOverStep}
	for i, n := range []string{"arena.missing_score", "arena.iteration_step", "arena.iteration_floor", "arena.iteration_over_step"} {
		if consts[i].Sign() < 0 || consts[i].Cmp(Hundred) > 0 {
			return inputErr(n, consts[i].String(), "must be in [0, 100]")
		}
	}
	return nil
}

// validate checks the default weights (category −1) or those of Categories[category]; the field
// name is built only for an error.
func (w ArenaWeights) validate(category int) error {
	at := func() string {
		if category < 0 {
			return "arena.default"
		}
		return "arena.categories[" + strconv.Itoa(category) + "]"
	}
	ws := []decimal.Decimal{w.Efficiency, w.Speed, w.Cost, w.Correctness}
	for i, n := range []string{".efficiency", ".speed", ".cost", ".correctness"} {
		if ws[i].Sign() < 0 || ws[i].Cmp(One) > 0 {
			return inputErr(at()+n, ws[i].String(), "must be in [0, 1]")
		}
	}
	if s := Sum(ws); !s.Equal(One) {
		return inputErr(at(), s.String(), "weights must sum to 1")
	}
	return nil
}

// WeightsFor returns the weights of a category as ScoreArena uses them: "" is the default, an
// unknown name an *InputError.
func (p ArenaParams) WeightsFor(category string) (ArenaWeights, error) {
	if category == "" {
		return p.Default, nil
	}
	for _, c := range p.Categories {
		if c.Name == category {
			return c.Weights, nil
		}
	}
	return ArenaWeights{}, inputErr("category", strconv.Quote(category), "unknown category")
}

// MultiplierFor returns the difficulty multiplier as ScoreArena uses it, 1 for an unknown or empty
// difficulty.
func (p ArenaParams) MultiplierFor(difficulty string) decimal.Decimal {
	for _, d := range p.Difficulties {
		if d.Name == difficulty {
			return d.Multiplier
		}
	}
	return One
}
