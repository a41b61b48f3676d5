package wire

import (
	"encoding/json"
	"testing"
)

// TestMeasurementFieldsMatchJSON: Fields names every member of the view's
// JSON, with the value the JSON holds.
func TestMeasurementFieldsMatchJSON(t *testing.T) {
	wf := &WorkflowMeasurementView{OutputQuality: "0.9", StepsCompleted: 5, Cost: "0.2", LatencySeconds: "12",
		Retries: 1, DeclaredRetryBudget: 2, Timeouts: 3, HardFailures: 4}
	ar := &ArenaMeasurementView{TotalTokens: 7000, ToolCalls: 6, Iterations: 2, ExecutionTime: "30",
		EstimatedCost: "0.04", CriteriaPassed: 9}
	for _, c := range []struct {
		view   any
		fields map[string]string
	}{{wf, wf.Fields()}, {ar, ar.Fields()}} {
		bz, err := json.Marshal(c.view)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(bz, &m); err != nil {
			t.Fatal(err)
		}
		if len(m) != len(c.fields) {
			t.Errorf("%T: %d JSON members, %d fields", c.view, len(m), len(c.fields))
		}
		for name, raw := range m {
			var text string
			if json.Unmarshal(raw, &text) != nil {
				text = string(raw)
			}
			if got, ok := c.fields[name]; !ok || got != text {
				t.Errorf("%T: field %s = %q, %v; JSON has %s", c.view, name, got, ok, raw)
			}
		}
	}
}
