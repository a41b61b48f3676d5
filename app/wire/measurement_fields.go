package wire

import "strconv"

// Fields are a workflow measurement's fields by their JSON names, as text
// (decimals as written, counts in base 10): what a receipt's weighted
// medians are taken over, by the names x/receipt.Medians gives them.
func (m *WorkflowMeasurementView) Fields() map[string]string {
	return map[string]string{
		"output_quality":        m.OutputQuality,
		"steps_completed":       strconv.FormatInt(m.StepsCompleted, 10),
		"cost":                  m.Cost,
		"latency_seconds":       m.LatencySeconds,
		"retries":               strconv.FormatInt(m.Retries, 10),
		"declared_retry_budget": strconv.FormatInt(m.DeclaredRetryBudget, 10),
		"timeouts":              strconv.FormatInt(m.Timeouts, 10),
		"hard_failures":         strconv.FormatInt(m.HardFailures, 10),
	}
}

// Fields are an arena measurement's fields by their JSON names, as text.
func (m *ArenaMeasurementView) Fields() map[string]string {
	return map[string]string{
		"total_tokens":    strconv.FormatInt(m.TotalTokens, 10),
		"tool_calls":      strconv.FormatInt(m.ToolCalls, 10),
		"iterations":      strconv.FormatInt(m.Iterations, 10),
		"execution_time":  m.ExecutionTime,
		"estimated_cost":  m.EstimatedCost,
		"criteria_passed": strconv.FormatInt(m.CriteriaPassed, 10),
	}
}
