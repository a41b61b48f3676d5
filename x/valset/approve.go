package valset

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/scoringsubnet/validatord/x/quorum"
)

// Approve records voter's approval of p at height and returns the updated
// proposal (p itself is not changed). voter is a consensus key; the app
// finds it from the report key that signed the transaction
// (Set.IndexOfReportKey). Refused: past p's expiry (ErrExpired), a voter
// that is not a validator of set (ErrNotValidator), a second approval by the
// same validator (ErrDuplicateApproval).
func Approve(p Proposal, voter []byte, set Set, height int64) (Proposal, error) {
	if height > p.ExpiresHeight {
		return Proposal{}, inputErr(ErrExpired, "height", height, fmt.Sprintf("proposal %d expired at height %d", p.ID, p.ExpiresHeight))
	}
	if set.Index(voter) < 0 {
		return Proposal{}, inputErr(ErrNotValidator, "voter", hexOf(voter), "no validator of the set has this consensus key")
	}
	at, found := slices.BinarySearchFunc(p.Approvals, voter, bytes.Compare)
	if found {
		return Proposal{}, inputErr(ErrDuplicateApproval, "voter", hexOf(voter), fmt.Sprintf("already approved proposal %d", p.ID))
	}
	p.Approvals = slices.Insert(slices.Clone(p.Approvals), at, bytes.Clone(voter))
	return p, nil
}

// ApprovedPower is the power in set of the validators that approved p;
// approvers no longer in set count nothing, and each validator counts once.
func ApprovedPower(p Proposal, set Set) int64 {
	var power int64
	for _, v := range set.vals {
		if slices.ContainsFunc(p.Approvals, func(k []byte) bool { return bytes.Equal(k, v.PubKey) }) {
			power += v.Power // ≤ total ≤ MaxTotalVotingPower: no overflow
		}
	}
	return power
}

// Approved reports whether the approvers hold strictly more than 2/3 of
// set's total power: x/quorum's rule (quorum.Rule.Status, exact in 128-bit
// integers), the one every decision of the validators uses. set is the set
// in force at the height of the approving block.
func Approved(p Proposal, set Set) bool {
	if set.total <= 0 {
		return false
	}
	return quorum.DefaultRule().Status(ApprovedPower(p, set), set.total, false) == quorum.StatusFinal
}
