package governance

import (
	"fmt"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/valset"
)

// TestValsetCode: each x/valset refusal keeps its result code, wrapped or
// not; anything else is a bad proposal.
func TestValsetCode(t *testing.T) {
	cases := []struct {
		err  error
		code uint32
	}{
		{valset.ErrDuplicateKey, wire.CodeDuplicateKey},
		{valset.ErrEmptySet, wire.CodeEmptySet},
		{valset.ErrTotalPower, wire.CodePowerChange},
		{valset.ErrActivation, wire.CodeActivationHeight},
		{valset.ErrExpiry, wire.CodeProposalClosed},
		{valset.ErrExpired, wire.CodeProposalClosed},
		{valset.ErrDuplicateApproval, wire.CodeDuplicateApproval},
		{valset.ErrNotValidator, wire.CodeNotValidator},
		{valset.ErrInvalidInput, wire.CodeBadProposal},
		{valset.ErrTooManyChanges, wire.CodeBadProposal},
	}
	for _, c := range cases {
		for _, err := range []error{c.err, fmt.Errorf("changes[0]: %w", c.err)} {
			if got := valsetCode(err); got != c.code {
				t.Errorf("valsetCode(%v) = %d, want %d", err, got, c.code)
			}
		}
	}
}

// TestInForce: the entry in force at h is the last whose first height is
// at most h; none before the first.
func TestInForce(t *testing.T) {
	history := []*subnetv1.SetEntry{{From: 1}, {From: 5}, {From: 9}}
	for _, c := range []struct {
		h    int64
		want int // index in history, or -1
	}{{0, -1}, {1, 0}, {4, 0}, {5, 1}, {8, 1}, {9, 2}, {100, 2}} {
		got := SetAt(history, c.h)
		if (c.want < 0 && got != nil) || (c.want >= 0 && got != history[c.want]) {
			t.Errorf("SetAt(%d) = %v, want entry %d", c.h, got, c.want)
		}
	}
	params := []*subnetv1.ParamsEntry{{From: 3}, {From: 7}}
	if ParamsAt(params, 2) != nil || ParamsAt(params, 6) != params[0] || ParamsAt(params, 7) != params[1] {
		t.Error("ParamsAt picks another entry than the last in force")
	}
}
