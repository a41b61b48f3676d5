package wait

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
)

// Chain is what a wait reads of a node; *client.Client has it.
type Chain interface {
	Status(ctx context.Context) (*wire.StatusView, error)
	Task(ctx context.Context, id uint64) (*wire.TaskView, error)
}

// Phase is a stage of a task's life that a caller can wait for.
type Phase string

// The phases of a task, in the order they come.
const (
	// Reveal: the blocks after the submission window, to the reveal deadline.
	Reveal Phase = "reveal"
	// Report: the blocks after the reveal window, to the report deadline.
	Report Phase = "report"
	// Settled: the report deadline's block is committed; its end of block
	// gave every submission of the task its final status.
	Settled Phase = "settled"
)

// Phases lists the phases in order, for usage lines and errors.
var Phases = []Phase{Reveal, Report, Settled}

// ErrPhase is wrapped by the error of a phase name that is not one of Phases.
var ErrPhase = errors.New("unknown phase")

// ParsePhase reads a phase name.
func ParsePhase(s string) (Phase, error) {
	for _, p := range Phases {
		if string(p) == s {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w %q: want one of %v", ErrPhase, s, Phases)
}

// Target is a range of committed heights to wait for: From is the first
// height at which the wait is over, Last (0: none) the last one at which it
// still makes sense. What says it in words; a task's targets carry the
// window's blocks (Opens..Closes, the blocks a transaction may land in).
type Target struct {
	What   string  `json:"waited_for"`
	From   int64   `json:"from_height"`
	Last   int64   `json:"last_height,omitempty"`
	TaskID *uint64 `json:"task_id,omitempty"`
	Phase  Phase   `json:"phase,omitempty"`
	Opens  int64   `json:"opens,omitempty"`
	Closes int64   `json:"closes,omitempty"`
}

// ForHeight is the target of a committed height h.
func ForHeight(h int64) Target {
	return Target{What: fmt.Sprintf("height %d", h), From: h}
}

// ForTask reads task id and returns the target of phase p.
func ForTask(ctx context.Context, c Chain, id uint64, p Phase) (Target, error) {
	if _, err := ParsePhase(string(p)); err != nil {
		return Target{}, err
	}
	tv, err := c.Task(ctx, id)
	if err != nil {
		return Target{}, fmt.Errorf("task %d: %w", id, err)
	}
	return taskTarget(tv, p), nil
}

// taskTarget turns a task's deadlines into the committed heights of phase p.
func taskTarget(tv *wire.TaskView, p Phase) Target {
	id := tv.ID
	t := Target{TaskID: &id, Phase: p}
	switch p {
	case Reveal:
		t.Opens, t.Closes = tv.SubmitDeadline+1, tv.RevealDeadline
		t.What = fmt.Sprintf("task %d's reveal window (blocks %d to %d)", id, t.Opens, t.Closes)
	case Report:
		t.Opens, t.Closes = tv.RevealDeadline+1, tv.ReportDeadline
		t.What = fmt.Sprintf("task %d's report window (blocks %d to %d)", id, t.Opens, t.Closes)
	default:
		t.What = fmt.Sprintf("task %d settled (its report deadline, block %d, committed)", id, tv.ReportDeadline)
		t.From = tv.ReportDeadline
		return t
	}
	t.From, t.Last = t.Opens-1, t.Closes-1
	return t
}

// PassedError is the answer for a target whose range is behind the chain:
// a window that closed at Last+1 while the app is at Now.
type PassedError struct {
	Target Target
	Now    int64
}

func (e *PassedError) Error() string {
	return fmt.Sprintf("%s: already closed (the app committed height %d; a transaction sent now lands in block %d or later)",
		e.Target.What, e.Now, e.Now+1)
}

// Options tune Until.
type Options struct {
	// Poll is the time between two status queries (default 500 ms).
	Poll time.Duration
	// Progress, when set, gets a line saying what is waited for when the
	// wait begins, and the node's error the first time it does not answer.
	Progress func(string)
}

// Result is where a wait ended.
type Result struct {
	Target
	Height  int64  `json:"height"`
	AppHash string `json:"app_hash"`
}

// Until polls c until the app has committed t.From. A target whose Last is
// behind the app is a *PassedError, when the wait begins or when a poll
// finds the chain beyond it. Errors of the node are retried until ctx ends.
func Until(ctx context.Context, c Chain, t Target, o Options) (Result, error) {
	if o.Poll <= 0 {
		o.Poll = 500 * time.Millisecond
	}
	say := func(string) {}
	if o.Progress != nil {
		say = o.Progress
	}
	first, lastErr := true, error(nil)
	for {
		st, err := c.Status(ctx)
		switch {
		case err != nil && lastErr == nil:
			say(fmt.Sprintf("waiting for %s: the node does not answer yet (%v); asking again every %s", t.What, err, o.Poll))
		case err == nil && t.Last > 0 && st.Height > t.Last:
			return Result{}, &PassedError{Target: t, Now: st.Height}
		case err == nil && st.Height >= t.From:
			return Result{Target: t, Height: st.Height, AppHash: st.AppHash}, nil
		case err == nil && first:
			say(fmt.Sprintf("waiting for %s: the app is at height %d, %d block(s) to go", t.What, st.Height, t.From-st.Height))
			first = false
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return Result{}, fmt.Errorf("waiting for %s: %w (last error: %v)", t.What, ctx.Err(), lastErr)
		case <-time.After(o.Poll):
		}
	}
}
