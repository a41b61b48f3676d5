package receipt

import (
	"github.com/scoringsubnet/validatord/x/scoring"
)

func (c *check) workflow(d doc) error {
	var in scoring.WorkflowInput
	var p scoring.WorkflowParams
	if err := bind("inputs", d.inputs, workflowInputSchema(&in)); err != nil {
		return err
	}
	params, powers, err := takePowers(d.params)
	if err != nil {
		return err
	}
	recorded := workflowParamSchema(&p)
	if err := bind("params", params, recorded); err != nil {
		return err
	}
	if err := p.Validate(); err != nil {
		return fieldErr("params", err)
	}
	chain := c.chain.Workflow
	c.compareParams(recorded, workflowParamSchema(&chain))
	if err := c.checkPowers(d, powers); err != nil {
		return err
	}
	if err := c.checkMedians(d.Track, workflowMedians, d.inputs, powers); err != nil {
		return err
	}
	r, err := scoring.ScoreWorkflow(p, in)
	if err != nil {
		return c.formulaFailed(d, err)
	}
	if len(d.values) == 0 {
		return c.noValues(d)
	}
	if err := c.compareValues(d.values, workflowValueSchema(&r)); err != nil {
		return err
	}
	return c.compareScore(d, expDec(r.Score))
}
