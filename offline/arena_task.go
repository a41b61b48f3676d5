package offline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/x/receipt"
)

// ErrTaskInput is wrapped by ArenaTask's error when the input is not one
// arena task's submissions with receipts that verify.
var ErrTaskInput = errors.New("not one arena task's verified submissions")

// ArenaTask reads a stream of `query submission/<id>` answers, the
// submissions of one arena task (pretty-printed or one per line), and writes
// the task's results as `query task/<id>/results` answers them
// (wire.TaskResultsViewOf), indented. Each scored submission's receipt must
// verify (receipt.Verify against chain, or against itself when chain is
// nil), so the results rest on recomputed scores; submissions of another
// status (expired, duplicate, …) are not ranked, as on chain.
func ArenaTask(r io.Reader, w io.Writer, chain *receipt.Chain) error {
	in, err := CompactJSONStream(r)
	if err != nil {
		return err
	}
	lines, err := io.ReadAll(in)
	if err != nil {
		return err
	}
	var t taskAcc
	for i, line := range splitLines(lines) {
		n := i + 1
		if err := t.add(n, line, chain); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
	}
	if !t.seen {
		return fmt.Errorf("no submissions in the input: %w", ErrTaskInput)
	}
	bz, err := json.MarshalIndent(wire.TaskResultsViewOf(t.task, t.category, t.difficulty, t.scored), "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", bz)
	return err
}

// taskAcc gathers one task's scored submissions.
type taskAcc struct {
	seen                 bool
	task                 uint64
	category, difficulty string
	scored               []wire.ScoredArena
	ids                  map[uint64]bool
}

func (t *taskAcc) add(n int, line []byte, chain *receipt.Chain) error {
	var a wire.SubmissionView
	if err := json.Unmarshal(line, &a); err != nil {
		return fmt.Errorf("not a submission answer: %v", err)
	}
	if a.Track != genesis.TrackArena || a.TaskID == nil {
		return fmt.Errorf("submission %d is %q, not an arena task's: %w", a.ID, a.Track, ErrTaskInput)
	}
	if t.seen && *a.TaskID != t.task {
		return fmt.Errorf("submission %d is of task %d, the input's first of task %d: %w", a.ID, *a.TaskID, t.task, ErrTaskInput)
	}
	if t.ids[a.ID] {
		return fmt.Errorf("submission %d appears twice: %w", a.ID, ErrTaskInput)
	}
	if !t.seen {
		t.seen, t.task, t.ids = true, *a.TaskID, map[uint64]bool{}
	}
	t.ids[a.ID] = true
	if a.Status != "scored" {
		return nil
	}
	res, err := VerifyLine(n, line, chain)
	if err != nil {
		return err
	}
	if !res.Verified {
		return fmt.Errorf("submission %d: receipt did not verify (%d mismatches, first %q): %w", a.ID, len(res.Mismatches), res.Mismatches[0].Name, ErrNotVerified)
	}
	rec, _, err := decodeReceipt(mustMarshal(a.Receipt))
	if err != nil {
		return err
	}
	ar, err := receipt.ReadArena(rec)
	if err != nil {
		return err
	}
	if len(t.scored) > 0 && (ar.Category != t.category || ar.Difficulty != t.difficulty) {
		return fmt.Errorf("submission %d: category %q, difficulty %q differ from the task's %q, %q: %w",
			a.ID, ar.Category, ar.Difficulty, t.category, t.difficulty, ErrTaskInput)
	}
	t.category, t.difficulty = ar.Category, ar.Difficulty
	t.scored = append(t.scored, wire.ScoredArena{ID: a.ID, UID: a.UID, Record: ar})
	return nil
}

// mustMarshal re-encodes a decoded view; a view of strings and numbers always encodes.
func mustMarshal(v any) []byte {
	bz, err := json.Marshal(v)
	if err != nil {
		panic("offline: encode a decoded view: " + err.Error())
	}
	return bz
}

// splitLines splits compacted input into its non-blank lines.
func splitLines(bz []byte) [][]byte {
	var out [][]byte
	for _, l := range bytes.Split(bz, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			out = append(out, l)
		}
	}
	return out
}
