package receipt

import (
	"testing"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// TestArenaTableFields: the rows ScoreArena picks, named as the verifier
// reads them: a known category's weights, the default for "", none for an
// unknown category; the difficulty's multiplier, 1 when unknown.
func TestArenaTableFields(t *testing.T) {
	p := scoring.DefaultArenaParams()
	get := func(fs []*subnetv1.Field) map[string]string {
		m := map[string]string{}
		for _, f := range fs {
			m[f.Name] = f.Value
		}
		return m
	}
	tests := []struct {
		category, difficulty string
		efficiency, mult     string // "" = absent
	}{
		{"debugging", "intermediate", "0.250000000000000000", "1.100000000000000000"},
		{"", "advanced", "0.350000000000000000", "1.200000000000000000"},
		{"nope", "", "", "1.000000000000000000"},
		{"refactoring", "legendary", "0.450000000000000000", "1.000000000000000000"},
	}
	for _, tc := range tests {
		m := get(ArenaTables(p, tc.category, tc.difficulty))
		if m["weights.efficiency"] != tc.efficiency || m["difficulty_multiplier"] != tc.mult {
			t.Errorf("%q/%q: %v", tc.category, tc.difficulty, m)
		}
		if want := 1 + 4*btoi(tc.efficiency != ""); len(m) != want {
			t.Errorf("%q/%q: %d fields, want %d", tc.category, tc.difficulty, len(m), want)
		}
		// the recorded weights are those ScoreArena uses
		if tc.efficiency != "" {
			w, _ := p.WeightsFor(tc.category)
			s := scoring.ArenaSubmission{TotalTokens: 1, ToolCalls: 1, Iterations: 1, ExecutionTime: scoring.One,
				EstimatedCost: scoring.One, CriteriaPassed: 1, CriteriaTotal: 1}
			r, err := scoring.ScoreArena(p, s, scoring.DefaultArenaBaseline(), tc.category, tc.difficulty)
			same := r.Weights.Efficiency.Equal(w.Efficiency) && r.Weights.Speed.Equal(w.Speed) &&
				r.Weights.Cost.Equal(w.Cost) && r.Weights.Correctness.Equal(w.Correctness)
			if err != nil || !same || scoring.Format(r.Multiplier) != tc.mult {
				t.Errorf("%q/%q: ScoreArena weights %+v ×%s (%v), recorded %+v ×%s", tc.category, tc.difficulty, r.Weights, r.Multiplier, err, w, tc.mult)
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
