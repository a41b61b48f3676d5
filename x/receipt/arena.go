package receipt

import (
	"strings"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// The arena schema: ScoreArena's submission, constants, baseline, the rows
// of the category and difficulty tables it picked, and its intermediates.

const (
	// weightsPrefix names the recorded category weights (weights.efficiency, …).
	weightsPrefix = "weights."
	// multiplierName is the recorded difficulty multiplier.
	multiplierName = "difficulty_multiplier"
)

func arenaInputSchema(s *scoring.ArenaSubmission, category, difficulty *string) []binding {
	return []binding{
		bInt("total_tokens", &s.TotalTokens), bInt("tool_calls", &s.ToolCalls), bInt("iterations", &s.Iterations),
		bDec("execution_time", &s.ExecutionTime), bDec("estimated_cost", &s.EstimatedCost),
		bInt("criteria_passed", &s.CriteriaPassed), bInt("criteria_total", &s.CriteriaTotal),
		bStr("category", category), bStr("difficulty", difficulty),
	}
}

func arenaConstSchema(p *scoring.ArenaParams) []binding {
	return []binding{bDec("token_weight", &p.TokenWeight), bDec("tool_call_weight", &p.ToolCallWeight),
		bDec("iteration_weight", &p.IterationWeight), bDec("speed_exponent", &p.SpeedExponent),
		bDec("missing_score", &p.MissingScore), bDec("iteration_step", &p.IterationStep),
		bDec("iteration_floor", &p.IterationFloor), bDec("iteration_over_step", &p.IterationOverStep)}
}

func arenaBaselineSchema(b *scoring.ArenaBaseline) []binding {
	return []binding{bInt("baseline.submission_count", &b.SubmissionCount),
		bDec("baseline.min_tokens", &b.MinTokens), bDec("baseline.q25_tokens", &b.Q25Tokens),
		bDec("baseline.median_tokens", &b.MedianTokens), bDec("baseline.q75_tokens", &b.Q75Tokens),
		bDec("baseline.max_tokens", &b.MaxTokens), bDec("baseline.min_tool_calls", &b.MinToolCalls),
		bDec("baseline.median_tool_calls", &b.MedianToolCalls), bDec("baseline.max_tool_calls", &b.MaxToolCalls),
		bDec("baseline.median_iterations", &b.MedianIterations),
		bDec("baseline.min_execution_time", &b.MinExecutionTime),
		bDec("baseline.median_execution_time", &b.MedianExecutionTime),
		bDec("baseline.max_execution_time", &b.MaxExecutionTime), bDec("baseline.min_cost", &b.MinCost),
		bDec("baseline.median_cost", &b.MedianCost), bDec("baseline.max_cost", &b.MaxCost)}
}

func arenaWeightSchema(w *scoring.ArenaWeights) []binding {
	return []binding{bDec(weightsPrefix+"efficiency", &w.Efficiency), bDec(weightsPrefix+"speed", &w.Speed),
		bDec(weightsPrefix+"cost", &w.Cost), bDec(weightsPrefix+"correctness", &w.Correctness)}
}

// arenaValueSchema: the overall score is also the receipt's score.
func arenaValueSchema(r *scoring.ArenaResult) []binding {
	return []binding{
		bDec("token_score", &r.TokenScore), bDec("tool_call_score", &r.ToolCallScore),
		bDec("iteration_score", &r.IterationScore), bDec("efficiency_exact", &r.EfficiencyExact),
		bDec("speed_exact", &r.SpeedExact), bDec("cost_exact", &r.CostExact),
		bDec("efficiency", &r.Efficiency), bDec("speed", &r.Speed), bDec("cost", &r.Cost),
		bDec("correctness", &r.Correctness), bDec("weight_efficiency", &r.Weights.Efficiency),
		bDec("weight_speed", &r.Weights.Speed), bDec("weight_cost", &r.Weights.Cost),
		bDec("weight_correctness", &r.Weights.Correctness), bDec("unadjusted", &r.Unadjusted),
		bDec("multiplier", &r.Multiplier), bDec("adjusted", &r.Adjusted), bDec("overall", &r.Overall),
	}
}

// ArenaInputs is an arena receipt's inputs: the measured medians, the task's
// criteria total, category and difficulty.
func ArenaInputs(s scoring.ArenaSubmission, category, difficulty string) []*subnetv1.Field {
	return build(arenaInputSchema(&s, &category, &difficulty))
}

// ArenaParams is the first part of an arena receipt's params: the formula's
// constants and the baseline it scored against.
func ArenaParams(p scoring.ArenaParams, b scoring.ArenaBaseline) []*subnetv1.Field {
	return append(build(arenaConstSchema(&p)), build(arenaBaselineSchema(&b))...)
}

// ArenaTables is the second part of an arena receipt's params: the rows of
// the category and difficulty tables that ScoreArena picks, as weights.*
// (absent for a category the table does not have, which ScoreArena rejects)
// and difficulty_multiplier (1 for a difficulty the table does not have).
func ArenaTables(p scoring.ArenaParams, category, difficulty string) []*subnetv1.Field {
	var out []*subnetv1.Field
	if w, err := p.WeightsFor(category); err == nil {
		out = build(arenaWeightSchema(&w))
	}
	m := p.MultiplierFor(difficulty)
	return append(out, build([]binding{bDec(multiplierName, &m)})...)
}

// arenaReview is what an arena receipt records for review beside the
// score: detect_outliers' flags of the submission against the baseline it
// scored against (OutlierFlags with 0.1 × baseline.median_tokens), comma
// separated ("" for none), and whether they make an outlier (two or more).
type arenaReview struct {
	flags   string
	outlier bool
}

func reviewOf(s scoring.ArenaSubmission, b scoring.ArenaBaseline) arenaReview {
	f := scoring.OutlierFlags(s, scoring.OutlierTokenThreshold(b.MedianTokens))
	return arenaReview{flags: strings.Join(f, ","), outlier: scoring.IsOutlier(f)}
}

func arenaReviewSchema(v *arenaReview) []binding {
	return []binding{bStr("outlier_flags", &v.flags), bBool("outlier", &v.outlier)}
}

// ArenaValues is an arena receipt's values: ScoreArena's intermediates, then
// the review fields outlier_flags and outlier of s against b (the baseline
// r was scored against).
func ArenaValues(r scoring.ArenaResult, s scoring.ArenaSubmission, b scoring.ArenaBaseline) []*subnetv1.Field {
	v := reviewOf(s, b)
	return build(append(arenaValueSchema(&r), arenaReviewSchema(&v)...))
}

// ArenaRecord is what a scored arena receipt records of its submission.
type ArenaRecord struct {
	Entry                scoring.ArenaEntry // the inputs and the recorded values
	Category, Difficulty string
	// OutlierFlags and Outlier are the receipt's review fields (flags against
	// the baseline the submission scored against).
	OutlierFlags []string
	Outlier      bool
}

// ReadArena reads a scored arena receipt's inputs and values by name,
// without recomputing them (Verify does that). The error is a *NameError or
// a *FieldError when a field is missing, unknown or malformed.
func ReadArena(r *subnetv1.Receipt) (ArenaRecord, error) {
	var out ArenaRecord
	if r == nil {
		return out, ErrNoReceipt
	}
	e := &out.Entry
	if err := bind("inputs", fieldsOf(r.Inputs), arenaInputSchema(&e.Submission, &out.Category, &out.Difficulty)); err != nil {
		return out, err
	}
	var v arenaReview
	if err := bind("values", fieldsOf(r.Values), append(arenaValueSchema(&e.Result), arenaReviewSchema(&v)...)); err != nil {
		return out, err
	}
	if v.flags != "" {
		out.OutlierFlags = strings.Split(v.flags, ",")
	}
	out.Outlier = v.outlier
	return out, nil
}
