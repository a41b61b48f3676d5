// Package valset owns the rules of validator-set and parameter proposals
// (docs/governance.md): the Set and its invariants, the changes and
// their validation, approval by more than 2/3 of the power, the rate at
// which approved changes reach CometBFT, slashing on misbehaviour, and the
// sets by height. It is pure: the standard library and x/quorum only; no
// storage, clock or randomness; heights are arguments; every function
// returns new values and never changes its inputs.
//
// # Use
//
//	set, err := valset.NewSet(genesisValidators)         // InitChain
//	hist, _ := valset.History{}.Record(initialHeight, set)
//
//	// MsgValidatorProposal at height h (CheckTx and FinalizeBlock alike):
//	p := valset.Proposal{ID: id, Changes: []valset.Change{
//		valset.AddValidator(valset.Validator{Name: "v5", PubKey: pk, Power: 10, ReportKey: rk}),
//	}, ProposedHeight: h, ExpiresHeight: h + 1000}
//	err = valset.Validate(p, valset.Project(latest, queue, miners), h, params, miners)
//
//	// MsgApprove at height h, signed by report key rk:
//	inForce, _ := hist.At(h)
//	i := inForce.IndexOfReportKey(rk) // -1: not a validator
//	p, err = valset.Approve(p, inForce.Validator(i).PubKey, inForce, h)
//	if err == nil && valset.Approved(p, inForce) {
//		// Validate again: other proposals may have been queued since.
//		if err := valset.Validate(p, valset.Project(latest, queue, miners), h, params, miners); err == nil {
//			queue = append(queue, p.Changes...)
//		}
//	}
//
//	// End of block h: slash first, then one step of the queue.
//	res := valset.Step(latest, queue, miners)
//	// FinalizeBlock.validator_updates = res.Updates; queue = res.Remaining;
//	hist, _ = hist.Record(h+valset.UpdateDelay, res.Set) // when res.Updates or keys changed
//
// # Rules and why
//
//   - Set: non-empty; names, consensus keys and report keys unique; each
//     power in [1, MaxTotalVotingPower] and the total too (CometBFT's
//     MaxInt64/8, spec/abci/abci++_app_requirements.md). The canonical
//     order is ascending by consensus key: a validator's identity never
//     changes, while CometBFT's by-power order moves with every power
//     change. Positions shift when validators come and go, so approvals,
//     refs and updates name consensus keys, never positions.
//   - Changes (add, set_power, remove, rotate_report_key) apply in order,
//     each checked against the set the earlier ones left (Apply), so every
//     prefix of a proposal is a valid set. Step may end a block after any
//     change, so this is what keeps every intermediate set valid: write
//     "add the new one, then remove the old one", not the reverse, when the
//     reverse would empty the set. A report key may not be any validator's
//     (its own included) nor a registered miner's (Miners, the app's hook).
//     A change that moves power must leave a total ≥ MinTotalPower = 3:
//     below it floor(total/3) = 0 and no block could ever move power again.
//   - Validate is the one validity function of a proposal. Heights: 1 ≤
//     proposed ≤ height ≤ expiry ≤ proposed + max_proposal_blocks. A params
//     proposal activates at least min_upgrade_delay_blocks after its
//     expiry, not after its submission: an approval can come as late as the
//     expiry, and nodes must still learn of it the full delay before it
//     applies (a new formula version needs a new binary).
//   - Approval: one per validator of the set, until the expiry; approved
//     when the approvers hold strictly more than 2/3 of the total power of
//     the set in force at the approving height — x/quorum's rule, exact in
//     128-bit integers. An approver that has left counts nothing, one whose
//     power changed counts its current power.
//   - Rate: Step moves at most floor(T/3) of power per block, T the total
//     before the block, counting |Δ| of every change (an add, a removal and
//     a power change by their power moved). See below.
//   - Slash: with the genesis switch on, misbehaviour queues a Remove of the
//     offender at the head of the queue; it never removes the last
//     validator (refused with ErrEmptySet, for the app to report).
//   - History: CometBFT applies the updates of block H from H + 2
//     (UpdateDelay, spec/abci/abci++_methods.md, FinalizeBlock), so the app
//     records each new set from H + 2 and every quorum at height x uses
//     History.At(x): the powers and report keys CometBFT itself uses there.
//     Step and Project work on the latest set (the one the next updates
//     apply to), not the one in force, so consecutive steps are consecutive
//     CometBFT sets and the 1/3 bound holds between any two adjacent heights.
//
// # Why at most a third per block, and why split rather than refuse
//
// CometBFT is safe while less than 1/3 of each set's power is faulty, and
// a light client trusts a header signed by more than max(1/3, trust level)
// of a set it already trusts (spec/light-client/verification/README.md:
// then at least one honest validator signed). Let a block move at most
// T/3: increases I and decreases D with I + D ≤ T/3, new total T' = T + I −
// D. Then
//
//   - the power that entered holds at most I/T' ≤ (T/3)/(4T/3) = 1/4 of
//     the new set: newcomers alone can neither make a quorum nor reach the
//     1/3 that halts consensus, whatever the proposal said;
//   - the signers of any commit of the new set (> 2T'/3) held at least
//     2T'/3 − I ≥ 2T/3 − 2(I + D)/3 ≥ 4T/9 > T/3 of the previous set's
//     power, so each new set is vouched for by more than a third of the
//     one before it, and a light client at trust level 1/3 can cross any
//     single block without the hash chain of validator sets.
//
// A change that alone moves more than floor(T/3) therefore is not applied
// alone in its own block (that block would break both bounds). Nor is it
// refused at proposal time: T can shrink before the change runs (a slash,
// another proposal), so no check at proposal time settles it, and refusing
// would make a large legitimate change (a validator joining at half the
// power) impossible rather than slow. Step splits it: the part that fits
// is applied and the remainder heads the next block's queue; an add at
// power X completes in about log_{4/3}((T + X)/T) blocks (X = T: 3). A
// slash goes through the same budget: evidence is about heights already
// past, and a few blocks of delay do not weaken a set the offender already
// held less than a third of; an offender with more than a third had already
// broken CometBFT's assumption, and removing it in one block would break
// the bound for the honest rest.
//
// # Errors
//
// Every error wraps one sentinel; Name gives its stable name, which the app
// maps to a result code. The names: invalid_input, duplicate_key,
// duplicate_name, miner_key, unknown_validator, empty_set, total_power,
// too_many_validators, too_many_changes, expiry, expired, activation,
// not_validator, duplicate_approval, invalid_params.
package valset
