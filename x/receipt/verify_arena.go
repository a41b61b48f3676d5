package receipt

import (
	"strings"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

func (c *check) arena(d doc) error {
	var s scoring.ArenaSubmission
	var category, difficulty string
	if err := bind("inputs", d.inputs, arenaInputSchema(&s, &category, &difficulty)); err != nil {
		return err
	}
	params, powers, err := takePowers(d.params)
	if err != nil {
		return err
	}
	p, t, err := c.arenaParams(params, category, difficulty)
	if err != nil {
		return err
	}
	if err := c.checkPowers(d, powers); err != nil {
		return err
	}
	if err := c.checkMedians(d.Track, arenaMedians, d.inputs, powers); err != nil {
		return err
	}
	r, err := scoring.ScoreArena(p, s, t.baseline, category, difficulty)
	if err != nil {
		return c.formulaFailed(d, err)
	}
	if len(d.values) == 0 {
		return c.noValues(d)
	}
	review := reviewOf(s, t.baseline)
	if err := c.compareValues(d.values, append(arenaValueSchema(&r), arenaReviewSchema(&review)...)); err != nil {
		return err
	}
	if difficulty == "" {
		// no table row was built for it: the recorded multiplier must be ScoreArena's 1
		c.same("params."+multiplierName, t.multiplierText, expDec(r.Multiplier))
	}
	return c.compareScore(d, expDec(r.Overall))
}

// arenaRecorded is what an arena receipt's params hold beyond the constants.
type arenaRecorded struct {
	baseline       scoring.ArenaBaseline
	multiplierText string
}

// arenaParams builds ScoreArena's params from the receipt alone: the
// recorded constants, and tables holding only the recorded rows: the
// category's weights (weights.*, absent for a category the chain's table did
// not have, which ScoreArena then rejects as the app did) and the
// difficulty's multiplier. With a chain every recorded param is also
// compared with the chain's.
func (c *check) arenaParams(params []field, category, difficulty string) (scoring.ArenaParams, arenaRecorded, error) {
	var p scoring.ArenaParams
	var t arenaRecorded
	var w scoring.ArenaWeights
	var mult decimal.Decimal
	consts := arenaConstSchema(&p)
	bs := append(append([]binding{}, consts...), arenaBaselineSchema(&t.baseline)...)
	bs = append(bs, bDec(multiplierName, &mult))
	hasWeights := false
	for _, f := range params {
		hasWeights = hasWeights || strings.HasPrefix(f.Name, weightsPrefix)
	}
	weights := arenaWeightSchema(&w)
	if hasWeights {
		bs = append(bs, weights...)
	}
	if err := bind("params", params, bs); err != nil {
		return p, t, err
	}
	t.multiplierText = scoring.Format(mult)
	p.Default = c.chain.Arena.Default // unused unless the category is "", whose weights are recorded
	switch {
	case hasWeights && category == "":
		p.Default = w
	case hasWeights:
		p.Categories = []scoring.ArenaCategory{{Name: category, Weights: w}}
	case category == "":
		return p, t, fieldErrf("params", "missing weights.* (the default weights of the category \"\")")
	}
	if difficulty != "" {
		p.Difficulties = []scoring.ArenaDifficulty{{Name: difficulty, Multiplier: mult}}
	}
	if !c.strict() {
		return p, t, nil
	}
	chain := c.chain.Arena
	c.compareParams(consts, arenaConstSchema(&chain))
	cw, err := chain.WeightsFor(category)
	known := err == nil
	switch {
	case known && hasWeights:
		c.compareParams(weights, arenaWeightSchema(&cw))
	case known != hasWeights:
		c.same("params.weights", presence(hasWeights), expText(presence(known)))
	}
	c.same("params."+multiplierName, t.multiplierText, expDec(chain.MultiplierFor(difficulty)))
	return p, t, nil
}

func presence(b bool) string {
	if b {
		return "present"
	}
	return "absent"
}
