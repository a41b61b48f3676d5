package receipt

import (
	"strconv"
	"strings"

	"github.com/scoringsubnet/validatord/x/quorum"
	"github.com/shopspring/decimal"
)

// votePower is one "power.<validator>" param: the voting power the app
// weighed that validator's vote with.
type votePower struct {
	name  string
	power int64
	text  string
}

// takePowers takes the power.<validator> params out of fs, in their order.
// Each power must be a positive integer and each validator named once.
func takePowers(fs []field) ([]field, []votePower, error) {
	var rest []field
	var out []votePower
	seen := map[string]bool{}
	for _, f := range fs {
		name, ok := strings.CutPrefix(f.Name, powerPrefix)
		if !ok {
			rest = append(rest, f)
			continue
		}
		if name == "" || seen[name] {
			return nil, nil, fieldErrf("params."+f.Name, "empty or duplicate validator name")
		}
		seen[name] = true
		p, err := strconv.ParseInt(f.Value, 10, 64)
		if err != nil || p <= 0 {
			return nil, nil, fieldErrf("params."+f.Name, "%q is not a positive power", f.Value)
		}
		out = append(out, votePower{name: name, power: p, text: f.Value})
	}
	return rest, out, nil
}

// checkPowers: the recorded powers add up to the receipt's reported_power;
// with a chain each is the chain's power of that validator, and total_power
// the chain's total.
func (c *check) checkPowers(d doc, powers []votePower) error {
	if len(powers) == 0 {
		return fieldErrf("params", "no power.<validator> entries (the votes' powers)")
	}
	var sum int64
	for _, p := range powers {
		if sum > (1<<63-1)-p.power {
			return fieldErrf("params", "the powers overflow int64")
		}
		sum += p.power
	}
	c.same("reported_power", strconv.FormatInt(d.ReportedPower, 10), expInt(sum))
	if !c.strict() {
		return nil
	}
	var total int64
	for _, p := range powers {
		want := expText("absent (no such validator)")
		for _, val := range c.chain.Validators {
			if val.Name == p.name {
				want = expInt(val.Power)
			}
		}
		c.same("params."+powerPrefix+p.name, p.text, want)
	}
	for _, val := range c.chain.Validators {
		total += val.Power
	}
	c.same("total_power", strconv.FormatInt(d.TotalPower, 10), expInt(total))
	return nil
}

// checkMedians re-derives every median input with quorum.WeightedMedian over
// the answer's votes and the recorded powers, and compares it with the
// recorded input as "inputs.<name>". A bare receipt has no votes: its median
// inputs are listed as unchecked.
func (c *check) checkMedians(track string, specs []Median, inputs []field, powers []votePower) error {
	if c.answer == nil {
		for _, s := range specs {
			c.res.Unchecked = append(c.res.Unchecked, "inputs."+s.Name)
		}
		return nil
	}
	votes := c.answer.Votes
	if err := checkVotes(votes, track, len(specs)); err != nil {
		return err
	}
	ws, err := voteWeights(votes, powers)
	if err != nil {
		return err
	}
	in := fieldMap(inputs)
	for j, s := range specs {
		vals := make([]decimal.Decimal, len(votes))
		for i, vt := range votes {
			vals[i] = vt.Values[j]
		}
		m, err := quorum.WeightedMedian(vals, ws)
		if err != nil {
			return fieldErr("votes."+s.Name, err)
		}
		want := expDec(m)
		if s.Integer {
			want = expInt(m.IntPart())
		}
		c.same("inputs."+s.Name, in[s.Name], want)
	}
	return nil
}

// checkVotes: at least one vote, each validator once, each with n values.
func checkVotes(votes []Vote, track string, n int) error {
	if len(votes) == 0 {
		return fieldErrf("votes", "none in the answer, but the inputs are medians of votes")
	}
	seen := map[string]bool{}
	for i, v := range votes {
		at := "votes[" + strconv.Itoa(i) + "]"
		if seen[v.Validator] {
			return fieldErrf(at+".validator", "%q voted twice", v.Validator)
		}
		seen[v.Validator] = true
		if len(v.Values) != n {
			return fieldErrf(at+"."+track, "%d values, want %d", len(v.Values), n)
		}
	}
	return nil
}

// voteWeights pairs each vote with its recorded power: every voter needs a
// power.<validator> and every power a vote.
func voteWeights(votes []Vote, powers []votePower) ([]int64, error) {
	byName := make(map[string]int64, len(powers))
	for _, p := range powers {
		byName[p.name] = p.power
	}
	ws := make([]int64, len(votes))
	var missing []string
	for i, vt := range votes {
		p, ok := byName[vt.Validator]
		if !ok {
			missing = append(missing, powerPrefix+vt.Validator)
		}
		ws[i] = p
		delete(byName, vt.Validator)
	}
	var unknown []string
	for _, p := range powers {
		if _, left := byName[p.name]; left {
			unknown = append(unknown, powerPrefix+p.name)
		}
	}
	if len(missing)+len(unknown) > 0 {
		return nil, &NameError{Section: "params", Unknown: unknown, Missing: missing, Hint: " (no vote in the answer)"}
	}
	return ws, nil
}
