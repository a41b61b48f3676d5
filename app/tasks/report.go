package tasks

import (
	"fmt"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/quorum"
	"github.com/scoringsubnet/validatord/x/receipt"
)

func checkReport(env kernel.Env, tx *kernel.Tx, m *subnetv1.MsgReport) *wire.TxError {
	_, terr := checkReportOf(env, tx, m)
	return terr
}

// checkReportOf is checkReport that also returns the submission it loaded
// when the report is valid, for execReportOn (Apply loads it once).
func checkReportOf(env kernel.Env, tx *kernel.Tx, m *subnetv1.MsgReport) (*subnetv1.Submission, *wire.TxError) {
	if terr := env.RequireValidator(tx, "report"); terr != nil {
		return nil, terr
	}
	st := env.St
	sub, ok := st.Submission(m.SubmissionId)
	if !ok {
		return nil, wire.Reject(wire.CodeUnknownSubmission, fmt.Sprintf("submission_id = %d: no such submission", m.SubmissionId))
	}
	if sub.Track == genesis.TrackGas {
		return nil, wire.Reject(wire.CodeWrongKind, fmt.Sprintf("submission_id = %d is a gas prediction: it is scored by Truth, not Report", m.SubmissionId))
	}
	task, ok := st.Task(sub.TaskId)
	if !ok {
		panic(fmt.Sprintf("tasks: submission %d refers to missing task %d", sub.Id, sub.TaskId))
	}
	// the duplicate verdict of a revealed submission is final only once no
	// reveal of the task can come: nobody measures what may yet be a copy
	if h := env.Block.Height; h <= task.RevealDeadline {
		return nil, wire.Reject(wire.CodeRevealWindow, fmt.Sprintf("submission_id = %d: reports open at height %d, after task %d's reveal window (now %d)",
			m.SubmissionId, task.RevealDeadline+1, task.Id, h))
	}
	if sub.Status == kernel.StatusContested {
		return nil, wire.Reject(wire.CodeContested, fmt.Sprintf("submission_id = %d was contested at its report deadline: it ended unscored", m.SubmissionId))
	}
	if sub.Status != kernel.StatusPending {
		return nil, wire.Reject(wire.CodeSubmissionFinal, fmt.Sprintf("submission_id = %d is %s", m.SubmissionId, sub.Status))
	}
	if h := env.Block.Height; h > sub.ReportDeadline {
		return nil, wire.Reject(wire.CodeReportDeadline, fmt.Sprintf("submission_id = %d: reports closed at height %d (now %d)", m.SubmissionId, sub.ReportDeadline, h))
	}
	for _, v := range sub.Votes {
		if int(v.Validator) == tx.Validator {
			return nil, wire.Reject(wire.CodeDuplicateReport, fmt.Sprintf("validator %q already reported on submission %d", env.Chain.ValidatorName(tx.Validator), m.SubmissionId))
		}
	}
	if terr := checkMeasurement(m, sub, task); terr != nil {
		return nil, terr
	}
	if terr := checkDuplicateOf(st, sub, m.DuplicateOf); terr != nil {
		return nil, terr
	}
	return sub, nil
}

// checkMeasurement checks that the report's measurement is of the
// submission's track and within the task's ranges.
func checkMeasurement(m *subnetv1.MsgReport, sub *subnetv1.Submission, task *subnetv1.Task) *wire.TxError {
	switch k := m.Measurement.(type) {
	case *subnetv1.MsgReport_Workflow:
		if sub.Track != genesis.TrackWorkflow {
			return wire.Reject(wire.CodeWrongKind, fmt.Sprintf("submission_id = %d is %s, the report is workflow", m.SubmissionId, sub.Track))
		}
		if k.Workflow == nil {
			return wire.Reject(wire.CodeEmptyMsg, "report.workflow is empty")
		}
		return checkWorkflowMeasurement(k.Workflow, task.GetWorkflow().TotalSteps)
	case *subnetv1.MsgReport_Arena:
		if sub.Track != genesis.TrackArena {
			return wire.Reject(wire.CodeWrongKind, fmt.Sprintf("submission_id = %d is %s, the report is arena", m.SubmissionId, sub.Track))
		}
		if k.Arena == nil {
			return wire.Reject(wire.CodeEmptyMsg, "report.arena is empty")
		}
		return checkArenaMeasurement(k.Arena, task.GetArena().CriteriaTotal)
	}
	return wire.Reject(wire.CodeEmptyMsg, "report has no measurement")
}

func execReport(env kernel.Env, tx *kernel.Tx, m *subnetv1.MsgReport) []abcitypes.Event {
	sub, _ := env.St.Submission(m.SubmissionId)
	return execReportOn(env, tx, m, sub)
}

// execReportOn is execReport on the submission checkReportOf loaded.
func execReportOn(env kernel.Env, tx *kernel.Tx, m *subnetv1.MsgReport, sub *subnetv1.Submission) []abcitypes.Event {
	st := env.St
	vote := &subnetv1.Vote{Validator: uint32(tx.Validator), Height: env.Block.Height, DuplicateOf: m.DuplicateOf}
	if w := m.GetWorkflow(); w != nil {
		vote.Workflow = canonicalWorkflowMeasurement(w)
	} else {
		vote.Arena = canonicalArenaMeasurement(m.GetArena())
	}
	sub.Votes = append(sub.Votes, vote)
	evs := []abcitypes.Event{wire.Event(wire.EventReportReceived, "submission_id", kernel.U64s(sub.Id),
		"validator", env.Chain.ValidatorName(tx.Validator))}
	evs = append(evs, settle(env, sub, false)...)
	st.Save(store.KeySubmission(sub.Id), sub)
	return evs
}

// voteValues lists a vote's measured values in the track's field order, the
// order of receipt.Medians (whose verifier re-derives each median from them).
func voteValues(v *subnetv1.Vote) []decimal.Decimal {
	if w := v.Workflow; w != nil {
		return []decimal.Decimal{kernel.Dec(w.OutputQuality), decimal.NewFromInt(w.StepsCompleted), kernel.Dec(w.Cost),
			kernel.Dec(w.LatencySeconds), decimal.NewFromInt(w.Retries), decimal.NewFromInt(w.DeclaredRetryBudget),
			decimal.NewFromInt(w.Timeouts), decimal.NewFromInt(w.HardFailures)}
	}
	ar := v.Arena
	return []decimal.Decimal{decimal.NewFromInt(ar.TotalTokens), decimal.NewFromInt(ar.ToolCalls), decimal.NewFromInt(ar.Iterations),
		kernel.Dec(ar.ExecutionTime), kernel.Dec(ar.EstimatedCost), decimal.NewFromInt(ar.CriteriaPassed)}
}

// aggregate runs the weighted-median quorum over a submission's votes.
func aggregate(c *kernel.Chain, votes []*subnetv1.Vote, atDeadline bool) (quorum.Outcome, error) {
	wv := make([]quorum.Vote, len(votes))
	for i, v := range votes {
		wv[i] = quorum.Vote{Validator: c.Address(int(v.Validator)), Power: c.Power(int(v.Validator)), Values: voteValues(v)}
	}
	return quorum.Aggregate(wv, c.Total, atDeadline, c.Quorum)
}

// pendingByPower: before its deadline, the counted votes' power alone
// leaves a submission pending (at most 2/3 of the total): aggregate would
// answer StatusPending after parsing every vote's values, which cannot
// fail here (one vote per validator in force, each checked and stored in
// canonical form), so a report that does not reach the quorum parses no
// decimal. Without it every report re-parsed all the votes before it.
func pendingByPower(c *kernel.Chain, votes []*subnetv1.Vote) bool {
	var reported int64
	for _, v := range votes {
		reported += c.Power(int(v.Validator))
	}
	return reported <= c.Total && c.Quorum.Status(reported, c.Total, false) == quorum.StatusPending
}

// settle aggregates a pending submission's votes and, when they settle,
// makes it a duplicate if they name it a near-copy (nearCopyOf), or else
// scores it (workflow), queues it for the end of the block (arena), expires
// it or ends it contested. The caller saves sub.
func settle(env kernel.Env, sub *subnetv1.Submission, atDeadline bool) []abcitypes.Event {
	h := env.Block.Height
	sub.Votes = env.Chain.Counted(sub.Votes) // the power in force at this height decides
	if !atDeadline && pendingByPower(env.Chain, sub.Votes) {
		return nil
	}
	out, err := aggregate(env.Chain, sub.Votes, atDeadline)
	if err != nil {
		sub.Status = kernel.StatusFailed
		kernel.Attach(sub, &subnetv1.Receipt{Height: h, Track: sub.Track, Status: kernel.StatusFailed, Note: "aggregation: " + err.Error()})
		return nil
	}
	switch out.Status {
	case quorum.StatusPending:
		return nil
	case quorum.StatusExpired:
		sub.Status = kernel.StatusExpired
		kernel.Attach(sub, &subnetv1.Receipt{Height: h, Track: sub.Track, Status: kernel.StatusExpired,
			ReportedPower: out.ReportedPower, TotalPower: out.TotalPower,
			Note: "report deadline reached with at most " + env.Chain.Quorum.DeadlineQuorum().String() + " of the voting power reported (chain.deadline_quorum)"})
		return []abcitypes.Event{wire.Event(wire.EventSubmissionExpired, "submission_id", kernel.U64s(sub.Id), "uid", kernel.U64s(uint64(sub.Uid)),
			"reported_power", kernel.I64s(out.ReportedPower), "total_power", kernel.I64s(out.TotalPower))}
	case quorum.StatusContested:
		return contest(env, sub, out)
	}
	// the same settled votes that give the score say whether it is a copy
	if keeper, ok := nearCopyOf(env, sub); ok {
		return markNearCopy(env, sub, keeper, out)
	}
	if sub.Track == genesis.TrackArena {
		sub.Status = kernel.StatusFinal
		store.Due{St: env.St, Kind: store.DueArena}.Add(env.Block.Height, sub.Id)
		return nil
	}
	return scoreWorkflow(env, sub, out)
}

// contest ends a submission whose deadline settlement was contested: the
// deadline quorum reported, but a median was not bracketed, so a coalition
// below 1/3 of the power could have chosen it. Like an expired one, it
// stays unscored and nothing enters the miner's window.
func contest(env kernel.Env, sub *subnetv1.Submission, out quorum.Outcome) []abcitypes.Event {
	medians := receipt.Medians(sub.Track)
	fields := kernel.JoinFields(out.Unbracketed, func(f int) string { return medians[f].Name })
	sub.Status = kernel.StatusContested
	kernel.Attach(sub, &subnetv1.Receipt{Height: env.Block.Height, Track: sub.Track, Status: kernel.StatusContested,
		ReportedPower: out.ReportedPower, TotalPower: out.TotalPower,
		Note: "report deadline reached, but the median of " + fields + " had less than 1/3 of the voting power reported at or below it, or at or above it: a minority could have chosen it, so nothing settles"})
	return []abcitypes.Event{wire.Event(wire.EventSubmissionContested, "submission_id", kernel.U64s(sub.Id), "uid", kernel.U64s(uint64(sub.Uid)),
		"fields", fields, "reported_power", kernel.I64s(out.ReportedPower), "total_power", kernel.I64s(out.TotalPower))}
}
