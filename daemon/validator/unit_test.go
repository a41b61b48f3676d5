package validator

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/internal/metricsdoc"
	"github.com/scoringsubnet/validatord/x/scoring"
)

func workflowView() (*wire.SubmissionView, *wire.TaskView) {
	return &wire.SubmissionView{ID: 7, Track: "workflow"},
		&wire.TaskView{ID: 2, Track: "workflow", Workflow: &wire.WorkflowTaskView{TotalSteps: 4, MaxBudget: "2", MaxLatencySeconds: "60"}}
}

// arenaView is an arena task with the app's default baseline.
func arenaView() (*wire.SubmissionView, *wire.TaskView) {
	return &wire.SubmissionView{ID: 8, Track: "arena"},
		&wire.TaskView{ID: 3, Track: "arena", Arena: &wire.ArenaTaskView{Category: "debugging", Difficulty: "advanced", CriteriaTotal: 5,
			DefaultBaseline: &wire.ArenaBaselineView{MinTokens: "1000", Q25Tokens: "5000", MedianTokens: "10000", Q75Tokens: "20000", MaxTokens: "50000",
				MinToolCalls: "1", MedianToolCalls: "10", MaxToolCalls: "40", MedianIterations: "3",
				MinExecutionTime: "60", MedianExecutionTime: "300", MaxExecutionTime: "1800", MinCost: "0.01", MedianCost: "0.05", MaxCost: "0.2"}}}
}

// TestDecodeMeasurement: the command's output is one report line without
// its submission id, of the submission's track, within the chain's ranges.
func TestDecodeMeasurement(t *testing.T) {
	ws, wt := workflowView()
	as, at := arenaView()
	r, err := DecodeMeasurement([]byte(` {"workflow": {"output_quality": "0.9", "steps_completed": 4, "cost": "0.5", "latency_seconds": "20", "hard_failures": 1}}`+"\n"), ws, wt)
	if err != nil || r.SubmissionId != 7 || r.GetWorkflow().OutputQuality != "0.9" || r.GetWorkflow().HardFailures != 1 {
		t.Fatalf("workflow: %+v %v", r, err)
	}
	r, err = DecodeMeasurement([]byte(`{"arena": {"total_tokens": 1200, "tool_calls": 8, "iterations": 3, "execution_time": "41", "estimated_cost": "0.02", "criteria_passed": 4}, "duplicate_of": 2}`), as, at)
	if err != nil || r.SubmissionId != 8 || r.DuplicateOf != 2 || r.GetArena().CriteriaPassed != 4 {
		t.Fatalf("arena: %+v %v", r, err)
	}
	for _, c := range []struct {
		name, out string
		arena     bool
		want      string
	}{
		{"not JSON", `measured 0.9`, false, "not one JSON object"},
		{"two objects", `{"workflow": {}} {"workflow": {}}`, false, "more than one"},
		{"empty", ``, false, "not one JSON object"},
		{"its own id", `{"submission_id": 7, "workflow": {"output_quality": "1"}}`, false, "submission_id"},
		{"unknown field", `{"workflow": {"quality": "1"}}`, false, "quality"},
		{"no measurement", `{"duplicate_of": 3}`, false, "no measurement"},
		{"other track", `{"arena": {"iterations": 1}}`, false, "workflow submission"},
		{"steps above total", `{"workflow": {"output_quality": "1", "steps_completed": 5, "cost": "0", "latency_seconds": "0"}}`, false, "total_steps = 4"},
		{"quality above 1", `{"workflow": {"output_quality": "1.5", "cost": "0", "latency_seconds": "0"}}`, false, "output_quality"},
		{"negative count", `{"workflow": {"output_quality": "1", "cost": "0", "latency_seconds": "0", "retries": -1}}`, false, "retries"},
		{"19 places", `{"workflow": {"output_quality": "0.1234567890123456789", "cost": "0", "latency_seconds": "0"}}`, false, "18 decimal places"},
		{"no iterations", `{"arena": {"execution_time": "1", "estimated_cost": "0"}}`, true, "iterations"},
		{"criteria above total", `{"arena": {"iterations": 1, "execution_time": "1", "estimated_cost": "0", "criteria_passed": 6}}`, true, "criteria_total = 5"},
		{"duplicate of itself", `{"arena": {"iterations": 1, "execution_time": "1", "estimated_cost": "0"}, "duplicate_of": 8}`, true, "itself"},
	} {
		sub, task := ws, wt
		if c.arena {
			sub, task = as, at
		}
		_, err := DecodeMeasurement([]byte(c.out), sub, task)
		var oe *OutputError
		if !errors.As(err, &oe) || oe.Submission != sub.ID || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want an *OutputError saying %q", c.name, err, c.want)
		}
	}
}

// TestNoArtifactScoresZero: the no-usable-artifact measurement is valid
// (the daemon's own range checks, which are the chain's) and scores 0 with
// the default params: workflow always, arena against the task's default
// baseline.
func TestNoArtifactScoresZero(t *testing.T) {
	ws, wt := workflowView()
	r, err := NoArtifact(ws.ID, wt)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkRanges(r, ws, wt); err != nil {
		t.Fatalf("workflow: %v", err)
	}
	w := r.GetWorkflow()
	wres, err := scoring.ScoreWorkflow(scoring.DefaultWorkflowParams(), scoring.WorkflowInput{OutputQuality: decimal.RequireFromString(w.OutputQuality),
		StepsCompleted: w.StepsCompleted, TotalSteps: wt.Workflow.TotalSteps, Cost: decimal.RequireFromString(w.Cost), MaxBudget: decimal.RequireFromString(wt.Workflow.MaxBudget),
		LatencySeconds: decimal.RequireFromString(w.LatencySeconds), MaxLatencySeconds: decimal.RequireFromString(wt.Workflow.MaxLatencySeconds),
		Retries: w.Retries, DeclaredRetryBudget: w.DeclaredRetryBudget, Timeouts: w.Timeouts, HardFailures: w.HardFailures})
	if err != nil || !wres.Score.IsZero() {
		t.Fatalf("workflow score %v %v, want 0", wres.Score, err)
	}

	as, at := arenaView()
	r, err = NoArtifact(as.ID, at)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkRanges(r, as, at); err != nil {
		t.Fatalf("arena: %v", err)
	}
	a := r.GetArena()
	if a.TotalTokens != 50001 || a.ToolCalls != 41 || a.Iterations != 8 || a.ExecutionTime != "1801" || a.EstimatedCost != "1.2" || a.CriteriaPassed != 0 {
		t.Fatalf("arena measurement %+v", a)
	}
	ares, err := scoring.ScoreArena(scoring.DefaultArenaParams(), scoring.ArenaSubmission{TotalTokens: a.TotalTokens, ToolCalls: a.ToolCalls,
		Iterations: a.Iterations, ExecutionTime: decimal.RequireFromString(a.ExecutionTime), EstimatedCost: decimal.RequireFromString(a.EstimatedCost),
		CriteriaTotal: at.Arena.CriteriaTotal}, scoring.DefaultArenaBaseline(), at.Arena.Category, at.Arena.Difficulty)
	if err != nil || !ares.Overall.IsZero() {
		t.Fatalf("arena score %v %v, want 0", ares.Overall, err)
	}
}

// TestConfigValidate: the defaults with a command are valid; each bad
// option is a *ConfigError naming it.
func TestConfigValidate(t *testing.T) {
	ok := DefaultConfig()
	ok.Measure.Command = "measure"
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for opt, edit := range map[string]func(*Config){
		"measure.command":                            func(c *Config) { c.Measure.Command = "" },
		"chain.key":                                  func(c *Config) { c.Chain.Key = "" },
		"report.batch_max":                           func(c *Config) { c.Report.BatchMax = wire.MaxReportBatch + 1 },
		"report.margin_blocks":                       func(c *Config) { c.Report.MarginBlocks = c.Measure.FetchUntilBlocks + 1 },
		"tasks.tracks":                               func(c *Config) { c.Tasks.Tracks = []string{"gas"} },
		"gas.batch_windows":                          func(c *Config) { c.Gas.BatchWindows = 0 },
		"measure.max_artifact_bytes":                 func(c *Config) { c.Measure.MaxArtifactBytes = 0 },
		"measure.fetch_until_blocks_before_deadline": func(c *Config) { c.Measure.FetchUntilBlocks = -1 },
	} {
		c := ok
		c.Tasks.Tracks = slices.Clone(ok.Tasks.Tracks)
		edit(&c)
		var ce *ConfigError
		if err := c.Validate(); !errors.As(err, &ce) || ce.Option != opt {
			t.Errorf("%s: %v", opt, err)
		}
	}
	if _, err := Open(t.TempDir(), DefaultConfig(), Options{}); err == nil {
		t.Error("Open without a measurement command")
	}
}

// TestMetricsDocumented: docs/metrics.md names exactly the series the
// daemon registers.
func TestMetricsDocumented(t *testing.T) {
	m := NewMetrics()
	m.report("workflow", OutcomeReported)
	m.fetchFailure("timeout")
	m.measureFailure("exit")
	m.conflict()
	m.posted("arena")
	m.pending(3)
	if testutil.ToFloat64(m.pendingReports) != 3 {
		t.Fatal("pending gauge")
	}
	metricsdoc.Check(t, m.Registry(), "../../docs/metrics.md", "validatord_validator_")
}
