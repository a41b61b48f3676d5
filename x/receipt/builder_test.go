package receipt_test

import (
	"fmt"
	"testing"

	"github.com/shopspring/decimal"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/receipt"
	"github.com/scoringsubnet/validatord/x/scoring"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// The scenario of cmd/validatord's receipt tests (whose answers are in
// cmd/validatord/testdata/receipt_answers.jsonl): 4 validators of power 10,
// three of them voting; the literals below are what the app wrote there.
func scenarioValidators() []receipt.Validator {
	var vs []receipt.Validator
	for i := 0; i < 4; i++ {
		vs = append(vs, receipt.Validator{Name: fmt.Sprint("val", i), Power: 10})
	}
	return vs
}

func scenarioVotes(wf *subnetv1.WorkflowMeasurement, ar *subnetv1.ArenaMeasurement) []*subnetv1.Vote {
	var out []*subnetv1.Vote
	for i := uint32(0); i < 3; i++ {
		out = append(out, &subnetv1.Vote{Validator: i, Workflow: wf, Arena: ar})
	}
	return out
}

var wfInput = scoring.WorkflowInput{OutputQuality: d("0.95"), StepsCompleted: 4, TotalSteps: 4, Cost: d("0.5"),
	MaxBudget: d("2"), LatencySeconds: d("20"), MaxLatencySeconds: d("100"), Retries: 2, DeclaredRetryBudget: 1,
	Timeouts: 1, HardFailures: 0}

type nv = [2]string

func wantFields(t *testing.T, what string, got []*subnetv1.Field, want []nv) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d fields, want %d: %v", what, len(got), len(want), got)
	}
	for i, w := range want {
		if got[i].Name != w[0] || got[i].Value != w[1] {
			t.Errorf("%s[%d] = %s=%q, want %s=%q", what, i, got[i].Name, got[i].Value, w[0], w[1])
		}
	}
}

// TestBuildersMatchTheApp: for the scenario's inputs the builders give the
// fields, in order and byte for byte, that the app's workflowInputFields,
// workflowParamFields, votePowerFields, arena*Fields, gasReceipt,
// gasMemoryFields, gasHistoryFields and gasResultFields recorded.
func TestBuildersMatchTheApp(t *testing.T) {
	g := receipt.DefaultChain()
	wantFields(t, "workflow inputs", receipt.WorkflowInputs(wfInput), []nv{
		{"output_quality", "0.950000000000000000"}, {"steps_completed", "4"}, {"total_steps", "4"},
		{"cost", "0.500000000000000000"}, {"max_budget", "2.000000000000000000"},
		{"latency_seconds", "20.000000000000000000"}, {"max_latency_seconds", "100.000000000000000000"},
		{"retries", "2"}, {"declared_retry_budget", "1"}, {"timeouts", "1"}, {"hard_failures", "0"}})
	wantFields(t, "workflow params", append(receipt.WorkflowParams(g.Workflow),
		receipt.VotePowers(scenarioVotes(nil, nil), scenarioValidators())...), []nv{
		{"w_success", "0.500000000000000000"}, {"w_cost", "0.250000000000000000"}, {"w_latency", "0.150000000000000000"},
		{"w_reliability", "0.100000000000000000"}, {"gate", "0.700000000000000000"},
		{"retry_penalty", "0.100000000000000000"}, {"timeout_penalty", "0.200000000000000000"},
		{"failure_penalty", "0.500000000000000000"}, {"power.val0", "10"}, {"power.val1", "10"}, {"power.val2", "10"}})
	res, err := scoring.ScoreWorkflow(g.Workflow, wfInput)
	if err != nil {
		t.Fatal(err)
	}
	wantFields(t, "workflow values", receipt.WorkflowValues(res), []nv{
		{"completion_ratio", "1.000000000000000000"}, {"s_success", "0.950000000000000000"}, {"gated", "false"},
		{"s_cost", "0.750000000000000000"}, {"s_latency", "0.800000000000000000"}, {"unplanned_retries", "1"},
		{"s_reliability", "0.700000000000000000"}})

	s := scoring.ArenaSubmission{TotalTokens: 8000, ToolCalls: 6, Iterations: 2, ExecutionTime: d("200"),
		EstimatedCost: d("0.04"), CriteriaPassed: 4, CriteriaTotal: 5}
	wantFields(t, "arena inputs", receipt.ArenaInputs(s, "debugging", "intermediate"), []nv{
		{"total_tokens", "8000"}, {"tool_calls", "6"}, {"iterations", "2"}, {"execution_time", "200.000000000000000000"},
		{"estimated_cost", "0.040000000000000000"}, {"criteria_passed", "4"}, {"criteria_total", "5"},
		{"category", "debugging"}, {"difficulty", "intermediate"}})
	params := append(receipt.ArenaParams(g.Arena, scoring.DefaultArenaBaseline()), receipt.ArenaTables(g.Arena, "debugging", "intermediate")...)
	wantFields(t, "arena params", params, []nv{
		{"token_weight", "0.500000000000000000"}, {"tool_call_weight", "0.300000000000000000"},
		{"iteration_weight", "0.200000000000000000"}, {"speed_exponent", "0.700000000000000000"},
		{"missing_score", "50.000000000000000000"}, {"iteration_step", "15.000000000000000000"},
		{"iteration_floor", "50.000000000000000000"}, {"iteration_over_step", "10.000000000000000000"},
		{"baseline.submission_count", "0"}, {"baseline.min_tokens", "1000.000000000000000000"},
		{"baseline.q25_tokens", "5000.000000000000000000"}, {"baseline.median_tokens", "10000.000000000000000000"},
		{"baseline.q75_tokens", "20000.000000000000000000"}, {"baseline.max_tokens", "50000.000000000000000000"},
		{"baseline.min_tool_calls", "1.000000000000000000"}, {"baseline.median_tool_calls", "10.000000000000000000"},
		{"baseline.max_tool_calls", "40.000000000000000000"}, {"baseline.median_iterations", "3.000000000000000000"},
		{"baseline.min_execution_time", "60.000000000000000000"}, {"baseline.median_execution_time", "300.000000000000000000"},
		{"baseline.max_execution_time", "1800.000000000000000000"}, {"baseline.min_cost", "0.010000000000000000"},
		{"baseline.median_cost", "0.050000000000000000"}, {"baseline.max_cost", "0.200000000000000000"},
		{"weights.efficiency", "0.250000000000000000"}, {"weights.speed", "0.350000000000000000"},
		{"weights.cost", "0.150000000000000000"}, {"weights.correctness", "0.250000000000000000"},
		{"difficulty_multiplier", "1.100000000000000000"}})
	ar, err := scoring.ScoreArena(g.Arena, s, scoring.DefaultArenaBaseline(), "debugging", "intermediate")
	if err != nil {
		t.Fatal(err)
	}
	wantFields(t, "arena values", receipt.ArenaValues(ar, s, scoring.DefaultArenaBaseline()), []nv{
		{"token_score", "85.714285714285714286"}, {"tool_call_score", "87.179487179487179487"},
		{"iteration_score", "85.000000000000000000"}, {"efficiency_exact", "86.010989010989010989"},
		{"speed_exact", "94.297355635191727300"}, {"cost_exact", "84.210526315789473684"},
		{"efficiency", "86.010000000000000000"}, {"speed", "94.300000000000000000"}, {"cost", "84.210000000000000000"},
		{"correctness", "80.000000000000000000"}, {"weight_efficiency", "0.250000000000000000"},
		{"weight_speed", "0.350000000000000000"}, {"weight_cost", "0.150000000000000000"},
		{"weight_correctness", "0.250000000000000000"}, {"unadjusted", "87.138400672432778355"},
		{"multiplier", "1.100000000000000000"}, {"adjusted", "95.852240739676056191"}, {"overall", "95.850000000000000000"},
		{"outlier_flags", ""}, {"outlier", "false"}})
	// an unknown category records no weights; an unknown difficulty multiplier 1
	wantFields(t, "arena tables", receipt.ArenaTables(g.Arena, "nope", "nope"), []nv{{"difficulty_multiplier", "1.000000000000000000"}})
}

// gasScenario is submission 4 of the scenario: a prediction of 9 under a
// minimum of 10, on a memory of 2 with two history points.
func gasScenario(t *testing.T) (*subnetv1.TruthRound, *subnetv1.Prediction, scoring.GasParams, []scoring.GasSlot, []scoring.GasHistoryPoint, scoring.GasResult) {
	t.Helper()
	gp := receipt.DefaultChain().Gas
	gp.MemorySize = 2
	truth := &subnetv1.TruthRound{EvmChainId: 1, EvmBlock: 102, MinPrice: "10.000000000000000000", Timestamp: 1_700_000_029, ReportedPower: 30}
	pred := &subnetv1.Prediction{SubmissionId: 4, BlockTime: 1_700_000_024, Price: "9.000000000000000000"}
	mem := []scoring.GasSlot{{Included: true, Overpayment: d("0.05"), Fresh: true}, {Included: false, Overpayment: d("0"), Fresh: true}}
	hist := []scoring.GasHistoryPoint{{Time: 1_700_000_023, InclusionRate: d("1"), AvgOverpayment: d("0.125")},
		{Time: 1_700_000_029, InclusionRate: d("0.5"), AvgOverpayment: d("0.025")}}
	res, err := scoring.ScoreGas(gp, hist, scoring.MemoryPerformance(mem).Liveliness)
	if err != nil {
		t.Fatal(err)
	}
	return truth, pred, gp, mem, hist, res
}

func TestGasBuildersMatchTheApp(t *testing.T) {
	truth, pred, gp, mem, hist, res := gasScenario(t)
	wantFields(t, "gas inputs", append(append(receipt.GasInputs(truth, pred), receipt.GasMemory(mem)...), receipt.GasHistory(hist)...), []nv{
		{"evm_chain_id", "1"}, {"evm_block", "102"}, {"min_price", "10.000000000000000000"}, {"evm_timestamp", "1700000029"},
		{"prediction", "9.000000000000000000"}, {"included_at", "1700000024"}, {"prediction_submission_id", "4"},
		{"memory.0.included", "true"}, {"memory.0.overpayment", "0.050000000000000000"}, {"memory.0.fresh", "true"},
		{"memory.1.included", "false"}, {"memory.1.overpayment", "0.000000000000000000"}, {"memory.1.fresh", "true"},
		{"history.0.time", "1700000023"}, {"history.0.inclusion_rate", "1.000000000000000000"},
		{"history.0.avg_overpayment", "0.125000000000000000"}, {"history.1.time", "1700000029"},
		{"history.1.inclusion_rate", "0.500000000000000000"}, {"history.1.avg_overpayment", "0.025000000000000000"}})
	wantFields(t, "gas truth only", receipt.GasInputs(truth, nil), []nv{
		{"evm_chain_id", "1"}, {"evm_block", "102"}, {"min_price", "10.000000000000000000"}, {"evm_timestamp", "1700000029"}})
	wantFields(t, "gas params", receipt.GasParams(gp), []nv{
		{"memory_size", "2"}, {"horizon_seconds", "60"}, {"beta", "3.200000000000000000"},
		{"w_inclusion", "0.500000000000000000"}, {"w_inclusion_stability", "0.150000000000000000"},
		{"w_overpayment", "0.150000000000000000"}, {"w_overpayment_stability", "0.100000000000000000"},
		{"w_liveliness", "0.100000000000000000"}, {"stale_prediction", "miss"}})
	wantFields(t, "gas values", append(receipt.GasSlot(mem[1]), receipt.GasValues(res)...), []nv{
		{"slot.included", "false"}, {"slot.overpayment", "0.000000000000000000"}, {"slot.fresh", "true"},
		{"inclusion_mean", "0.750000000000000000"}, {"inclusion_std", "0.250000000000000000"},
		{"inclusion_cov", "0.333333333333333333"}, {"overpayment_mean", "0.075000000000000000"},
		{"overpayment_std", "0.050000000000000000"}, {"overpayment_cov", "0.666666666666666667"},
		{"liveliness", "1.000000000000000000"}, {"u0", "0.750000000000000000"}, {"u1", "0.344153786865412390"},
		{"u2", "0.786627861066553409"}, {"u3", "0.118441829013803698"}, {"u4", "1.000000000000000000"},
		{"points", "2"}, {"total_score", "0.656461430091175240"}})
}
