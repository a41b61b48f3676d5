package client

import (
	"context"
	"strconv"

	"github.com/scoringsubnet/validatord/app/wire"
)

// Score is one submission score a transaction caused: a workflow report
// that completed a quorum scores in the transaction itself; an arena run is
// scored by the end of the report's block (the block's events).
type Score struct {
	SubmissionID uint64 `json:"submission_id"`
	UID          uint32 `json:"uid"`
	Track        string `json:"track"`
	Score        string `json:"score"`
}

// ScoresOf returns the submission_scored events among evs, in order, and
// keeps only those whose submission is in ids when ids is not nil.
func ScoresOf(evs []Event, ids map[string]bool) []Score {
	var out []Score
	for _, e := range evs {
		if e.Type != wire.EventSubmissionScored {
			continue
		}
		one := TxResult{Events: []Event{e}}
		id, _ := one.Attr(e.Type, "submission_id")
		if ids != nil && !ids[id] {
			continue
		}
		sub, _ := strconv.ParseUint(id, 10, 64)
		uid, _ := one.AttrU64(e.Type, "uid")
		track, _ := one.Attr(e.Type, "track")
		score, _ := one.Attr(e.Type, "score")
		out = append(out, Score{SubmissionID: sub, UID: uint32(uid), Track: track, Score: score})
	}
	return out
}

// submissionsNamed are the submission ids that res's events name.
func submissionsNamed(res TxResult) map[string]bool {
	ids := map[string]bool{}
	for _, e := range res.Events {
		for _, a := range e.Attributes {
			if a.Key == "submission_id" {
				ids[a.Value] = true
			}
		}
	}
	return ids
}

// AddScores fills res.Scores for a transaction included in a block (Height
// set, code 0): the scores among its own events, then those that the end
// of its block gave the submissions its events name (an arena report's run
// is scored there). A score the end of a later block gives (a run whose
// scoring waited for the block's work budget) is not the transaction's
// doing and is not looked for.
func (c *Client) AddScores(ctx context.Context, res *TxResult) error {
	if res.Height <= 0 || res.Code != wire.CodeOK {
		return nil
	}
	res.Scores = ScoresOf(res.Events, nil)
	ids := submissionsNamed(*res)
	if len(ids) == 0 {
		return nil
	}
	h := res.Height
	br, err := c.rpc.BlockResults(ctx, &h)
	if err != nil {
		return c.wrap(err)
	}
	res.Scores = append(res.Scores, ScoresOf(convertEvents(br.FinalizeBlockEvents), ids)...)
	return nil
}
