package leaderboard

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"

	cmtcrypto "github.com/cometbft/cometbft/proto/tendermint/crypto"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/appquery"
	"github.com/scoringsubnet/validatord/x/window"
)

// Window is a miner's window on a windowed track (workflow, arena): how
// full it is and how far through its warm-up.
type Window struct {
	Scores      int    `json:"scores"`       // scores in the window
	Size        int    `json:"size"`         // window.WindowSize
	TasksSeen   uint64 `json:"tasks_seen"`   // scored tasks ever
	WarmupTasks int    `json:"warmup_tasks"` // the track's warm-up (0: none)
	Fill        string `json:"fill"`         // "scores/size"
	Warmup      string `json:"warmup"`       // "seen/warmup_tasks", or "done"
}

// TrackRow is one miner of a track's leaderboard.
type TrackRow struct {
	Rank   int     `json:"rank"`
	UID    uint32  `json:"uid"`
	Score  string  `json:"score"`
	Window *Window `json:"window"` // null on the gas track
}

// TrackPage is /track/<name>: one page of the track's leaderboard, the
// miners ranked after After (at most trackRows of them).
type TrackPage struct {
	Track  string     `json:"track"`
	Height int64      `json:"height"`
	Rows   []TrackRow `json:"rows"`
	Total  int        `json:"total"` // miners on the whole board
	// After is how many ranks the page skips: its rows are ranks After+1
	// onwards (0: from the top).
	After     int  `json:"after"`
	NextAfter *int `json:"next_after"` // the next page's after, null on the last
	PrevAfter *int `json:"prev_after"` // the previous page's after, null on the first
	// Leaderboard is the query's answer with its miners cut to this page's.
	Leaderboard *wire.LeaderboardView `json:"leaderboard"`
}

// trackHref is the track page that skips after ranks.
func trackHref(track string, after int) string {
	if after == 0 {
		return "/track/" + track
	}
	return "/track/" + track + "?after=" + strconv.Itoa(after)
}

// NextHref is the next page's path, "" on the last page.
func (p *TrackPage) NextHref() string {
	if p.NextAfter == nil {
		return ""
	}
	return trackHref(p.Track, *p.NextAfter)
}

// PrevHref is the previous page's path, "" on the first page.
func (p *TrackPage) PrevHref() string {
	if p.PrevAfter == nil {
		return ""
	}
	return trackHref(p.Track, *p.PrevAfter)
}

// First is the rank of the page's first row (its rows are ranks First
// to Last).
func (p *TrackPage) First() int { return p.After + 1 }

// Last is the rank of the page's last row.
func (p *TrackPage) Last() int { return p.After + len(p.Rows) }

// TrackScore is a uid's score on one track in an epoch.
type TrackScore struct {
	Track string `json:"track"`
	Score string `json:"score"` // "" when the uid had none
}

// TrackWindow is a uid's window on one windowed track.
type TrackWindow struct {
	Track  string  `json:"track"`
	Window *Window `json:"window"` // null before its first score there
}

// EpochRow is one uid of the latest epoch, ranked by weight (equal weights
// share a rank; ties listed by uid).
type EpochRow struct {
	Rank    int           `json:"rank"`
	UID     uint32        `json:"uid"`
	Scores  []TrackScore  `json:"scores"`
	Windows []TrackWindow `json:"windows"`
	Weight  string        `json:"weight"`
	U16     uint32        `json:"u16"`
}

// EpochPage is /epoch: the epoch answer and its rows.
type EpochPage struct {
	Number      uint64          `json:"number"`
	Height      int64           `json:"height"`
	Unallocated string          `json:"unallocated"`
	Tracks      []string        `json:"tracks"`
	Windowed    []string        `json:"windowed"`
	Rows        []EpochRow      `json:"rows"`
	Epoch       *wire.EpochView `json:"epoch"`
	// Proof is the epoch record's Merkle proof; null while the epoch is
	// newer than the app's latest provable state (until the next block),
	// or when the app could not prove it (ProofError says why: the table
	// is shown all the same).
	Proof      *Proof `json:"proof"`
	ProofError string `json:"proof_error,omitempty"`
}

// Proof lets anyone check the epoch against the chain without trusting
// this page: Value (the record's bytes, hex) is under Key (hex) in the
// store of Path's state at Height, by ProofOps (CometBFT's JSON, as
// /abci_query gives them), up to the app hash in the header of block
// Height+1. wire.VerifyProof (what `cometbft light` runs) checks it.
type Proof struct {
	Path     string              `json:"path"`
	Key      string              `json:"key"`
	Value    string              `json:"value"`
	Height   int64               `json:"height"`
	ProofOps []cmtcrypto.ProofOp `json:"proof_ops"`
}

// TaskPage is /task/<id>: the task's results answer.
type TaskPage struct {
	TaskID  uint64                `json:"task_id"`
	Height  int64                 `json:"height"`
	Results *wire.TaskResultsView `json:"results"`
}

// reader reads one page's answers; every page reads the committed state
// afresh.
type reader struct {
	ctx  context.Context
	q    appquery.Querier
	opts Options
}

// params is the part of the params in force the pages show.
type params struct {
	Tracks []struct {
		Name                 string `json:"name"`
		ActivityCutoffBlocks int64  `json:"activity_cutoff_blocks"`
	} `json:"tracks"`
	Window window.Params `json:"window"`
	Chain  struct {
		GasChains []uint64 `json:"gas_chains"`
	} `json:"chain"`
	Gas struct {
		MemorySize int `json:"memory_size"`
	} `json:"gas"`
}

func (r reader) params() (*params, error) {
	p, err := appquery.Get[wire.ParamsView](r.ctx, r.q, "params")
	if err != nil {
		return nil, err
	}
	var out params
	if err := json.Unmarshal(p.AppState, &out); err != nil {
		return nil, fmt.Errorf("params: app_state: %w", err)
	}
	return &out, nil
}

func (p *params) trackNames() []string {
	names := make([]string, len(p.Tracks))
	for i, t := range p.Tracks {
		names[i] = t.Name
	}
	return names
}

// windowed are the tracks whose miners have a window (in the chain's order).
func (p *params) windowed() []string {
	var out []string
	for _, t := range p.trackNames() {
		if t == genesis.TrackWorkflow || t == genesis.TrackArena {
			out = append(out, t)
		}
	}
	return out
}

func (p *params) warmup(track string) int {
	if track == genesis.TrackArena {
		return p.Window.ArenaWarmupTasks
	}
	return p.Window.WarmupTasks
}

func (r reader) status() (*wire.StatusView, error) {
	return appquery.Get[wire.StatusView](r.ctx, r.q, "status")
}

// windowOf is uid's window on track, nil when it has none (or is no miner:
// the burn uid).
func (r reader) windowOf(p *params, uid uint32, track string) (*Window, error) {
	wv, err := appquery.Get[wire.WindowView](r.ctx, r.q, "window/"+strconv.FormatUint(uint64(uid), 10))
	if errors.Is(err, appquery.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	tw := wv.Workflow
	if track == genesis.TrackArena {
		tw = wv.Arena
	}
	if tw == nil {
		return nil, nil
	}
	w := &Window{Scores: len(tw.Scores), Size: p.Window.WindowSize, TasksSeen: tw.TasksSeen, WarmupTasks: p.warmup(track)}
	w.Fill = fmt.Sprintf("%d/%d", w.Scores, w.Size)
	w.Warmup = "done"
	if w.WarmupTasks > 0 && tw.TasksSeen < uint64(w.WarmupTasks) {
		w.Warmup = fmt.Sprintf("%d/%d", tw.TasksSeen, w.WarmupTasks)
	}
	return w, nil
}

// track is the page of track name that skips after ranks and holds at
// most rows miners. The app ranks the whole board in one answer (bounded
// by the chain's max_uids); the page reads a window only for its own rows,
// so its further queries are bounded by rows.
func (r reader) track(name string, after, rows int) (*TrackPage, error) {
	p, err := r.params()
	if err != nil {
		return nil, err
	}
	known := false
	for _, t := range p.trackNames() {
		known = known || t == name
	}
	if !known {
		return nil, fmt.Errorf("track %q: %w (the chain runs %v)", name, appquery.ErrNotFound, p.trackNames())
	}
	lb, err := appquery.Get[wire.LeaderboardView](r.ctx, r.q, "leaderboard/"+name)
	if err != nil {
		return nil, err
	}
	total := len(lb.Miners)
	from := min(after, total)
	to := min(from+rows, total)
	lb.Miners = lb.Miners[from:to]
	page := &TrackPage{Track: name, Height: lb.Height, Rows: []TrackRow{}, Total: total, After: after, Leaderboard: lb}
	if to < total {
		next := to
		page.NextAfter = &next
	}
	if after > 0 {
		// a page past the end goes back to the last rows
		prev := max(from-rows, 0)
		page.PrevAfter = &prev
	}
	windowed := name == genesis.TrackWorkflow || name == genesis.TrackArena
	for _, e := range lb.Miners {
		row := TrackRow{Rank: e.Rank, UID: e.UID, Score: e.Score}
		if windowed {
			if row.Window, err = r.windowOf(p, e.UID, name); err != nil {
				return nil, err
			}
		}
		page.Rows = append(page.Rows, row)
	}
	return page, nil
}

func (r reader) task(id uint64) (*TaskPage, error) {
	res, err := appquery.Get[wire.TaskResultsView](r.ctx, r.q, "task/"+strconv.FormatUint(id, 10)+"/results")
	if err != nil {
		return nil, err
	}
	st, err := r.status()
	if err != nil {
		return nil, err
	}
	return &TaskPage{TaskID: id, Height: st.Height, Results: res}, nil
}

// epoch is the page of the epoch at path ("epoch/latest" or "epoch/<n>").
func (r reader) epoch(path string) (*EpochPage, error) {
	p, err := r.params()
	if err != nil {
		return nil, err
	}
	ev, err := appquery.Get[wire.EpochView](r.ctx, r.q, path)
	if err != nil {
		return nil, err
	}
	e := ev.Epoch
	page := &EpochPage{Number: e.Number, Height: e.Height, Unallocated: e.Unallocated, Tracks: p.trackNames(),
		Windowed: p.windowed(), Rows: []EpochRow{}, Epoch: ev}
	if page.Proof, err = r.epochProof(e.Number); err != nil {
		page.ProofError = err.Error()
	}
	for _, row := range epochRows(e, page.Tracks) {
		for _, tr := range page.Windowed {
			w, err := r.windowOf(p, row.UID, tr)
			if err != nil {
				return nil, err
			}
			row.Windows = append(row.Windows, TrackWindow{Track: tr, Window: w})
		}
		page.Rows = append(page.Rows, row)
	}
	return page, nil
}

// epochProof is epoch n's proof at the app's latest provable height; nil
// when that state does not have the epoch yet.
func (r reader) epochProof(n uint64) (*Proof, error) {
	key := wire.EpochKey(n)
	resp, err := appquery.Prove(r.ctx, r.q, wire.StoreEpoch, key, 0)
	if errors.Is(err, appquery.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := &Proof{Path: wire.StoreQueryPath(wire.StoreEpoch), Key: hex.EncodeToString(key), Value: hex.EncodeToString(resp.Value),
		Height: resp.Height, ProofOps: []cmtcrypto.ProofOp{}}
	if resp.ProofOps != nil {
		out.ProofOps = resp.ProofOps.Ops
	}
	return out, nil
}

// epochRows are the epoch's uids (those with a weight or a u16 entry) with
// their track scores, by weight then u16 (descending) then uid; equal
// weights share a rank (1, 2, 2, 4).
func epochRows(e *wire.EpochResultView, tracks []string) []EpochRow {
	rows := map[uint32]*EpochRow{}
	get := func(uid uint32) *EpochRow {
		if rows[uid] == nil {
			rows[uid] = &EpochRow{UID: uid, Weight: "0"}
		}
		return rows[uid]
	}
	for i, uid := range e.UIDs {
		if i < len(e.Weights) {
			get(uid).Weight = e.Weights[i]
		}
	}
	for _, w := range e.U16 {
		get(w.UID).U16 = w.Weight
	}
	out := make([]EpochRow, 0, len(rows))
	for _, r := range rows {
		r.Scores = make([]TrackScore, len(tracks))
		for i, tr := range tracks {
			r.Scores[i] = TrackScore{Track: tr, Score: scoreOf(e, tr, r.UID)}
		}
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool {
		if c := compareDecimal(out[i].Weight, out[j].Weight); c != 0 {
			return c > 0
		}
		if out[i].U16 != out[j].U16 {
			return out[i].U16 > out[j].U16
		}
		return out[i].UID < out[j].UID
	})
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && out[i].Weight == out[i-1].Weight && out[i].U16 == out[i-1].U16 {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}

func scoreOf(e *wire.EpochResultView, track string, uid uint32) string {
	for _, t := range e.Tracks {
		if t.Track != track {
			continue
		}
		for i, u := range t.UIDs {
			if u == uid && i < len(t.Scores) {
				return t.Scores[i]
			}
		}
	}
	return ""
}

// compareDecimal compares two decimal strings (an unparsable one is 0).
func compareDecimal(a, b string) int {
	x, errA := decimal.NewFromString(a)
	y, errB := decimal.NewFromString(b)
	if errA != nil {
		x = decimal.Zero
	}
	if errB != nil {
		y = decimal.Zero
	}
	return x.Cmp(y)
}
