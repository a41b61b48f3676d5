package client

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
)

// statusCommitted is a submission's status between its commit and its
// reveal (app/kernel.StatusCommitted; the client does not import the app).
const statusCommitted = "committed"

// CheckRevealWindow is nil when p's reveal, sent now, can land only inside
// its target's reveal window: the app's next block (its committed height +
// 1, where CheckTx judges the reveal and the earliest block that can hold
// it) is in it. The node's /status is not asked: it may show a block the
// app has not executed yet. Otherwise it is a *RevealWindowError: ErrRevealTooEarly (the window is ahead, or for
// an EVM block not known until its truth is final) or ErrRevealClosed (it
// passed, or never opens: no such task, a truth round that expired, a
// submission no longer waiting for its reveal).
func CheckRevealWindow(ctx context.Context, c Chain, p PendingReveal) error {
	st, err := c.Status(ctx)
	if err != nil {
		return err
	}
	e := &RevealWindowError{Target: p.Target, Next: st.Height + 1}
	if p.Target.Gas {
		err = gasWindow(ctx, c, e)
	} else {
		err = taskWindow(ctx, c, e)
	}
	switch {
	case err != nil:
		return err
	case e.Closed:
		return e
	case e.First > 0 && e.Next > e.Last:
		e.Closed = true
		return e
	case e.First > 0 && e.Next >= e.First:
		return nil
	}
	return settled(ctx, c, p, e)
}

// taskWindow fills the task's reveal window: the blocks after its commit
// window, to its reveal deadline.
func taskWindow(ctx context.Context, c Chain, e *RevealWindowError) error {
	tv, err := c.Task(ctx, e.Target.TaskID)
	if isNotFound(err) {
		e.Closed, e.Reason = true, fmt.Sprintf("no task %d on this chain", e.Target.TaskID)
		if IsRetired(err) {
			e.Reason = fmt.Sprintf("task %d was retired by state retention: its reveal window closed long ago", e.Target.TaskID)
		}
		return nil
	}
	if err != nil {
		return err
	}
	e.First, e.Last = tv.SubmitDeadline+1, tv.RevealDeadline
	return nil
}

// gasWindow fills the EVM block's reveal window once its truth is final.
func gasWindow(ctx context.Context, c Chain, e *RevealWindowError) error {
	tr, err := c.Truth(ctx, e.Target.EVMChainID, e.Target.EVMBlock)
	switch {
	case IsRetired(err):
		e.Closed, e.Reason = true, "the EVM block's truth round was retired by state retention: its reveal window closed long ago"
		return nil
	case isNotFound(err):
		e.Reason = "no truth round for the EVM block yet (reveals open the block after its truth is final)"
		return nil
	case err != nil:
		return err
	case tr.RevealFrom != nil && tr.RevealUntil != nil:
		e.First, e.Last = *tr.RevealFrom, *tr.RevealUntil
	case tr.ClosedHeight == nil:
		e.Reason = fmt.Sprintf("the EVM block's truth round is %s (reveals open the block after it is final)", tr.Status)
	default:
		e.Closed, e.Reason = true, fmt.Sprintf("the EVM block's truth round is %s: its commits are never revealed", tr.Status)
	}
	return nil
}

// settled turns an early answer into a closed one when the submission the
// commit created no longer waits for a reveal.
func settled(ctx context.Context, c Chain, p PendingReveal, e *RevealWindowError) error {
	if p.SubmissionID == nil {
		return e
	}
	sub, err := c.Submission(ctx, *p.SubmissionID)
	if err != nil || sub.Status == statusCommitted {
		return e
	}
	e.Closed = true
	e.Reason = fmt.Sprintf("submission %d is %s", sub.ID, sub.Status)
	if sub.RevealHeight > 0 {
		e.Reason += fmt.Sprintf(", revealed at height %d", sub.RevealHeight)
	}
	return e
}

func isNotFound(err error) bool {
	var qe *QueryError
	return errors.As(err, &qe) && qe.Code == wire.QueryNotFound
}

// IsRetired reports whether err is a not-found answer for an item that
// state retention deleted (docs/retention.md): it existed, and its outcome
// is only in an export of an earlier height.
func IsRetired(err error) bool {
	var qe *QueryError
	return errors.As(err, &qe) && qe.Code == wire.QueryNotFound && strings.Contains(qe.Log, wire.RetiredNote)
}

// WaitRevealWindow polls CheckRevealWindow every poll until p's reveal
// window is open for the next block; a window that closed, a failed query
// or the end of ctx ends the wait with that error.
func WaitRevealWindow(ctx context.Context, c Chain, p PendingReveal, poll time.Duration) error {
	for {
		err := CheckRevealWindow(ctx, c, p)
		if !errors.Is(err, ErrRevealTooEarly) {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (%v)", ctx.Err(), err)
		case <-time.After(poll):
		}
	}
}
