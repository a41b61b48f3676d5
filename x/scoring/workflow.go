package scoring

import (
	"fmt"
	"strconv"

	"github.com/shopspring/decimal"
)

// WorkflowVersion is the version of subnet-scoring-v1.md that ScoreWorkflow implements.
const WorkflowVersion = "1.0.0"

// WorkflowParams are the constants of the workflow composite score.
type WorkflowParams struct {
	// the weights, summing to exactly 1
	WSuccess     decimal.Decimal `json:"w_success"`
	WCost        decimal.Decimal `json:"w_cost"`
	WLatency     decimal.Decimal `json:"w_latency"`
	WReliability decimal.Decimal `json:"w_reliability"`

	Gate           decimal.Decimal `json:"gate"`            // cost and latency count only when success > Gate
	RetryPenalty   decimal.Decimal `json:"retry_penalty"`   // per unplanned retry
	TimeoutPenalty decimal.Decimal `json:"timeout_penalty"` // per timeout
	FailurePenalty decimal.Decimal `json:"failure_penalty"` // per hard failure
}

// DefaultWorkflowParams are the seed's v1.0.0 constants.
func DefaultWorkflowParams() WorkflowParams {
	return WorkflowParams{
		WSuccess:       decimal.New(50, -2),
		WCost:          decimal.New(25, -2),
		WLatency:       decimal.New(15, -2),
		WReliability:   decimal.New(10, -2),
		Gate:           decimal.New(7, -1),
		RetryPenalty:   decimal.New(10, -2),
		TimeoutPenalty: decimal.New(20, -2),
		FailurePenalty: decimal.New(50, -2),
	}
}

// Validate checks every constant: each in [0, 1] with at most 18 places, and
// the four weights summing to exactly 1 (so the score stays in [0, 1]).
func (p WorkflowParams) Validate() error {
	named := []struct {
		field string
		v     decimal.Decimal
	}{
		{"w_success", p.WSuccess}, {"w_cost", p.WCost}, {"w_latency", p.WLatency},
		{"w_reliability", p.WReliability}, {"gate", p.Gate}, {"retry_penalty", p.RetryPenalty},
		{"timeout_penalty", p.TimeoutPenalty}, {"failure_penalty", p.FailurePenalty},
	}
	for _, n := range named {
		if err := checkUnit(n.field, n.v); err != nil {
			return err
		}
	}
	sum := p.WSuccess.Add(p.WCost).Add(p.WLatency).Add(p.WReliability)
	if !sum.Equal(One) {
		return inputErr("workflow weights", Format(sum), "must sum to exactly 1")
	}
	return nil
}

// WorkflowInput is one executed workflow as the validator measured it.
type WorkflowInput struct {
	OutputQuality                     decimal.Decimal // [0, 1]
	StepsCompleted, TotalSteps        int64           // 0 ≤ completed ≤ total, total ≥ 1
	Cost, MaxBudget                   decimal.Decimal // cost ≥ 0, budget > 0 (TAO)
	LatencySeconds, MaxLatencySeconds decimal.Decimal // latency ≥ 0, limit > 0
	Retries, DeclaredRetryBudget      int64           // actual retries; sum of declared retry_count
	Timeouts, HardFailures            int64
}

// WorkflowResult is the score with every intermediate value, for receipts.
type WorkflowResult struct {
	Score, Success, Cost, Latency, Reliability, CompletionRatio decimal.Decimal
	UnplannedRetries                                            int64
	// Gated is true when the success gate held cost and latency at 0
	// (success ≤ Gate); false when they were scored.
	Gated bool
}

// ScoreWorkflow computes the composite workflow score of subnet-scoring-v1.md.
// Rounding points (half away from zero, 18 places), everything else exact:
//
//	completion_ratio = Quo(steps_completed, total_steps)              (reported)
//	success          = Quo(quality × steps_completed, total_steps)    (one rounding)
//	cost             = max(0, 1 − Quo(cost, max_budget))              if success > gate, else 0
//	latency          = max(0, 1 − Quo(latency, max_latency))          if success > gate, else 0
//	reliability      = min(1, max(0, 1 − (unplanned×0.10 + timeouts×0.20 + failures×0.50)))  (exact)
//	score            = Round(Σ weight × sub-score)                    (one rounding)
func ScoreWorkflow(p WorkflowParams, in WorkflowInput) (WorkflowResult, error) {
	if err := in.validate(); err != nil {
		return WorkflowResult{}, err
	}
	steps, total := decimal.NewFromInt(in.StepsCompleted), decimal.NewFromInt(in.TotalSteps)
	r := WorkflowResult{
		CompletionRatio: Quo(steps, total),
		Success:         Quo(in.OutputQuality.Mul(steps), total),
		Cost:            Zero,
		Latency:         Zero,
	}
	r.Gated = r.Success.Cmp(p.Gate) <= 0
	if !r.Gated {
		r.Cost = headroom(in.Cost, in.MaxBudget)
		r.Latency = headroom(in.LatencySeconds, in.MaxLatencySeconds)
	}
	r.UnplannedRetries = max(0, in.Retries-in.DeclaredRetryBudget)
	penalty := decimal.NewFromInt(r.UnplannedRetries).Mul(p.RetryPenalty).
		Add(decimal.NewFromInt(in.Timeouts).Mul(p.TimeoutPenalty)).
		Add(decimal.NewFromInt(in.HardFailures).Mul(p.FailurePenalty))
	r.Reliability = Clamp01(One.Sub(penalty))
	r.Score = Round(p.WSuccess.Mul(r.Success).
		Add(p.WCost.Mul(r.Cost)).
		Add(p.WLatency.Mul(r.Latency)).
		Add(p.WReliability.Mul(r.Reliability)))
	return r, nil
}

// headroom is max(0, 1 − used/limit), the quotient rounded once; limit > 0.
func headroom(used, limit decimal.Decimal) decimal.Decimal {
	h := One.Sub(Quo(used, limit))
	if h.Sign() < 0 {
		return Zero
	}
	return h
}

func (in WorkflowInput) validate() error {
	if err := checkUnit("output_quality", in.OutputQuality); err != nil {
		return err
	}
	if in.TotalSteps < 1 {
		return inputErr("total_steps", strconv.FormatInt(in.TotalSteps, 10), "must be at least 1")
	}
	if in.StepsCompleted < 0 || in.StepsCompleted > in.TotalSteps {
		return inputErr("steps_completed", strconv.FormatInt(in.StepsCompleted, 10),
			fmt.Sprintf("must be in [0, total_steps = %d]", in.TotalSteps))
	}
	for _, c := range []struct {
		field    string
		v        decimal.Decimal
		positive bool
	}{
		{"cost", in.Cost, false}, {"max_budget", in.MaxBudget, true},
		{"latency_seconds", in.LatencySeconds, false}, {"max_latency_seconds", in.MaxLatencySeconds, true},
	} {
		if err := checkAmount(c.field, c.v, c.positive); err != nil {
			return err
		}
	}
	for _, c := range []struct {
		field string
		v     int64
	}{
		{"retries", in.Retries}, {"declared_retry_budget", in.DeclaredRetryBudget},
		{"timeouts", in.Timeouts}, {"hard_failures", in.HardFailures},
	} {
		if c.v < 0 {
			return inputErr(c.field, strconv.FormatInt(c.v, 10), "must not be negative")
		}
	}
	return nil
}

// checkPlaces rejects a value with a non-zero digit beyond place 18.
func checkPlaces(field string, v decimal.Decimal) error {
	if v.Exponent() < -Places && !v.Equal(Round(v)) {
		return inputErr(field, v.String(), "more than 18 decimal places")
	}
	return nil
}

// checkUnit requires v in [0, 1] with at most 18 places.
func checkUnit(field string, v decimal.Decimal) error {
	if v.Sign() < 0 || v.Cmp(One) > 0 {
		return inputErr(field, v.String(), "must be in [0, 1]")
	}
	return checkPlaces(field, v)
}

// checkAmount requires v ≥ 0 (or > 0 when positive) with at most 18 places.
func checkAmount(field string, v decimal.Decimal, positive bool) error {
	if positive && v.Sign() <= 0 {
		return inputErr(field, v.String(), "must be positive")
	}
	if v.Sign() < 0 {
		return inputErr(field, v.String(), "must not be negative")
	}
	return checkPlaces(field, v)
}
