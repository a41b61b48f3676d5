package leaderboard

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client/wait"
	"github.com/scoringsubnet/validatord/internal/appquery"
)

// Options are what the pages may know beyond the app's Query.
type Options struct {
	// Block, when set, gives the time of the block at a height (the node's
	// block store has it; the app's state does not): the status line then
	// says when the last committed block was made and how long ago.
	Block func(ctx context.Context, height int64) (time.Time, error)
	// Now is the clock the lag is measured with (time.Now when nil).
	Now func() time.Time
	// taskRows, subRows and trackRows override the page sizes below (a
	// test pages through a few rows); 0 keeps them.
	taskRows, subRows, trackRows int
}

// Page sizes: every table is bounded, the rest is a click on "older" (or
// "next").
const (
	boardRows = 10 // miners per track on the landing page
	taskRows  = 20 // tasks per landing page
	subRows   = 25 // submissions per miner page
	// trackRows is the miners per /track page: each row costs the page a
	// window query, so a board of thousands of uids is read 50 at a time.
	trackRows   = 50
	epochsShown = 10 // epochs on /epochs and on a miner page
)

// orDefault is n, or def when n is 0.
func orDefault(n, def int) int {
	if n > 0 {
		return n
	}
	return def
}

// Status is the chain status line of every page.
type Status struct {
	Height int64 `json:"height"` // the app's committed height
	// BlockTime is that block's time (RFC 3339, UTC), "" when unknown.
	BlockTime string `json:"block_time"`
	// LagSeconds is how long ago that block was made; null when unknown.
	LagSeconds *int64 `json:"lag_seconds"`
}

// Lag is LagSeconds for people ("" when unknown).
func (s Status) Lag() string {
	if s.LagSeconds == nil {
		return ""
	}
	return (time.Duration(*s.LagSeconds) * time.Second).String()
}

func (r reader) chainStatus() (Status, error) {
	st, err := r.status()
	if err != nil {
		return Status{}, err
	}
	out := Status{Height: st.Height}
	if r.opts.Block == nil || st.Height <= 0 {
		return out, nil
	}
	bt, err := r.opts.Block(r.ctx, st.Height)
	if err != nil || bt.IsZero() {
		return out, nil // the status line says less, the page still shows
	}
	now := time.Now
	if r.opts.Now != nil {
		now = r.opts.Now
	}
	lag := int64(now().Sub(bt) / time.Second)
	out.BlockTime, out.LagSeconds = bt.UTC().Format(time.RFC3339), &lag
	return out, nil
}

// Board is one track's top miners on the landing page.
type Board struct {
	Track string     `json:"track"`
	Rows  []TrackRow `json:"rows"` // the first boardRows of the leaderboard
	Total int        `json:"total"`
	Empty string     `json:"empty"` // why no miner is on it ("" when one is)
}

// TaskRow is one task of the landing page: where it is in its life.
type TaskRow struct {
	ID    uint64 `json:"id"`
	Track string `json:"track"`
	// Phase is "submit" (commits taken at the next height), then the
	// phases of client/wait: "reveal", "report", "settled".
	Phase          string `json:"phase"`
	Ends           int64  `json:"ends"` // the last height of the phase (0 once settled)
	SubmitDeadline int64  `json:"submit_deadline"`
	RevealDeadline int64  `json:"reveal_deadline"`
	ReportDeadline int64  `json:"report_deadline"`
	Submissions    uint64 `json:"submissions"`
	// Link is the task's results page ("" for a workflow task: it has none).
	Link string `json:"link"`
}

// IndexPage is /: the chain's status, each track's top miners and the
// tasks, newest first, a page of them at a time.
type IndexPage struct {
	Status    Status     `json:"status"`
	Chain     ChainFacts `json:"chain"`
	Height    int64      `json:"height"`
	Tracks    []string   `json:"tracks"`
	Boards    []Board    `json:"boards"`
	Tasks     []TaskRow  `json:"tasks"`
	After     uint64     `json:"after"`      // the tasks are those below this id (0: the newest)
	NextAfter *uint64    `json:"next_after"` // the next page's after, null on the last
}

// taskPhase is where a task stands for a transaction in the block after
// height: the deadlines are the last heights of each window.
func taskPhase(height int64, t wire.TaskView) (string, int64) {
	next := height + 1
	switch {
	case next <= t.SubmitDeadline:
		return "submit", t.SubmitDeadline
	case next <= t.RevealDeadline:
		return string(wait.Reveal), t.RevealDeadline
	case next <= t.ReportDeadline:
		return string(wait.Report), t.ReportDeadline
	}
	return string(wait.Settled), 0
}

// statusParams reads what every page starts with: the status line and the
// params in force.
func (r reader) statusParams() (Status, *params, error) {
	st, err := r.chainStatus()
	if err != nil {
		return Status{}, nil, err
	}
	p, err := r.params()
	return st, p, err
}

func (r reader) index(after uint64) (*IndexPage, error) {
	st, p, err := r.statusParams()
	if err != nil {
		return nil, err
	}
	page := &IndexPage{Status: st, Height: st.Height, Tracks: p.trackNames(), Boards: []Board{}, Tasks: []TaskRow{}, After: after}
	if page.Chain, err = r.chainFacts(st, p); err != nil {
		return nil, err
	}
	for _, name := range page.Tracks {
		tp, err := r.track(name, 0, boardRows)
		if err != nil {
			return nil, err
		}
		b := Board{Track: name, Rows: tp.Rows, Total: tp.Total}
		if tp.Leaderboard.Empty != nil {
			b.Empty = *tp.Leaderboard.Empty
		}
		page.Boards = append(page.Boards, b)
	}
	tv, err := appquery.Get[wire.TasksView](r.ctx, r.q, fmt.Sprintf("tasks/all/all/%d/%d", after, orDefault(r.opts.taskRows, taskRows)))
	if err != nil {
		return nil, err
	}
	page.NextAfter = tv.NextAfter
	for _, t := range tv.Tasks {
		row := TaskRow{ID: t.ID, Track: t.Track, SubmitDeadline: t.SubmitDeadline, RevealDeadline: t.RevealDeadline,
			ReportDeadline: t.ReportDeadline, Submissions: t.Submissions}
		row.Phase, row.Ends = taskPhase(tv.Height, t.TaskView)
		if t.Arena != nil {
			row.Link = "/task/" + strconv.FormatUint(t.ID, 10)
		}
		page.Tasks = append(page.Tasks, row)
	}
	return page, nil
}

// round writes a decimal to 4 places for people, without trailing zeros
// ("0.857500000000000000" → "0.8575", "86.52" → "86.52"); the JSON keeps
// the exact value.
func round(s string) string {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return s
	}
	return short(d.StringFixed(4))
}
