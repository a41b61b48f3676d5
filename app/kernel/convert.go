package kernel

import (
	"github.com/shopspring/decimal"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
	"github.com/scoringsubnet/validatord/x/window"
)

// Dec reads a decimal that was validated on entry (parseDec) or stored
// by this code (scoring.Format); a failure is a broken invariant. Unlike
// scoring.Parse it sets no magnitude limit: a relative gas overpayment over a
// tiny minimum price can exceed 10^30, and a stored value must always read back.
func Dec(s string) decimal.Decimal {
	d, err := decimal.NewFromString(s)
	if err != nil {
		panic("app: stored decimal " + s + ": " + err.Error())
	}
	return d
}

func FmtDec(d decimal.Decimal) string { return scoring.Format(d) }

// BaselineFields lists an arena baseline's decimal Fields in wire order.
func BaselineFields(b *subnetv1.ArenaBaseline) []*string {
	return []*string{
		&b.MinTokens, &b.Q25Tokens, &b.MedianTokens, &b.Q75Tokens, &b.MaxTokens,
		&b.MinToolCalls, &b.MedianToolCalls, &b.MaxToolCalls, &b.MedianIterations,
		&b.MinExecutionTime, &b.MedianExecutionTime, &b.MaxExecutionTime,
		&b.MinCost, &b.MedianCost, &b.MaxCost,
	}
}

var BaselineNames = []string{
	"min_tokens", "q25_tokens", "median_tokens", "q75_tokens", "max_tokens",
	"min_tool_calls", "median_tool_calls", "max_tool_calls", "median_iterations",
	"min_execution_time", "median_execution_time", "max_execution_time",
	"min_cost", "median_cost", "max_cost",
}

func ScoringBaselineFields(b *scoring.ArenaBaseline) []*decimal.Decimal {
	return []*decimal.Decimal{
		&b.MinTokens, &b.Q25Tokens, &b.MedianTokens, &b.Q75Tokens, &b.MaxTokens,
		&b.MinToolCalls, &b.MedianToolCalls, &b.MaxToolCalls, &b.MedianIterations,
		&b.MinExecutionTime, &b.MedianExecutionTime, &b.MaxExecutionTime,
		&b.MinCost, &b.MedianCost, &b.MaxCost,
	}
}

// BaselineToProto encodes a scoring baseline in canonical form.
func BaselineToProto(b scoring.ArenaBaseline) *subnetv1.ArenaBaseline {
	out := &subnetv1.ArenaBaseline{SubmissionCount: b.SubmissionCount}
	src := ScoringBaselineFields(&b)
	for i, dst := range BaselineFields(out) {
		*dst = FmtDec(*src[i])
	}
	return out
}

// BaselineFromProto decodes a baseline whose Fields were validated or stored canonically.
func BaselineFromProto(p *subnetv1.ArenaBaseline) scoring.ArenaBaseline {
	out := scoring.ArenaBaseline{SubmissionCount: p.SubmissionCount}
	dst := ScoringBaselineFields(&out)
	for i, src := range BaselineFields(p) {
		*dst[i] = Dec(*src)
	}
	return out
}

func WindowFromProto(w *subnetv1.Window) window.MinerWindow {
	out := window.MinerWindow{TasksSeen: w.TasksSeen, LastHeight: w.LastHeight, Scores: make([]decimal.Decimal, len(w.Scores))}
	for i, s := range w.Scores {
		out.Scores[i] = Dec(s)
	}
	return out
}

func WindowToProto(w window.MinerWindow) *subnetv1.Window {
	out := &subnetv1.Window{TasksSeen: w.TasksSeen, LastHeight: w.LastHeight, Scores: make([]string, len(w.Scores))}
	for i, s := range w.Scores {
		out.Scores[i] = FmtDec(s)
	}
	return out
}

func sampleToProto(s scoring.ArenaSubmission) *subnetv1.ArenaSample {
	return &subnetv1.ArenaSample{
		TotalTokens: s.TotalTokens, ToolCalls: s.ToolCalls, Iterations: s.Iterations,
		ExecutionTime: FmtDec(s.ExecutionTime), EstimatedCost: FmtDec(s.EstimatedCost),
		CriteriaPassed: s.CriteriaPassed, CriteriaTotal: s.CriteriaTotal,
	}
}

func sampleFromProto(p *subnetv1.ArenaSample) scoring.ArenaSubmission {
	return scoring.ArenaSubmission{
		TotalTokens: p.TotalTokens, ToolCalls: p.ToolCalls, Iterations: p.Iterations,
		ExecutionTime: Dec(p.ExecutionTime), EstimatedCost: Dec(p.EstimatedCost),
		CriteriaPassed: p.CriteriaPassed, CriteriaTotal: p.CriteriaTotal,
	}
}

func BaselineStateFromProto(p *subnetv1.Baseline) window.Baseline {
	out := window.Baseline{Recent: make([]scoring.ArenaSubmission, len(p.Recent))}
	for i, r := range p.Recent {
		out.Recent[i] = sampleFromProto(r)
	}
	return out
}

func BaselineStateToProto(b window.Baseline) *subnetv1.Baseline {
	out := &subnetv1.Baseline{Recent: make([]*subnetv1.ArenaSample, len(b.Recent))}
	for i, r := range b.Recent {
		out.Recent[i] = sampleToProto(r)
	}
	return out
}

func GasAgentFromProto(p *subnetv1.GasAgent) window.GasAgent {
	out := window.GasAgent{HasLast: p.HasLast, Closed: p.Closed, LastTime: p.LastTime}
	if p.HasLast {
		out.Last = Dec(p.Last)
	}
	for _, s := range p.Memory {
		out.Memory = append(out.Memory, scoring.GasSlot{Included: s.Included, Overpayment: Dec(s.Overpayment), Fresh: s.Fresh})
	}
	for _, h := range p.History {
		out.History = append(out.History, scoring.GasHistoryPoint{Time: h.Time, InclusionRate: Dec(h.InclusionRate), AvgOverpayment: Dec(h.AvgOverpayment)})
	}
	return out
}

// GasAgentIntoProto writes a's window state into p, keeping p's identity and receipt.
func GasAgentIntoProto(a window.GasAgent, p *subnetv1.GasAgent) {
	p.HasLast, p.Closed, p.LastTime = a.HasLast, a.Closed, a.LastTime
	p.Last = ""
	if a.HasLast {
		p.Last = FmtDec(a.Last)
	}
	p.Memory = make([]*subnetv1.GasSlot, len(a.Memory))
	for i, s := range a.Memory {
		p.Memory[i] = &subnetv1.GasSlot{Included: s.Included, Overpayment: FmtDec(s.Overpayment), Fresh: s.Fresh}
	}
	p.History = make([]*subnetv1.GasHistoryPoint, len(a.History))
	for i, h := range a.History {
		p.History[i] = &subnetv1.GasHistoryPoint{Time: h.Time, InclusionRate: FmtDec(h.InclusionRate), AvgOverpayment: FmtDec(h.AvgOverpayment)}
	}
}
