package app

import (
	"encoding/hex"

	"github.com/scoringsubnet/validatord/app/wire"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/quorum"
)

func hexs(b []byte) string { return hex.EncodeToString(b) }

func (a *App) execReport(st state, ct *checkedTx, m *subnetv1.MsgReport, bs *blockState) []abcitypes.Event {
	sub, _ := st.submission(m.SubmissionId)
	vote := &subnetv1.Vote{Validator: uint32(ct.validator), Height: bs.height}
	if w := m.GetWorkflow(); w != nil {
		vote.Workflow = canonicalWorkflowMeasurement(w)
	} else {
		vote.Arena = canonicalArenaMeasurement(m.GetArena())
	}
	sub.Votes = append(sub.Votes, vote)
	evs := []abcitypes.Event{wire.Event(wire.EventReportReceived, "submission_id", u64s(sub.Id),
		"validator", a.chain.gen.Validators[ct.validator].Name)}
	evs = append(evs, a.settle(st, sub, false, bs)...)
	st.save(keySubmission(sub.Id), sub)
	return evs
}

func canonicalWorkflowMeasurement(w *subnetv1.WorkflowMeasurement) *subnetv1.WorkflowMeasurement {
	c := *w
	c.OutputQuality = fmtDec(mustDec(w.OutputQuality))
	c.Cost = fmtDec(mustDec(w.Cost))
	c.LatencySeconds = fmtDec(mustDec(w.LatencySeconds))
	return &c
}

func canonicalArenaMeasurement(m *subnetv1.ArenaMeasurement) *subnetv1.ArenaMeasurement {
	c := *m
	c.ExecutionTime = fmtDec(mustDec(m.ExecutionTime))
	c.EstimatedCost = fmtDec(mustDec(m.EstimatedCost))
	return &c
}

// voteValues lists a vote's measured values in the track's field order.
func voteValues(v *subnetv1.Vote) []decimal.Decimal {
	if w := v.Workflow; w != nil {
		return []decimal.Decimal{mustDec(w.OutputQuality), decimal.NewFromInt(w.StepsCompleted), mustDec(w.Cost),
			mustDec(w.LatencySeconds), decimal.NewFromInt(w.Retries), decimal.NewFromInt(w.Timeouts), decimal.NewFromInt(w.HardFailures)}
	}
	ar := v.Arena
	return []decimal.Decimal{decimal.NewFromInt(ar.TotalTokens), decimal.NewFromInt(ar.ToolCalls), decimal.NewFromInt(ar.Iterations),
		mustDec(ar.ExecutionTime), mustDec(ar.EstimatedCost), decimal.NewFromInt(ar.CriteriaPassed)}
}

// aggregate runs quorum.Aggregate over a submission's votes.
func (a *App) aggregate(votes []*subnetv1.Vote, atDeadline bool) (quorum.Outcome, error) {
	wv := make([]quorum.Vote, len(votes))
	for i, v := range votes {
		wv[i] = quorum.Vote{Validator: a.chain.addresses[v.Validator], Power: a.chain.gen.Validators[v.Validator].Power, Values: voteValues(v)}
	}
	return quorum.Aggregate(wv, a.chain.total, atDeadline)
}

// settle aggregates a pending submission's votes and, when they settle,
// scores (workflow), queues for the end of the block (arena) or expires it.
// The caller saves sub.
func (a *App) settle(st state, sub *subnetv1.Submission, atDeadline bool, bs *blockState) []abcitypes.Event {
	out, err := a.aggregate(sub.Votes, atDeadline)
	if err != nil {
		sub.Status = statusFailed
		sub.Receipt = &subnetv1.Receipt{Height: bs.height, Track: sub.Track, Status: statusFailed, Note: "aggregation: " + err.Error()}
		return nil
	}
	switch out.Status {
	case quorum.StatusPending:
		return nil
	case quorum.StatusExpired:
		sub.Status = statusExpired
		sub.Receipt = &subnetv1.Receipt{Height: bs.height, Track: sub.Track, Status: statusExpired,
			ReportedPower: out.ReportedPower, TotalPower: out.TotalPower,
			Note: "report deadline reached with at most 1/3 of the voting power reported"}
		return []abcitypes.Event{wire.Event(wire.EventSubmissionExpired, "submission_id", u64s(sub.Id), "uid", u64s(uint64(sub.Uid)),
			"reported_power", i64s(out.ReportedPower), "total_power", i64s(out.TotalPower))}
	}
	if sub.Track == genesis.TrackArena {
		sub.Status = statusFinal
		bs.arenaBatch = append(bs.arenaBatch, sub.Id)
		return nil
	}
	return a.scoreWorkflow(st, sub, out, bs)
}
