package receipt

import (
	"fmt"

	"github.com/shopspring/decimal"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// FromSubmission is Verify's input for a stored submission: its receipt and
// its own facts, the votes named by validators (the list Vote.Validator
// indexes, as the submission query names them). Set Chain on the result to
// also compare the recorded params with the chain's. A submission without a
// receipt gives an Input that Verify answers with ErrNoReceipt.
func FromSubmission(sub *subnetv1.Submission, validators []Validator) (Input, error) {
	a := &Answer{Submission: sub.Id, Track: sub.Track, Status: sub.Status, UID: sub.Uid,
		CommitHeight: sub.Height, RevealHeight: sub.RevealHeight, Duplicate: sub.Duplicate,
		DuplicateOfUID: sub.DuplicateOfUid, DuplicateOfHeight: sub.DuplicateOfHeight, NearCopy: sub.NearCopy}
	if sub.Track == scoring.TrackGas && sub.Gas != nil {
		d, err := decimalOrZero(sub.Gas.Price)
		if err != nil {
			return Input{}, fmt.Errorf("submission %d: gas.price: %w", sub.Id, err)
		}
		a.GasPrice = d
	}
	if len(Medians(sub.Track)) > 0 {
		for i, v := range sub.Votes {
			if int(v.Validator) >= len(validators) {
				return Input{}, fmt.Errorf("submission %d: votes[%d]: validator %d of %d", sub.Id, i, v.Validator, len(validators))
			}
			vals, err := measured(v)
			if err != nil {
				return Input{}, fmt.Errorf("submission %d: votes[%d]: %w", sub.Id, i, err)
			}
			a.Votes = append(a.Votes, Vote{Validator: validators[v.Validator].Name, Values: vals, DuplicateOf: v.DuplicateOf})
		}
	}
	return Input{Receipt: sub.Receipt, Commit: CommitFields(sub), Answer: a}, nil
}

// measured is a vote's measurement in the order of Medians(track) (the
// app's order too); a vote without a measurement of the track has no values.
func measured(v *subnetv1.Vote) ([]decimal.Decimal, error) {
	var r decReader
	n := decimal.NewFromInt
	if w := v.Workflow; w != nil {
		return []decimal.Decimal{r.dec(w.OutputQuality), n(w.StepsCompleted), r.dec(w.Cost), r.dec(w.LatencySeconds),
			n(w.Retries), n(w.DeclaredRetryBudget), n(w.Timeouts), n(w.HardFailures)}, r.err
	}
	if a := v.Arena; a != nil {
		return []decimal.Decimal{n(a.TotalTokens), n(a.ToolCalls), n(a.Iterations), r.dec(a.ExecutionTime),
			r.dec(a.EstimatedCost), n(a.CriteriaPassed)}, r.err
	}
	return nil, nil
}

// decReader parses stored decimals and keeps the first error.
type decReader struct{ err error }

func (r *decReader) dec(s string) decimal.Decimal {
	d, err := decimalOrZero(s)
	if err != nil && r.err == nil {
		r.err = err
	}
	return d
}

// decimalOrZero parses a stored decimal; "" (a proto default) is 0.
func decimalOrZero(s string) (decimal.Decimal, error) {
	if s == "" {
		return scoring.Zero, nil
	}
	return decimal.NewFromString(s)
}
