package offline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/x/receipt"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// answerID reads the "id" of a submission answer.
func answerID(obj jsonObject) (uint64, error) {
	raw, ok := obj["id"]
	if !ok {
		return 0, fmt.Errorf("id: missing (a line with a receipt member must be a whole submission answer)")
	}
	text, err := numberText(raw)
	if err != nil {
		return 0, fmt.Errorf("id: %v", err)
	}
	id, err := strconv.ParseUint(text, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("id: %q is not a submission id", text)
	}
	return id, nil
}

// answerFacts reads what receipt.Verify compares of a whole answer whose
// receipt is of track: the votes' median fields (workflow, arena), the
// answer's track, status and commit facts, and the predicted price (gas).
// A workflow's declared retry budget is one of the votes' median fields.
func answerFacts(obj jsonObject, id uint64, track string) (*receipt.Answer, error) {
	a := &receipt.Answer{Submission: id}
	var err error
	if specs := receipt.Medians(track); len(specs) > 0 {
		if a.Votes, err = answerVotes(obj, track, specs); err != nil {
			return nil, err
		}
	}
	if a.Track, err = obj.str("track"); err != nil {
		return nil, err
	}
	if a.Status, err = obj.str("status"); err != nil {
		return nil, err
	}
	if err := answerCommit(obj, a); err != nil {
		return nil, err
	}
	if track == genesis.TrackGas {
		g, err := obj.object("gas")
		if err != nil {
			return nil, err
		}
		if a.GasPrice, err = g.decimal("price"); err != nil {
			return nil, fmt.Errorf("gas.%w", err)
		}
	}
	return a, nil
}

// answerVotes reads the answer's votes: each validator's name and the
// median fields of its track member, in specs' order; a field the JSON
// omits is 0 (the app's JSON omits zero counts).
func answerVotes(answer jsonObject, track string, specs []receipt.Median) ([]receipt.Vote, error) {
	raw, ok := answer["votes"]
	if !ok || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, fmt.Errorf("votes: missing from the answer")
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("votes: %v", err)
	}
	out := make([]receipt.Vote, len(list))
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
		m, err := obj.object(track)
		if err != nil {
			return nil, fmt.Errorf("%s.%w", at, err)
		}
		out[i] = receipt.Vote{Validator: name, Values: make([]decimal.Decimal, len(specs))}
		for j, s := range specs {
			out[i].Values[j] = scoring.Zero
			if f, ok := m[s.Name]; ok {
				d, err := decimalField(s.Name, f)
				if err != nil {
					return nil, fmt.Errorf("%s.%s.%w", at, track, err)
				}
				out[i].Values[j] = d
			}
		}
	}
	return out, nil
}

// answerCommit reads the answer's uid and commit facts: height (the
// commit's), reveal_height, duplicate, and the keeper's duplicate_of_uid
// and duplicate_of_height (null unless a duplicate: 0).
func answerCommit(obj jsonObject, a *receipt.Answer) error {
	uid, err := obj.int64("uid")
	if err != nil {
		return err
	}
	if uid < 0 || uid > math.MaxUint32 {
		return fmt.Errorf("uid: %d is not a uid", uid)
	}
	a.UID = uint32(uid)
	if a.CommitHeight, err = obj.int64("height"); err != nil {
		return err
	}
	if a.RevealHeight, err = obj.int64("reveal_height"); err != nil {
		return err
	}
	if a.Duplicate, err = obj.boolean("duplicate"); err != nil {
		return err
	}
	keeper, err := optionalInt(obj, "duplicate_of_uid")
	if err != nil {
		return err
	}
	if keeper < 0 || keeper > math.MaxUint32 {
		return fmt.Errorf("duplicate_of_uid: %d is not a uid", keeper)
	}
	a.DuplicateOfUID = uint32(keeper)
	a.DuplicateOfHeight, err = optionalInt(obj, "duplicate_of_height")
	return err
}
