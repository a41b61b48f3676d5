package main

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

// arenaRecorded is what an arena receipt's params hold beyond the constants.
type arenaRecorded struct {
	baseline       scoring.ArenaBaseline
	multiplierText string
}

func arenaWeightBindings(w *scoring.ArenaWeights) []binding {
	return []binding{bDec("weights.efficiency", &w.Efficiency), bDec("weights.speed", &w.Speed),
		bDec("weights.cost", &w.Cost), bDec("weights.correctness", &w.Correctness)}
}

// bindArenaParams builds ScoreArena's params from the receipt alone: the
// recorded constants, and tables holding only the recorded rows: the
// category's weights (weights.*, absent for a category the chain's table did
// not have, which ScoreArena then rejects as the app did) and the
// difficulty's multiplier. With --params every recorded param is also
// compared with the chain's.
func (v receiptVerifier) bindArenaParams(c *receiptCheck, params []receiptField, category, difficulty string) (scoring.ArenaParams, arenaRecorded, error) {
	var p scoring.ArenaParams
	var t arenaRecorded
	var w scoring.ArenaWeights
	var mult decimal.Decimal
	consts := arenaConstBindings(&p)
	bs := append(append([]binding{}, consts...), arenaBaselineBindings(&t.baseline)...)
	bs = append(bs, bDec("difficulty_multiplier", &mult))
	hasWeights := false
	for _, f := range params {
		hasWeights = hasWeights || strings.HasPrefix(f.Name, "weights.")
	}
	weights := arenaWeightBindings(&w)
	if hasWeights {
		bs = append(bs, weights...)
	}
	if err := bind("params", params, bs); err != nil {
		return p, t, err
	}
	t.multiplierText = scoring.Format(mult)
	p.Default = v.chain.Arena.Default // unused unless the category is "", whose weights are recorded
	switch {
	case hasWeights && category == "":
		p.Default = w
	case hasWeights:
		p.Categories = []scoring.ArenaCategory{{Name: category, Weights: w}}
	case category == "":
		return p, t, fmt.Errorf("params: missing weights.* (the default weights of the category \"\")")
	}
	if difficulty != "" {
		p.Difficulties = []scoring.ArenaDifficulty{{Name: difficulty, Multiplier: mult}}
	}
	if !v.strict {
		return p, t, nil
	}
	chain := v.chain.Arena
	v.compareParams(c, consts, arenaConstBindings(&chain))
	cw, err := chain.WeightsFor(category)
	known := err == nil
	switch {
	case known && hasWeights:
		v.compareParams(c, weights, arenaWeightBindings(&cw))
	case known != hasWeights:
		c.same("params.weights", presence(hasWeights), expected{text: presence(known)})
	}
	c.same("params.difficulty_multiplier", t.multiplierText, expDec(chain.MultiplierFor(difficulty)))
	return p, t, nil
}

func presence(b bool) string {
	if b {
		return "present"
	}
	return "absent"
}
