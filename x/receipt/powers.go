package receipt

import (
	"strconv"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// powerPrefix names a vote's power among the params: power.<validator name>.
const powerPrefix = "power."

// VotePowers records the voting power of each vote's validator as
// "power.<validator name>", in the votes' (arrival) order: with the votes of
// the submission answer they give every weighted median of the inputs.
// validators is the chain's list that Vote.Validator indexes.
func VotePowers(votes []*subnetv1.Vote, validators []Validator) []*subnetv1.Field {
	out := make([]*subnetv1.Field, len(votes))
	for i, v := range votes {
		val := validators[v.Validator]
		out[i] = &subnetv1.Field{Name: powerPrefix + val.Name, Value: strconv.FormatInt(val.Power, 10)}
	}
	return out
}

// Median is one receipt input that is the weighted median of the vote field
// of the same name; an integer one compares as an integer.
type Median struct {
	Name    string
	Integer bool
}

var (
	workflowMedians = []Median{{"output_quality", false}, {"steps_completed", true}, {"cost", false},
		{"latency_seconds", false}, {"retries", true}, {"declared_retry_budget", true}, {"timeouts", true}, {"hard_failures", true}}
	arenaMedians = []Median{{"total_tokens", true}, {"tool_calls", true}, {"iterations", true},
		{"execution_time", false}, {"estimated_cost", false}, {"criteria_passed", true}}
)

// Medians lists the inputs of a track that are weighted medians of its votes,
// in the order of Vote.Values (and of the measurement's fields); nil for gas
// and unknown tracks.
func Medians(track string) []Median {
	switch track {
	case scoring.TrackWorkflow:
		return append([]Median(nil), workflowMedians...)
	case scoring.TrackArena:
		return append([]Median(nil), arenaMedians...)
	}
	return nil
}
