package genesis

import (
	"errors"
	"fmt"

	"github.com/scoringsubnet/validatord/x/membership"
)

// ScoringLag is the membership.ScoringLag of this genesis: the longest
// submission window, the longest reveal window of any track, the longest
// report window and the epoch. immunity_blocks must exceed it.
func (s AppState) ScoringLag() int64 {
	var reveal int64
	for _, t := range s.Tracks {
		reveal = max(reveal, t.RevealBlocks)
	}
	return membership.ScoringLag(s.Chain.MaxSubmissionBlocks, reveal, s.Chain.MaxReportBlocks, s.Window.EpochBlocks)
}

// validateMembership checks the membership section against chain.max_uids
// and ScoringLag; a failure names membership.<field>.
func (s AppState) validateMembership() error {
	err := s.Membership.Validate(uint32(s.Chain.MaxUIDs), s.ScoringLag())
	if err == nil {
		return nil
	}
	var ie *membership.InputError
	if errors.As(err, &ie) {
		return fieldErr("membership."+ie.Field, ie.Value, ie.Rule)
	}
	return &FieldError{Field: "membership", Value: "(see reason)", Reason: fmt.Sprint(err)}
}
