package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/quorum"
	"github.com/scoringsubnet/validatord/x/scoring"
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
func takePowers(fs []receiptField) ([]receiptField, []votePower, error) {
	var rest []receiptField
	var out []votePower
	seen := map[string]bool{}
	for _, f := range fs {
		name, ok := strings.CutPrefix(f.Name, "power.")
		if !ok {
			rest = append(rest, f)
			continue
		}
		if name == "" || seen[name] {
			return nil, nil, fmt.Errorf("params.%s: empty or duplicate validator name", f.Name)
		}
		seen[name] = true
		p, err := strconv.ParseInt(f.Value, 10, 64)
		if err != nil || p <= 0 {
			return nil, nil, fmt.Errorf("params.%s: %q is not a positive power", f.Name, f.Value)
		}
		out = append(out, votePower{name: name, power: p, text: f.Value})
	}
	return rest, out, nil
}

// checkPowers: the recorded powers add up to the receipt's reported_power;
// with --params each is the chain's power of that validator, and
// total_power the chain's total.
func (v receiptVerifier) checkPowers(c *receiptCheck, doc receiptDoc, powers []votePower) error {
	if len(powers) == 0 {
		return fmt.Errorf("params: no power.<validator> entries (the votes' powers)")
	}
	var sum int64
	for _, p := range powers {
		if sum > (1<<63-1)-p.power {
			return fmt.Errorf("params: the powers overflow int64")
		}
		sum += p.power
	}
	c.same("reported_power", strconv.FormatInt(doc.ReportedPower, 10), expInt(sum))
	if !v.strict {
		return nil
	}
	var total int64
	for _, p := range powers {
		want := expected{text: "absent (no such validator)"}
		for _, val := range v.chain.Validators {
			if val.Name == p.name {
				want = expInt(val.Power)
			}
		}
		c.same("params.power."+p.name, p.text, want)
	}
	for _, val := range v.chain.Validators {
		total += val.Power
	}
	c.same("total_power", strconv.FormatInt(doc.TotalPower, 10), expInt(total))
	return nil
}

// medianInput is one receipt input that is the weighted median of a vote
// field of the same name; integer fields compare as integers.
type medianInput struct {
	name    string
	integer bool
}

var workflowMedians = []medianInput{{"output_quality", false}, {"steps_completed", true}, {"cost", false},
	{"latency_seconds", false}, {"retries", true}, {"timeouts", true}, {"hard_failures", true}}

var arenaMedians = []medianInput{{"total_tokens", true}, {"tool_calls", true}, {"iterations", true},
	{"execution_time", false}, {"estimated_cost", false}, {"criteria_passed", true}}

// checkMedians re-derives every median input with quorum.WeightedMedian over
// the answer's votes (the measurement under member track) and the recorded
// powers, and compares it with the recorded input as "inputs.<name>". A bare
// receipt has no votes: its median inputs are listed as unchecked.
func checkMedians(c *receiptCheck, track string, specs []medianInput, inputs []receiptField, powers []votePower) error {
	if c.answer == nil {
		for _, s := range specs {
			c.res.Unchecked = append(c.res.Unchecked, "inputs."+s.name)
		}
		return nil
	}
	votes, err := answerVotes(c.answer, track, specs)
	if err != nil {
		return err
	}
	byName := make(map[string]int64, len(powers))
	for _, p := range powers {
		byName[p.name] = p.power
	}
	ws := make([]int64, len(votes))
	var missing []string
	for i, vt := range votes {
		p, ok := byName[vt.validator]
		if !ok {
			missing = append(missing, "power."+vt.validator)
		}
		ws[i] = p
		delete(byName, vt.validator)
	}
	var unknown []string
	for _, p := range powers {
		if _, left := byName[p.name]; left {
			unknown = append(unknown, strconv.Quote("power."+p.name)+" (no vote in the answer)")
		}
	}
	if err := nameError("params", nil, unknown, missing); err != nil {
		return err
	}
	in := fieldMap(inputs)
	for j, s := range specs {
		vals := make([]decimal.Decimal, len(votes))
		for i, vt := range votes {
			vals[i] = vt.values[j]
		}
		m, err := quorum.WeightedMedian(vals, ws)
		if err != nil {
			return fmt.Errorf("votes.%s: %w", s.name, err)
		}
		want := expDec(m)
		if s.integer {
			want = expInt(m.IntPart())
		}
		c.same("inputs."+s.name, in[s.name], want)
	}
	return nil
}

// answerVote is one vote of an answer: its validator's name and the values
// of the median fields, in the specs' order.
type answerVote struct {
	validator string
	values    []decimal.Decimal
}

// answerVotes reads the answer's votes; a field the JSON omits is 0 (the
// app's JSON omits zero counts). Each validator may vote once.
func answerVotes(answer jsonObject, track string, specs []medianInput) ([]answerVote, error) {
	raw, ok := answer["votes"]
	if !ok || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, fmt.Errorf("votes: missing from the answer")
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("votes: %v", err)
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("votes: none in the answer, but the inputs are medians of votes")
	}
	out := make([]answerVote, len(list))
	seen := map[string]bool{}
	for i, r := range list {
		at := "votes[" + strconv.Itoa(i) + "]"
		obj, err := decodeObject(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", at, err)
		}
		name, err := obj.str("validator")
		if err != nil {
			return nil, fmt.Errorf("%s.%w", at, err)
		}
		if seen[name] {
			return nil, fmt.Errorf("%s.validator: %q voted twice", at, name)
		}
		seen[name] = true
		m, err := obj.object(track)
		if err != nil {
			return nil, fmt.Errorf("%s.%w", at, err)
		}
		out[i] = answerVote{validator: name, values: make([]decimal.Decimal, len(specs))}
		for j, s := range specs {
			out[i].values[j] = scoring.Zero
			if f, ok := m[s.name]; ok {
				d, err := decimalField(s.name, f)
				if err != nil {
					return nil, fmt.Errorf("%s.%s.%w", at, track, err)
				}
				out[i].values[j] = d
			}
		}
	}
	return out, nil
}
