package leaderboard

import (
	"strings"
	"testing"
)

// TestChart: no points draw nothing; points draw a polyline and a dot
// each, inside the frame, with the ends of both axes labelled; a series
// name is escaped.
func TestChart(t *testing.T) {
	if got := chart("t", "x", 1, []series{{name: "a"}}); got != "" {
		t.Errorf("empty chart: %q", got)
	}
	got := string(chart("score", "height", 1, []series{{name: "<b>", colour: "#000", pts: []point{{10, 0}, {20, 0.5}, {30, 2}}}}))
	for _, want := range []string{`<svg class="chart" role="img" aria-label="score"`, `<title>score</title>`,
		`points="40.0,136.0 315.0,73.0 590.0,10.0"`, "height 10", ">30<", "&lt;b&gt;"} {
		if !strings.Contains(got, want) {
			t.Errorf("chart lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "<circle") != 3 || strings.Contains(got, "<b>") {
		t.Errorf("want 3 dots and no raw name:\n%s", got)
	}
}

// TestScoreChart: only scored submissions are drawn, oldest first, arena
// over 100; one x draws at the left edge.
func TestScoreChart(t *testing.T) {
	s1, s2, s3 := "0.5", "50", "0.9"
	subs := []SubmissionRow{ // newest first, as the page lists them
		{Track: "workflow", Height: 30, Status: "expired"},
		{Track: "arena", Height: 20, Status: "scored", Score: &s2},
		{Track: "workflow", Height: 10, Status: "scored", Score: &s1},
		{Track: "workflow", Height: 5, Status: "duplicate", Score: &s3},
	}
	got := string(scoreChart(subs))
	if strings.Count(got, "<polyline") != 2 || !strings.Contains(got, `points="40.0,73.0"`) || !strings.Contains(got, `points="590.0,73.0"`) {
		t.Errorf("score chart:\n%s", got)
	}
	// the weight axis tops at the largest weight
	if w := string(weightChart([]MinerEpoch{{Number: 4, Weight: "0.02"}, {Number: 3, Weight: "0.01"}})); !strings.Contains(w, `points="40.0,73.0 590.0,10.0"`) || !strings.Contains(w, ">0.02<") {
		t.Errorf("weight chart:\n%s", w)
	}
}
