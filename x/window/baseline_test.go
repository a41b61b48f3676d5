package window

import (
	"errors"
	"testing"

	"github.com/scoringsubnet/validatord/x/scoring"
)

func sub(tokens int64) scoring.ArenaSubmission {
	return scoring.ArenaSubmission{TotalTokens: tokens, ToolCalls: tokens % 7, Iterations: 1 + tokens%3,
		ExecutionTime: scoring.One, EstimatedCost: scoring.One, CriteriaPassed: 1, CriteriaTotal: 2}
}

func subs(tokens ...int64) []scoring.ArenaSubmission {
	out := make([]scoring.ArenaSubmission, len(tokens))
	for i, tk := range tokens {
		out[i] = sub(tk)
	}
	return out
}

func tokensOf(b Baseline) []int64 {
	out := make([]int64, len(b.Recent))
	for i, s := range b.Recent {
		out[i] = s.TotalTokens
	}
	return out
}

func TestBaselineAddKeepsMostRecentK(t *testing.T) {
	p := DefaultParams()
	p.BaselineK = 5
	tests := []struct {
		name  string
		start []int64
		add   []int64
		want  []int64
	}{
		{"below K", []int64{1, 2}, []int64{3}, []int64{1, 2, 3}},
		{"exactly K", []int64{1, 2}, []int64{3, 4, 5}, []int64{1, 2, 3, 4, 5}},
		{"one over K drops the oldest", []int64{1, 2, 3, 4, 5}, []int64{6}, []int64{2, 3, 4, 5, 6}},
		{"a batch larger than K keeps its tail", []int64{1, 2}, []int64{3, 4, 5, 6, 7, 8, 9}, []int64{5, 6, 7, 8, 9}},
		{"an empty batch", []int64{1}, nil, []int64{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := Baseline{Recent: subs(tt.start...)}
			next, err := b.Add(p, subs(tt.add...))
			if err != nil {
				t.Fatal(err)
			}
			got := tokensOf(next)
			if len(got) != len(tt.want) {
				t.Fatalf("tokens = %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("tokens = %v, want %v", got, tt.want)
				}
			}
			if len(b.Recent) != len(tt.start) || (len(tt.start) > 0 && b.Recent[0].TotalTokens != tt.start[0]) {
				t.Fatal("Add modified the receiver")
			}
		})
	}
}

func TestBaselineStatsThreshold(t *testing.T) {
	fallback := scoring.DefaultArenaBaseline()
	b := Baseline{Recent: subs(10, 20, 30, 40)}
	if got := b.Stats(fallback); got.SubmissionCount != fallback.SubmissionCount || !got.MedianTokens.Equal(fallback.MedianTokens) {
		t.Fatalf("4 submissions must give the fallback, got %+v", got)
	}
	b.Recent = subs(10, 20, 30, 40, 50)
	got := b.Stats(fallback)
	if got.SubmissionCount != 5 {
		t.Fatalf("5 submissions: count %d", got.SubmissionCount)
	}
	assertDec(t, "median tokens", got.MedianTokens, "30")
	assertDec(t, "min tokens", got.MinTokens, "10")
	p := DefaultParams()
	p.BaselineMin = 6
	if got := b.StatsFor(p, fallback); got.SubmissionCount != fallback.SubmissionCount {
		t.Fatal("StatsFor must honour BaselineMin 6 with 5 submissions")
	}
}

func TestBaselineAddRejects(t *testing.T) {
	p := DefaultParams()
	bad := []scoring.ArenaSubmission{
		{TotalTokens: -1},
		{ToolCalls: -1},
		{Iterations: -1},
		{CriteriaPassed: 3, CriteriaTotal: 2},
		{CriteriaTotal: -1},
		{ExecutionTime: scoring.One.Neg()},
		{EstimatedCost: scoring.One.Neg()},
	}
	b := Baseline{Recent: subs(1)}
	for i, s := range bad {
		if _, err := b.Add(p, []scoring.ArenaSubmission{sub(5), s}); !errors.Is(err, ErrInvalidInput) {
			t.Errorf("case %d: err = %v, want ErrInvalidInput", i, err)
		}
	}
	p.BaselineK = 0
	if _, err := b.Add(p, subs(1)); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("K = 0: %v", err)
	}
	if len(b.Recent) != 1 {
		t.Fatal("a failed Add changed the baseline")
	}
}
