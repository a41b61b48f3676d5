package tasks

import (
	"fmt"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/commit"
	"github.com/scoringsubnet/validatord/x/quorum"
	"github.com/scoringsubnet/validatord/x/receipt"
)

// Near-copies: an artifact that differs from an earlier one of the same
// task by a byte has another hash, so the exact duplicate rule (execReveal)
// cannot see it; the validators, who read the artifacts, can. A report's
// duplicate_of names the earlier submission the validator judges the
// reported one a copy of, and when the report's votes settle, the names
// settle too (quorum.Verdict): a submission that the settled votes name a
// near-copy of X is a duplicate of X, as if it had revealed X's artifact.
// The verdict stands whatever becomes of X (scored, itself a duplicate,
// expired or contested): it judges this submission's work, and a copy of a
// copy is a copy.

// checkDuplicateOf checks a report's duplicate_of against the reported
// submission sub: 0 names none; else it must be another submission of the
// same task, revealed, whose commit precedes sub's (commit.Precedes).
func checkDuplicateOf(st store.State, sub *subnetv1.Submission, of uint64) *wire.TxError {
	if of == 0 {
		return nil
	}
	const fix = "name an earlier revealed submission of the same task, or 0 for none"
	if of == sub.Id {
		return wire.Reject(wire.CodeBadDuplicateOf, fmt.Sprintf("duplicate_of = %d is the reported submission itself: %s", of, fix))
	}
	x, ok := st.Submission(of)
	switch {
	case !ok:
		return wire.Reject(wire.CodeBadDuplicateOf, fmt.Sprintf("duplicate_of = %d: no such submission; %s", of, fix))
	case x.Track != sub.Track || x.TaskId != sub.TaskId:
		return wire.Reject(wire.CodeBadDuplicateOf, fmt.Sprintf("duplicate_of = %d is not a submission of task %d (submission %d's task): %s", of, sub.TaskId, sub.Id, fix))
	case x.RevealHeight == 0:
		return wire.Reject(wire.CodeBadDuplicateOf, fmt.Sprintf("duplicate_of = %d was never revealed: %s", of, fix))
	case !commit.Precedes(claim(x), claim(sub)):
		return wire.Reject(wire.CodeBadDuplicateOf, fmt.Sprintf("duplicate_of = %d (uid %d, commit height %d) does not precede submission %d (uid %d, commit height %d): a near-copy copies an earlier commit; %s",
			of, x.Uid, x.Height, sub.Id, sub.Uid, sub.Height, fix))
	}
	return nil
}

// nearCopyOf is the submission that sub's settled votes name it a
// near-copy of, if any (quorum.Verdict over the votes in force).
func nearCopyOf(env kernel.Env, sub *subnetv1.Submission) (*subnetv1.Submission, bool) {
	cs := make([]quorum.Choice, len(sub.Votes))
	for i, v := range sub.Votes {
		cs[i] = quorum.Choice{Power: env.Chain.Power(int(v.Validator)), Name: v.DuplicateOf}
	}
	id, ok := quorum.Verdict(cs, env.Chain.Total)
	if !ok {
		return nil, false
	}
	x, ok := env.St.Submission(id)
	if !ok {
		panic(fmt.Sprintf("tasks: submission %d's votes name missing submission %d", sub.Id, id))
	}
	return x, true
}

// markNearCopy makes sub, whose votes settled with out, a duplicate of
// keeper by the validators' verdict: the exact duplicate's path, with a
// receipt that names the verdict's powers and an event that says so.
func markNearCopy(env kernel.Env, sub, keeper *subnetv1.Submission, out quorum.Outcome) []abcitypes.Event {
	var named int64
	for _, v := range sub.Votes {
		if v.DuplicateOf == keeper.Id {
			named += env.Chain.Power(int(v.Validator))
		}
	}
	sub.NearCopy = true
	r := &subnetv1.Receipt{ReportedPower: out.ReportedPower, TotalPower: out.TotalPower,
		Params: receipt.VotePowers(sub.Votes, env.Chain.Registry()),
		Note: fmt.Sprintf("near-copy of submission %d (uid %d, commit height %d) by the validators' verdict: power %d of the %d reported named it (more than half, and at least 1/3 of the total %d)",
			keeper.Id, keeper.Uid, keeper.Height, named, out.ReportedPower, out.TotalPower)}
	return asDuplicate(env, sub, keeper, r, "near_copy", "true", "duplicate_of", kernel.U64s(keeper.Id))
}
