package offline

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/x/receipt"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// submissionAnswer is a whole answer of `query submission/<id>`: the app's
// typed view, its receipt kept raw (decodeReceipt reads it strictly).
type submissionAnswer struct {
	wire.SubmissionView
	Receipt json.RawMessage `json:"receipt"`
}

// decodeAnswer reads line, whose members obj holds, as a submission answer.
func decodeAnswer(line []byte, obj jsonObject) (*submissionAnswer, error) {
	if _, ok := obj["id"]; !ok {
		return nil, fmt.Errorf("id: missing (a line with a receipt member must be a whole submission answer)")
	}
	var a submissionAnswer
	if err := json.Unmarshal(line, &a); err != nil {
		return nil, fmt.Errorf("submission answer: %v", err)
	}
	return &a, nil
}

// answerFacts reads what receipt.Verify compares of a whole answer whose
// receipt is of track: the votes' median fields (workflow, arena), the
// answer's track, status and commit facts, and the predicted price (gas).
// A workflow's declared retry budget is one of the votes' median fields.
func answerFacts(ans *submissionAnswer, track string) (*receipt.Answer, error) {
	v := &ans.SubmissionView
	a := &receipt.Answer{Submission: v.ID, Track: v.Track, Status: v.Status, UID: v.UID,
		CommitHeight: v.Height, RevealHeight: v.RevealHeight, Duplicate: v.Duplicate, NearCopy: v.NearCopy}
	if v.DuplicateOfUID != nil {
		a.DuplicateOfUID = *v.DuplicateOfUID
	}
	if v.DuplicateOfHeight != nil {
		a.DuplicateOfHeight = *v.DuplicateOfHeight
	}
	for _, m := range []struct{ name, value string }{{"track", v.Track}, {"status", v.Status}} {
		if m.value == "" {
			return nil, fmt.Errorf("%s: missing", m.name)
		}
	}
	var err error
	if specs := receipt.Medians(track); len(specs) > 0 {
		if a.Votes, err = answerVotes(v.Votes, track, specs); err != nil {
			return nil, err
		}
	}
	if track == genesis.TrackGas {
		if v.Gas == nil {
			return nil, fmt.Errorf("gas: missing")
		}
		if a.GasPrice, err = decimalText("price", v.Gas.Price); err != nil {
			return nil, fmt.Errorf("gas.%w", err)
		}
	}
	return a, nil
}

// answerVotes reads the votes' names and the median fields of their track
// member, in specs' order.
func answerVotes(votes []wire.VoteView, track string, specs []receipt.Median) ([]receipt.Vote, error) {
	if votes == nil {
		return nil, fmt.Errorf("votes: missing from the answer")
	}
	out := make([]receipt.Vote, len(votes))
	for i, vote := range votes {
		at := "votes[" + strconv.Itoa(i) + "]"
		fields, err := voteFields(vote, track)
		if err != nil {
			return nil, fmt.Errorf("%s.%w", at, err)
		}
		out[i] = receipt.Vote{Validator: vote.Validator, Values: make([]decimal.Decimal, len(specs)), DuplicateOf: vote.DuplicateOf}
		for j, s := range specs {
			if out[i].Values[j], err = decimalText(s.Name, fields[s.Name]); err != nil {
				return nil, fmt.Errorf("%s.%s.%w", at, track, err)
			}
		}
	}
	return out, nil
}

// voteFields is a vote's measurement of track by field name.
func voteFields(vote wire.VoteView, track string) (map[string]string, error) {
	switch {
	case track == genesis.TrackWorkflow && vote.Workflow != nil:
		return vote.Workflow.Fields(), nil
	case track == genesis.TrackArena && vote.Arena != nil:
		return vote.Arena.Fields(), nil
	}
	return nil, fmt.Errorf("%s: missing", track)
}

// decimalText reads a decimal of at most 18 places; empty text (a field the
// JSON left out) is 0.
func decimalText(name, text string) (decimal.Decimal, error) {
	if text == "" {
		return scoring.Zero, nil
	}
	d, err := scoring.Parse(text)
	if err != nil {
		return scoring.Zero, fmt.Errorf("%s: %w", name, err)
	}
	return d, nil
}
