package scoring

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/shopspring/decimal"
)

// The vectors come from scripts/golden_arena_gas.py (Python decimal, 50 digits). Regenerate with
// `python3 scripts/golden_arena_gas.py x/scoring/testdata` from the repository root.

func loadGolden(t *testing.T, name string, v any) {
	t.Helper()
	bz, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	if err := json.Unmarshal(bz, v); err != nil {
		t.Fatalf("decode %s: %v", name, err)
	}
}

func goldenDec(t *testing.T, s string) decimal.Decimal {
	t.Helper()
	d, err := Parse(s)
	if err != nil {
		t.Fatalf("golden value %q: %v", s, err)
	}
	return d
}

func goldenDecs(t *testing.T, ss []string) []decimal.Decimal {
	out := make([]decimal.Decimal, len(ss))
	for i, s := range ss {
		out[i] = goldenDec(t, s)
	}
	return out
}

// sameDec compares by value and reports with the canonical text.
func sameDec(t *testing.T, what string, got decimal.Decimal, want string) {
	t.Helper()
	if !got.Equal(goldenDec(t, want)) {
		t.Errorf("%s = %s, want %s", what, Format(got), want)
	}
}

type goldenStatsCase struct {
	Xs        []string `json:"xs"`
	Sum       string   `json:"sum"`
	Mean      *string  `json:"mean"`
	PStdev    *string  `json:"pstdev"`
	Stdev     *string  `json:"stdev"`
	Median    *string  `json:"median"`
	Quartiles []string `json:"quartiles"`
}

func TestGoldenStats(t *testing.T) {
	var file struct{ Cases []goldenStatsCase }
	loadGolden(t, "golden_stats.json", &file)
	if len(file.Cases) < 100 {
		t.Fatalf("only %d stats cases", len(file.Cases))
	}
	for i, c := range file.Cases {
		xs := goldenDecs(t, c.Xs)
		sameDec(t, "sum", Sum(xs), c.Sum)
		checkOptional(t, i, "mean", c.Mean, func() (decimal.Decimal, error) { return Mean(xs) })
		checkOptional(t, i, "pstdev", c.PStdev, func() (decimal.Decimal, error) { return PStdev(xs) })
		checkOptional(t, i, "stdev", c.Stdev, func() (decimal.Decimal, error) { return Stdev(xs) })
		checkOptional(t, i, "median", c.Median, func() (decimal.Decimal, error) { return Median(xs) })
		q, err := Quartiles(xs)
		if c.Quartiles == nil {
			if !errors.Is(err, ErrInvalidInput) {
				t.Errorf("case %d: quartiles of %d values: err = %v, want ErrInvalidInput", i, len(xs), err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("case %d: quartiles: %v", i, err)
		}
		for k := range q {
			sameDec(t, "quartile", q[k], c.Quartiles[k])
		}
	}
}

// checkOptional: a nil want means the reference has no value and Go must return InputError.
func checkOptional(t *testing.T, i int, name string, want *string, f func() (decimal.Decimal, error)) {
	t.Helper()
	got, err := f()
	if want == nil {
		if !errors.Is(err, ErrInvalidInput) {
			t.Errorf("case %d: %s: err = %v, want ErrInvalidInput", i, name, err)
		}
		return
	}
	if err != nil {
		t.Errorf("case %d: %s: %v", i, name, err)
		return
	}
	sameDec(t, name, got, *want)
}

type goldenSubmission struct {
	TotalTokens    int64  `json:"total_tokens"`
	ToolCalls      int64  `json:"tool_calls"`
	Iterations     int64  `json:"iterations"`
	ExecutionTime  string `json:"execution_time"`
	EstimatedCost  string `json:"estimated_cost"`
	CriteriaPassed int64  `json:"criteria_passed"`
	CriteriaTotal  int64  `json:"criteria_total"`
}

func (g goldenSubmission) to(t *testing.T) ArenaSubmission {
	return ArenaSubmission{
		TotalTokens: g.TotalTokens, ToolCalls: g.ToolCalls, Iterations: g.Iterations,
		ExecutionTime: goldenDec(t, g.ExecutionTime), EstimatedCost: goldenDec(t, g.EstimatedCost),
		CriteriaPassed: g.CriteriaPassed, CriteriaTotal: g.CriteriaTotal,
	}
}

// goldenBaseline is a baseline as the reference writes it (decimal strings, q25/q75 optional),
// kept raw so that no number passes through float64.
type goldenBaseline map[string]json.RawMessage

func (g goldenBaseline) str(t *testing.T, k string) string {
	raw, ok := g[k]
	if !ok {
		return "0"
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return string(raw) // a bare JSON number, e.g. submission_count
	}
	return s
}

func (g goldenBaseline) to(t *testing.T) ArenaBaseline {
	field := func(k string) decimal.Decimal { return goldenDec(t, g.str(t, k)) }
	b := ArenaBaseline{
		MinTokens: field("min_tokens"), Q25Tokens: field("q25_tokens"), MedianTokens: field("median_tokens"),
		Q75Tokens: field("q75_tokens"), MaxTokens: field("max_tokens"),
		MinToolCalls: field("min_tool_calls"), MedianToolCalls: field("median_tool_calls"), MaxToolCalls: field("max_tool_calls"),
		MedianIterations: field("median_iterations"),
		MinExecutionTime: field("min_execution_time"), MedianExecutionTime: field("median_execution_time"),
		MaxExecutionTime: field("max_execution_time"),
		MinCost:          field("min_cost"), MedianCost: field("median_cost"), MaxCost: field("max_cost"),
	}
	b.SubmissionCount = field("submission_count").IntPart()
	return b
}

type goldenArenaCase struct {
	Submission goldenSubmission  `json:"submission"`
	Baseline   goldenBaseline    `json:"baseline"`
	Category   string            `json:"category"`
	Difficulty string            `json:"difficulty"`
	Error      bool              `json:"error"`
	Result     map[string]string `json:"result"`
}

type goldenArenaFile struct {
	Scores    []goldenArenaCase `json:"scores"`
	Baselines []struct {
		Submissions []goldenSubmission `json:"submissions"`
		Baseline    goldenBaseline     `json:"baseline"`
	} `json:"baselines"`
	Rankings []struct {
		Scores        []string `json:"scores"`
		Ranks         []int    `json:"ranks"`
		CategoryRanks []int    `json:"category_ranks"`
		Percentiles   []string `json:"percentiles"`
		CI            []string `json:"ci"`
	} `json:"rankings"`
	Outliers []struct {
		Submissions []goldenSubmission `json:"submissions"`
		Outliers    []struct {
			Index int      `json:"index"`
			Flags []string `json:"flags"`
		} `json:"outliers"`
	} `json:"outliers"`
}

func TestGoldenArenaScores(t *testing.T) {
	var file goldenArenaFile
	loadGolden(t, "golden_arena.json", &file)
	if len(file.Scores) < 300 {
		t.Fatalf("only %d arena cases", len(file.Scores))
	}
	p := DefaultArenaParams()
	for i, c := range file.Scores {
		r, err := ScoreArena(p, c.Submission.to(t), c.Baseline.to(t), c.Category, c.Difficulty)
		if c.Error {
			if !errors.Is(err, ErrInvalidInput) {
				t.Errorf("case %d: err = %v, want ErrInvalidInput", i, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("case %d: %v", i, err)
			continue
		}
		got := map[string]decimal.Decimal{
			"overall_score": r.Overall, "efficiency_score": r.Efficiency, "speed_score": r.Speed,
			"cost_score": r.Cost, "correctness_score": r.Correctness, "token_score": r.TokenScore,
			"tool_call_score": r.ToolCallScore, "iteration_score": r.IterationScore,
			"efficiency_exact": r.EfficiencyExact, "speed_exact": r.SpeedExact, "cost_exact": r.CostExact,
			"unadjusted": r.Unadjusted, "adjusted": r.Adjusted,
		}
		for k, want := range c.Result {
			g, ok := got[k]
			if !ok {
				t.Fatalf("case %d: unknown golden field %s", i, k)
			}
			if !g.Equal(goldenDec(t, want)) {
				t.Errorf("case %d (%s/%s): %s = %s, want %s", i, c.Category, c.Difficulty, k, g.String(), want)
			}
		}
	}
}

func TestGoldenArenaBaselines(t *testing.T) {
	var file goldenArenaFile
	loadGolden(t, "golden_arena.json", &file)
	fallback := DefaultArenaBaseline()
	for i, c := range file.Baselines {
		subs := make([]ArenaSubmission, len(c.Submissions))
		for k, s := range c.Submissions {
			subs[k] = s.to(t)
		}
		got := ComputeBaseline(subs, fallback)
		want := fallback
		if c.Baseline != nil {
			want = c.Baseline.to(t)
		}
		if !baselineEqual(got, want) {
			t.Errorf("case %d (n=%d):\n got %+v\nwant %+v", i, len(subs), got, want)
		}
	}
}

func baselineEqual(a, b ArenaBaseline) bool {
	x := []decimal.Decimal{a.MinTokens, a.Q25Tokens, a.MedianTokens, a.Q75Tokens, a.MaxTokens, a.MinToolCalls,
		a.MedianToolCalls, a.MaxToolCalls, a.MedianIterations, a.MinExecutionTime, a.MedianExecutionTime,
		a.MaxExecutionTime, a.MinCost, a.MedianCost, a.MaxCost}
	y := []decimal.Decimal{b.MinTokens, b.Q25Tokens, b.MedianTokens, b.Q75Tokens, b.MaxTokens, b.MinToolCalls,
		b.MedianToolCalls, b.MaxToolCalls, b.MedianIterations, b.MinExecutionTime, b.MedianExecutionTime,
		b.MaxExecutionTime, b.MinCost, b.MedianCost, b.MaxCost}
	return a.SubmissionCount == b.SubmissionCount && slices.EqualFunc(x, y, decimal.Decimal.Equal)
}

func TestGoldenArenaRankings(t *testing.T) {
	var file goldenArenaFile
	loadGolden(t, "golden_arena.json", &file)
	for i, c := range file.Rankings {
		scores := goldenDecs(t, c.Scores)
		rk := Rankings(scores)
		cat := CategoryRankings(scores)
		for k := range scores {
			if rk[k].Rank != c.Ranks[k] {
				t.Errorf("case %d: rank[%d] = %d, want %d", i, k, rk[k].Rank, c.Ranks[k])
			}
			sameDec(t, "percentile", rk[k].Percentile, c.Percentiles[k])
			p, err := Percentile(scores[k], scores)
			if err != nil {
				t.Fatalf("case %d: percentile: %v", i, err)
			}
			sameDec(t, "Percentile", p, c.Percentiles[k])
		}
		if !slices.Equal(cat, c.CategoryRanks) {
			t.Errorf("case %d: category ranks %v, want %v", i, cat, c.CategoryRanks)
		}
		lo, hi := ConfidenceInterval(scores)
		sameDec(t, "ci.lo", lo, c.CI[0])
		sameDec(t, "ci.hi", hi, c.CI[1])
	}
}

func TestGoldenArenaOutliers(t *testing.T) {
	var file goldenArenaFile
	loadGolden(t, "golden_arena.json", &file)
	total := 0
	for i, c := range file.Outliers {
		subs := make([]ArenaSubmission, len(c.Submissions))
		for k, s := range c.Submissions {
			subs[k] = s.to(t)
		}
		got := DetectOutliers(subs)
		if len(got) != len(c.Outliers) {
			t.Errorf("case %d: %d outliers, want %d", i, len(got), len(c.Outliers))
			continue
		}
		for k, o := range c.Outliers {
			if got[k].Index != o.Index || !slices.Equal(got[k].Flags, o.Flags) {
				t.Errorf("case %d: outlier %d = %+v, want %+v", i, k, got[k], o)
			}
		}
		total += len(got)
	}
	if total == 0 {
		t.Fatal("the golden file flags no outlier at all")
	}
}

type goldenGasFile struct {
	Outcomes []struct {
		Estimate    string `json:"estimate"`
		MinPrice    string `json:"min_price"`
		Included    bool   `json:"included"`
		Overpayment string `json:"overpayment"`
	} `json:"outcomes"`
	Memories []struct {
		Slots []struct {
			Included    bool   `json:"included"`
			Overpayment string `json:"overpayment"`
			Fresh       bool   `json:"fresh"`
		} `json:"slots"`
		InclusionRate  string `json:"inclusion_rate"`
		AvgOverpayment string `json:"avg_overpayment"`
		Liveliness     string `json:"liveliness"`
	} `json:"memories"`
	Scores []goldenGasScore `json:"scores"`
}

type goldenGasScore struct {
	History []struct {
		Time           int64  `json:"time"`
		InclusionRate  string `json:"inclusion_rate"`
		AvgOverpayment string `json:"avg_overpayment"`
	} `json:"history"`
	Liveliness      string   `json:"liveliness"`
	Score           string   `json:"score"`
	InclusionMean   string   `json:"inclusion_mean"`
	InclusionStd    string   `json:"inclusion_std"`
	InclusionCOV    string   `json:"inclusion_cov"`
	OverpaymentMean string   `json:"overpayment_mean"`
	OverpaymentStd  string   `json:"overpayment_std"`
	OverpaymentCOV  string   `json:"overpayment_cov"`
	Utilities       []string `json:"utilities"`
}

func (g goldenGasScore) history(t *testing.T) []GasHistoryPoint {
	h := make([]GasHistoryPoint, len(g.History))
	for i, p := range g.History {
		h[i] = GasHistoryPoint{Time: p.Time, InclusionRate: goldenDec(t, p.InclusionRate), AvgOverpayment: goldenDec(t, p.AvgOverpayment)}
	}
	return h
}

func TestGoldenGas(t *testing.T) {
	var file goldenGasFile
	loadGolden(t, "golden_gas.json", &file)
	for i, c := range file.Outcomes {
		s, err := GasOutcome(goldenDec(t, c.Estimate), goldenDec(t, c.MinPrice), true)
		if err != nil {
			t.Fatalf("outcome %d: %v", i, err)
		}
		if s.Included != c.Included {
			t.Errorf("outcome %d: included = %v, want %v", i, s.Included, c.Included)
		}
		sameDec(t, "overpayment", s.Overpayment, c.Overpayment)
	}
	for _, c := range file.Memories {
		mem := make([]GasSlot, len(c.Slots))
		for k, s := range c.Slots {
			mem[k] = GasSlot{Included: s.Included, Overpayment: goldenDec(t, s.Overpayment), Fresh: s.Fresh}
		}
		perf := MemoryPerformance(mem)
		sameDec(t, "memory inclusion", perf.InclusionRate, c.InclusionRate)
		sameDec(t, "memory overpayment", perf.AvgOverpayment, c.AvgOverpayment)
		sameDec(t, "memory liveliness", perf.Liveliness, c.Liveliness)
	}
	if len(file.Scores) < 50 {
		t.Fatalf("only %d gas score cases", len(file.Scores))
	}
	p := DefaultGasParams()
	for i, c := range file.Scores {
		r, err := ScoreGas(p, c.history(t), goldenDec(t, c.Liveliness))
		if err != nil {
			t.Fatalf("score %d: %v", i, err)
		}
		sameDec(t, "score", r.Score, c.Score)
		sameDec(t, "inclusion mean", r.InclusionMean, c.InclusionMean)
		sameDec(t, "inclusion std", r.InclusionStd, c.InclusionStd)
		sameDec(t, "inclusion cov", r.InclusionCOV, c.InclusionCOV)
		sameDec(t, "overpayment mean", r.OverpaymentMean, c.OverpaymentMean)
		sameDec(t, "overpayment std", r.OverpaymentStd, c.OverpaymentStd)
		sameDec(t, "overpayment cov", r.OverpaymentCOV, c.OverpaymentCOV)
		for k := range r.Utilities {
			sameDec(t, "utility", r.Utilities[k], c.Utilities[k])
		}
		if r.Points != len(c.History) {
			t.Errorf("score %d: points = %d, want %d", i, r.Points, len(c.History))
		}
	}
}
