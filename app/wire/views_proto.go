package wire

import subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"

// Views of the proto types that query answers hold. Each has the proto
// message's fields, in its field order, under its json names, with no field
// omitted (the proto structs' `omitempty` would drop zeros: the u16 entry of
// burn uid 0, a vote's zero counts); lists are [] when empty, never null.
// The …ViewOf functions build them (nil for nil); TestViewsMirrorProto checks
// that no proto field is missing.

// ReceiptView is a score receipt: everything needed to recompute one score.
type ReceiptView struct {
	Height        int64       `json:"height"`
	Track         string      `json:"track"`
	Status        string      `json:"status"`
	ReportedPower int64       `json:"reported_power"`
	TotalPower    int64       `json:"total_power"`
	Inputs        []FieldView `json:"inputs"`
	Params        []FieldView `json:"params"`
	Values        []FieldView `json:"values"`
	Score         string      `json:"score"`
	Note          string      `json:"note"`
	// Commit: commit_height, reveal_height, duplicate (and a duplicate's
	// duplicate_of_uid, duplicate_of_commit_height): the submission's own
	// fields (x/receipt.CommitFields), listed with its receipt; nil in a
	// gas agent's last receipt.
	Commit []FieldView `json:"commit"`
}

// FieldView is one named value of a receipt.
type FieldView struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// GasPredictView is a gas prediction.
type GasPredictView struct {
	EvmChainID uint64 `json:"evm_chain_id"`
	EvmBlock   uint64 `json:"evm_block"`
	Price      string `json:"price"`
}

// WorkflowMeasurementView is a validator's measurement of a workflow run.
type WorkflowMeasurementView struct {
	OutputQuality       string `json:"output_quality"`
	StepsCompleted      int64  `json:"steps_completed"`
	Cost                string `json:"cost"`
	LatencySeconds      string `json:"latency_seconds"`
	Retries             int64  `json:"retries"`
	DeclaredRetryBudget int64  `json:"declared_retry_budget"`
	Timeouts            int64  `json:"timeouts"`
	HardFailures        int64  `json:"hard_failures"`
}

// ArenaMeasurementView is a validator's measurement of an arena run.
type ArenaMeasurementView struct {
	TotalTokens    int64  `json:"total_tokens"`
	ToolCalls      int64  `json:"tool_calls"`
	Iterations     int64  `json:"iterations"`
	ExecutionTime  string `json:"execution_time"`
	EstimatedCost  string `json:"estimated_cost"`
	CriteriaPassed int64  `json:"criteria_passed"`
}

// TruthView is a validator's truth of an EVM block.
type TruthView struct {
	EvmChainID uint64 `json:"evm_chain_id"`
	EvmBlock   uint64 `json:"evm_block"`
	MinPrice   string `json:"min_price"`
	Timestamp  int64  `json:"timestamp"`
	// Empty is written only when set: the answers of every truth from
	// before empty truths existed stay byte-identical.
	Empty bool `json:"empty,omitempty"`
}

// WorkflowTaskView is the spec of a workflow task.
type WorkflowTaskView struct {
	TotalSteps        int64  `json:"total_steps"`
	MaxBudget         string `json:"max_budget"`
	MaxLatencySeconds string `json:"max_latency_seconds"`
	SubmissionBlocks  int64  `json:"submission_blocks"`
	ReportBlocks      int64  `json:"report_blocks"`
}

// ArenaTaskView is the spec of an arena task.
type ArenaTaskView struct {
	Category         string             `json:"category"`
	Difficulty       string             `json:"difficulty"`
	CriteriaTotal    int64              `json:"criteria_total"`
	DefaultBaseline  *ArenaBaselineView `json:"default_baseline"`
	SubmissionBlocks int64              `json:"submission_blocks"`
	ReportBlocks     int64              `json:"report_blocks"`
}

// ArenaBaselineView is an arena baseline (scoring.ArenaBaseline).
type ArenaBaselineView struct {
	SubmissionCount     int64  `json:"submission_count"`
	MinTokens           string `json:"min_tokens"`
	Q25Tokens           string `json:"q25_tokens"`
	MedianTokens        string `json:"median_tokens"`
	Q75Tokens           string `json:"q75_tokens"`
	MaxTokens           string `json:"max_tokens"`
	MinToolCalls        string `json:"min_tool_calls"`
	MedianToolCalls     string `json:"median_tool_calls"`
	MaxToolCalls        string `json:"max_tool_calls"`
	MedianIterations    string `json:"median_iterations"`
	MinExecutionTime    string `json:"min_execution_time"`
	MedianExecutionTime string `json:"median_execution_time"`
	MaxExecutionTime    string `json:"max_execution_time"`
	MinCost             string `json:"min_cost"`
	MedianCost          string `json:"median_cost"`
	MaxCost             string `json:"max_cost"`
}

// ArenaSampleView is one submission's measured inputs in a baseline.
type ArenaSampleView struct {
	TotalTokens    int64  `json:"total_tokens"`
	ToolCalls      int64  `json:"tool_calls"`
	Iterations     int64  `json:"iterations"`
	ExecutionTime  string `json:"execution_time"`
	EstimatedCost  string `json:"estimated_cost"`
	CriteriaPassed int64  `json:"criteria_passed"`
	CriteriaTotal  int64  `json:"criteria_total"`
}

// GasAgentView answers "gas/<uid>/<evm chain id>": the agent's memory
// (oldest slot first), history, last prediction, score and last receipt.
type GasAgentView struct {
	UID         uint32                `json:"uid"`
	EvmChainID  uint64                `json:"evm_chain_id"`
	Memory      []GasSlotView         `json:"memory"`
	History     []GasHistoryPointView `json:"history"`
	Last        string                `json:"last"`
	HasLast     bool                  `json:"has_last"`
	Closed      uint64                `json:"closed"`
	LastReceipt *ReceiptView          `json:"last_receipt"`
	LastTime    int64                 `json:"last_time"`
	Score       string                `json:"score"`
	HasScore    bool                  `json:"has_score"`
	// LastFreshHeight is the height of the latest close that judged a fresh
	// prediction (0 before any): the gas track's activity is measured from it.
	LastFreshHeight int64 `json:"last_fresh_height"`
}

// GasSlotView is one slot of a gas agent's memory.
type GasSlotView struct {
	Included    bool   `json:"included"`
	Overpayment string `json:"overpayment"`
	Fresh       bool   `json:"fresh"`
}

// GasHistoryPointView is one point of a gas agent's history.
type GasHistoryPointView struct {
	Time           int64  `json:"time"`
	InclusionRate  string `json:"inclusion_rate"`
	AvgOverpayment string `json:"avg_overpayment"`
}

// EpochResultView is a stored epoch: the weights, the u16 vector and each
// track's input.
type EpochResultView struct {
	Number      uint64           `json:"number"`
	Height      int64            `json:"height"`
	UIDs        []uint32         `json:"uids"`
	Weights     []string         `json:"weights"`
	Unallocated string           `json:"unallocated"`
	U16         []U16WeightView  `json:"u16"`
	Tracks      []TrackScoreView `json:"tracks"`
}

// U16WeightView is one entry of the u16 weight vector.
type U16WeightView struct {
	UID    uint32 `json:"uid"`
	Weight uint32 `json:"weight"`
}

// TrackScoreView is one track's input to an epoch.
type TrackScoreView struct {
	Track  string   `json:"track"`
	Share  string   `json:"share"`
	UIDs   []uint32 `json:"uids"`
	Scores []string `json:"scores"`
}

// List returns s, or an empty list for nil: a list is written [], never null.
func List[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// mapList converts every element of a proto list.
func mapList[P any, V any](ps []P, f func(P) V) []V {
	out := make([]V, len(ps))
	for i, p := range ps {
		out[i] = f(p)
	}
	return out
}

// ReceiptViewOf is the view of a receipt.
func ReceiptViewOf(r *subnetv1.Receipt) *ReceiptView {
	if r == nil {
		return nil
	}
	return &ReceiptView{Height: r.Height, Track: r.Track, Status: r.Status, ReportedPower: r.ReportedPower,
		TotalPower: r.TotalPower, Inputs: fieldViews(r.Inputs), Params: fieldViews(r.Params),
		Values: fieldViews(r.Values), Score: r.Score, Note: r.Note}
}

// FieldViews is the view of receipt fields.
func FieldViews(fs []*subnetv1.Field) []FieldView { return fieldViews(fs) }

func fieldViews(fs []*subnetv1.Field) []FieldView {
	return mapList(fs, func(f *subnetv1.Field) FieldView { return FieldView{Name: f.Name, Value: f.Value} })
}

// GasPredictViewOf is the view of a gas prediction.
func GasPredictViewOf(g *subnetv1.GasPredict) *GasPredictView {
	if g == nil {
		return nil
	}
	return &GasPredictView{EvmChainID: g.EvmChainId, EvmBlock: g.EvmBlock, Price: g.Price}
}

// WorkflowMeasurementViewOf is the view of a workflow measurement.
func WorkflowMeasurementViewOf(m *subnetv1.WorkflowMeasurement) *WorkflowMeasurementView {
	if m == nil {
		return nil
	}
	return &WorkflowMeasurementView{OutputQuality: m.OutputQuality, StepsCompleted: m.StepsCompleted, Cost: m.Cost,
		LatencySeconds: m.LatencySeconds, Retries: m.Retries, DeclaredRetryBudget: m.DeclaredRetryBudget,
		Timeouts: m.Timeouts, HardFailures: m.HardFailures}
}

// ArenaMeasurementViewOf is the view of an arena measurement.
func ArenaMeasurementViewOf(m *subnetv1.ArenaMeasurement) *ArenaMeasurementView {
	if m == nil {
		return nil
	}
	return &ArenaMeasurementView{TotalTokens: m.TotalTokens, ToolCalls: m.ToolCalls, Iterations: m.Iterations,
		ExecutionTime: m.ExecutionTime, EstimatedCost: m.EstimatedCost, CriteriaPassed: m.CriteriaPassed}
}

// TruthViewOf is the view of a truth.
func TruthViewOf(m *subnetv1.MsgTruth) *TruthView {
	if m == nil {
		return nil
	}
	return &TruthView{EvmChainID: m.EvmChainId, EvmBlock: m.EvmBlock, MinPrice: m.MinPrice, Timestamp: m.Timestamp, Empty: m.Empty}
}

// WorkflowTaskViewOf is the view of a workflow task's spec.
func WorkflowTaskViewOf(t *subnetv1.WorkflowTask) *WorkflowTaskView {
	if t == nil {
		return nil
	}
	return &WorkflowTaskView{TotalSteps: t.TotalSteps, MaxBudget: t.MaxBudget, MaxLatencySeconds: t.MaxLatencySeconds,
		SubmissionBlocks: t.SubmissionBlocks, ReportBlocks: t.ReportBlocks}
}

// ArenaTaskViewOf is the view of an arena task's spec.
func ArenaTaskViewOf(t *subnetv1.ArenaTask) *ArenaTaskView {
	if t == nil {
		return nil
	}
	return &ArenaTaskView{Category: t.Category, Difficulty: t.Difficulty, CriteriaTotal: t.CriteriaTotal,
		DefaultBaseline: ArenaBaselineViewOf(t.DefaultBaseline), SubmissionBlocks: t.SubmissionBlocks, ReportBlocks: t.ReportBlocks}
}

// ArenaBaselineViewOf is the view of an arena baseline.
func ArenaBaselineViewOf(b *subnetv1.ArenaBaseline) *ArenaBaselineView {
	if b == nil {
		return nil
	}
	return &ArenaBaselineView{SubmissionCount: b.SubmissionCount,
		MinTokens: b.MinTokens, Q25Tokens: b.Q25Tokens, MedianTokens: b.MedianTokens, Q75Tokens: b.Q75Tokens, MaxTokens: b.MaxTokens,
		MinToolCalls: b.MinToolCalls, MedianToolCalls: b.MedianToolCalls, MaxToolCalls: b.MaxToolCalls, MedianIterations: b.MedianIterations,
		MinExecutionTime: b.MinExecutionTime, MedianExecutionTime: b.MedianExecutionTime, MaxExecutionTime: b.MaxExecutionTime,
		MinCost: b.MinCost, MedianCost: b.MedianCost, MaxCost: b.MaxCost}
}

// ArenaSampleViews are the views of a baseline's samples.
func ArenaSampleViews(ss []*subnetv1.ArenaSample) []ArenaSampleView {
	return mapList(ss, func(s *subnetv1.ArenaSample) ArenaSampleView {
		return ArenaSampleView{TotalTokens: s.TotalTokens, ToolCalls: s.ToolCalls, Iterations: s.Iterations,
			ExecutionTime: s.ExecutionTime, EstimatedCost: s.EstimatedCost, CriteriaPassed: s.CriteriaPassed, CriteriaTotal: s.CriteriaTotal}
	})
}

// GasAgentViewOf is the view of a gas agent.
func GasAgentViewOf(a *subnetv1.GasAgent) *GasAgentView {
	if a == nil {
		return nil
	}
	return &GasAgentView{UID: a.Uid, EvmChainID: a.EvmChainId,
		Memory: mapList(a.Memory, func(s *subnetv1.GasSlot) GasSlotView {
			return GasSlotView{Included: s.Included, Overpayment: s.Overpayment, Fresh: s.Fresh}
		}),
		History: mapList(a.History, func(p *subnetv1.GasHistoryPoint) GasHistoryPointView {
			return GasHistoryPointView{Time: p.Time, InclusionRate: p.InclusionRate, AvgOverpayment: p.AvgOverpayment}
		}),
		Last: a.Last, HasLast: a.HasLast, Closed: a.Closed, LastReceipt: ReceiptViewOf(a.LastReceipt),
		LastTime: a.LastTime, Score: a.Score, HasScore: a.HasScore, LastFreshHeight: a.LastFreshHeight}
}

// EpochResultViewOf is the view of a stored epoch.
func EpochResultViewOf(e *subnetv1.Epoch) *EpochResultView {
	if e == nil {
		return nil
	}
	return &EpochResultView{Number: e.Number, Height: e.Height, UIDs: List(e.Uids), Weights: List(e.Weights),
		Unallocated: e.Unallocated,
		U16: mapList(e.U16, func(w *subnetv1.U16Weight) U16WeightView {
			return U16WeightView{UID: w.Uid, Weight: w.Weight}
		}),
		Tracks: mapList(e.Tracks, func(t *subnetv1.TrackScore) TrackScoreView {
			return TrackScoreView{Track: t.Track, Share: t.Share, UIDs: List(t.Uids), Scores: List(t.Scores)}
		})}
}
