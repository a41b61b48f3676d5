package valset

import "fmt"

// Proposal is a validator-set proposal (Changes) or a params proposal
// (Params), never both, with its life in heights and the approvals so far.
type Proposal struct {
	ID      uint64
	Changes []Change
	Params  *ParamsChange
	// ProposedHeight is the height of the block that took the proposal;
	// ExpiresHeight the last height at which it may be approved.
	ProposedHeight int64
	ExpiresHeight  int64
	// Approvals are the consensus keys of the validators that approved
	// it, ascending, one each (Approve keeps them so).
	Approvals [][]byte
}

// ParamsChange is a params proposal's payload: the new parameters, opaque
// here (the app decodes and validates them), and the height from which they
// hold.
type ParamsChange struct {
	Payload          []byte
	ActivationHeight int64
}

// Validate is the one validity rule of a proposal, for CheckTx and
// FinalizeBlock alike, at the given height: its heights (proposed ≤ height
// ≤ expiry, expiry within Params.MaxProposalBlocks), its form (changes or
// params), and
//
//   - for changes: at most Params.MaxChanges, each well-formed and valid
//     against set as the changes before it left it (Apply), the result at
//     most Params.MaxValidators, and a set whose total power is below
//     MinTotalPower may only rotate report keys;
//   - for params: a non-empty payload and an activation height at least
//     Params.MinUpgradeDelayBlocks after the expiry height.
//
// set is the set the changes will meet: the current set with the queue of
// approved changes applied (Project). Approvals are not looked at (Approve
// checks them one by one). miners may be nil.
func Validate(p Proposal, set Set, height int64, params Params, miners Miners) error {
	if err := checkHeights(p, height, params); err != nil {
		return err
	}
	switch {
	case len(p.Changes) > 0 && p.Params != nil:
		return inputErr(ErrInvalidInput, "params", "(set)", "a proposal changes the validators or the params, not both")
	case p.Params != nil:
		return checkParamsChange(*p.Params, p.ExpiresHeight, params)
	case len(p.Changes) == 0:
		return inputErr(ErrInvalidInput, "changes", "[]", "a proposal needs changes or params")
	}
	return checkChanges(p.Changes, set, params, miners)
}

// checkHeights: 1 ≤ proposed ≤ height, proposed < expiry ≤ proposed +
// MaxProposalBlocks, height ≤ expiry. Each difference is taken only once
// its operands are ordered, so none overflows.
func checkHeights(p Proposal, height int64, params Params) error {
	switch {
	case p.ProposedHeight < 1:
		return inputErr(ErrInvalidInput, "proposed_height", p.ProposedHeight, "must be ≥ 1")
	case p.ProposedHeight > height:
		return inputErr(ErrInvalidInput, "proposed_height", p.ProposedHeight, fmt.Sprintf("after the current height %d", height))
	case p.ExpiresHeight <= p.ProposedHeight || p.ExpiresHeight-p.ProposedHeight > params.MaxProposalBlocks:
		return inputErr(ErrExpiry, "expires_height", p.ExpiresHeight,
			fmt.Sprintf("must be in (%d, %d + %d] (max_proposal_blocks)", p.ProposedHeight, p.ProposedHeight, params.MaxProposalBlocks))
	case height > p.ExpiresHeight:
		return inputErr(ErrExpired, "expires_height", p.ExpiresHeight, fmt.Sprintf("expired before height %d", height))
	}
	return nil
}

func checkParamsChange(pc ParamsChange, expires int64, params Params) error {
	if len(pc.Payload) == 0 {
		return inputErr(ErrInvalidInput, "params.payload", `""`, "must not be empty")
	}
	if pc.ActivationHeight <= expires || pc.ActivationHeight-expires < params.MinUpgradeDelayBlocks {
		return inputErr(ErrActivation, "params.activation_height", pc.ActivationHeight,
			fmt.Sprintf("must be ≥ expires_height %d + min_upgrade_delay_blocks %d", expires, params.MinUpgradeDelayBlocks))
	}
	return nil
}

func checkChanges(changes []Change, set Set, params Params, miners Miners) error {
	if len(changes) > params.MaxChanges {
		return inputErr(ErrTooManyChanges, "changes", len(changes), fmt.Sprintf("more than max_changes %d", params.MaxChanges))
	}
	after, _, err := Apply(set, changes, miners)
	if err != nil {
		return err
	}
	if after.Len() > params.MaxValidators {
		return inputErr(ErrTooManyValidators, "changes", after.Len(), fmt.Sprintf("the set would hold more than max_validators %d", params.MaxValidators))
	}
	if set.TotalPower() >= MinTotalPower {
		return nil
	}
	for i, c := range changes {
		if c.Kind != KindRotateReportKey {
			return inputErr(ErrTotalPower, indexed("changes", i), c,
				fmt.Sprintf("the set's total power %d is below %d: floor(total/3) = 0, no block may change power", set.TotalPower(), MinTotalPower))
		}
	}
	return nil
}
