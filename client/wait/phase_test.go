package wait

import (
	"errors"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
)

// TestTaskTarget: the committed heights of each phase of a task with
// submit_deadline 25, reveal_deadline 35 and report_deadline 95 (a
// transaction sent at committed height h lands in block h+1 or later).
func TestTaskTarget(t *testing.T) {
	tv := &wire.TaskView{ID: 7, SubmitDeadline: 25, RevealDeadline: 35, ReportDeadline: 95}
	for _, c := range []struct {
		phase                     Phase
		from, last, opens, closes int64
	}{
		{Reveal, 25, 34, 26, 35},
		{Report, 35, 94, 36, 95},
		{Settled, 95, 0, 0, 0},
	} {
		got := taskTarget(tv, c.phase)
		if got.From != c.from || got.Last != c.last || got.Opens != c.opens || got.Closes != c.closes || *got.TaskID != 7 {
			t.Errorf("%s: %+v, want from %d last %d opens %d closes %d", c.phase, got, c.from, c.last, c.opens, c.closes)
		}
	}
	if _, err := ParsePhase("revealed"); !errors.Is(err, ErrPhase) {
		t.Errorf("ParsePhase(revealed): %v, want ErrPhase", err)
	}
}
