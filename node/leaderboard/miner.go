package leaderboard

import (
	"errors"
	"fmt"
	"html/template"
	"strconv"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/appquery"
)

// SubmissionRow is one of a miner's submissions.
type SubmissionRow struct {
	ID    uint64 `json:"id"`
	Track string `json:"track"`
	// Target is what it was for: "task N" or "chain C block B".
	Target       string `json:"target"`
	TaskLink     string `json:"task_link"` // the arena task's results page, "" otherwise
	Height       int64  `json:"height"`    // the commit's
	RevealHeight int64  `json:"reveal_height"`
	// Status is the chain's; Label says it for people ("revealed" for
	// pending: revealed, waiting for its reports or its close).
	Status string  `json:"status"`
	Label  string  `json:"label"`
	Score  *string `json:"score"`
	// Query is the submission's query path (its receipt is in the
	// answer) and Receipt this page's copy of that answer.
	Query   string `json:"query"`
	Receipt string `json:"receipt"`
}

// statusLabel is a submission's status in the page's words.
func statusLabel(status string) string {
	if status == "pending" {
		return "revealed"
	}
	return status
}

// MinerWindow is the miner's window on one windowed track.
type MinerWindow struct {
	Track  string   `json:"track"`
	Window *Window  `json:"window"` // null before its first score there
	Scores []string `json:"scores"` // the window's scores, oldest first
}

// GasProgress is the miner's gas agent on one EVM chain: how many of its
// memory's block windows are filled.
type GasProgress struct {
	EvmChainID uint64 `json:"evm_chain_id"`
	Windows    int    `json:"windows"`
	Size       int    `json:"size"`     // gas.memory_size
	Progress   string `json:"progress"` // "windows/size"
	Score      string `json:"score"`    // "" before the agent has one
}

// MinerEpoch is the miner's weight in one epoch.
type MinerEpoch struct {
	Number uint64 `json:"number"`
	Height int64  `json:"height"`
	Weight string `json:"weight"` // "0" when the epoch gave the uid none
	U16    uint32 `json:"u16"`
	// Link is the epoch's page; Proof its JSON with the record's Merkle
	// proof, "" while the app cannot prove it yet.
	Link  string `json:"link"`
	Proof string `json:"proof"`
}

// MinerPage is /miner/<uid>.
type MinerPage struct {
	UID         uint32          `json:"uid"`
	Status      Status          `json:"status"`
	Miner       *wire.MinerView `json:"miner"`
	Aggregates  []TrackScore    `json:"aggregates"` // per track, "" where it has none
	Inactive    string          `json:"inactive"`   // "inactive since height H", or ""
	Windows     []MinerWindow   `json:"windows"`
	Gas         []GasProgress   `json:"gas"`
	Submissions []SubmissionRow `json:"submissions"`
	After       uint64          `json:"after"`
	NextAfter   *uint64         `json:"next_after"`
	Epochs      []MinerEpoch    `json:"epochs"` // newest first
	// The charts, drawn on the server (the JSON has their numbers above).
	ScoreChart  template.HTML `json:"-"`
	WeightChart template.HTML `json:"-"`
}

func (r reader) miner(uid uint32, after uint64) (*MinerPage, error) {
	st, p, err := r.statusParams()
	if err != nil {
		return nil, err
	}
	u := strconv.FormatUint(uint64(uid), 10)
	mv, err := appquery.Get[wire.MinerView](r.ctx, r.q, "miner/"+u)
	if err != nil {
		return nil, err
	}
	page := &MinerPage{UID: uid, Status: st, Miner: mv, After: after, Windows: []MinerWindow{}, Gas: []GasProgress{},
		Submissions: []SubmissionRow{}, Epochs: []MinerEpoch{}}
	for _, tr := range p.trackNames() {
		s, _ := mv.Aggregate(tr)
		page.Aggregates = append(page.Aggregates, TrackScore{Track: tr, Score: s})
	}
	if err := r.minerWindows(p, page); err != nil {
		return nil, err
	}
	if err := r.minerGas(p, page); err != nil {
		return nil, err
	}
	if !hasAggregate(page.Aggregates) {
		from, err := r.inactiveFrom(p, uid)
		if err != nil {
			return nil, err
		}
		page.Inactive = inactiveSince(from)
	}
	if err := r.minerSubmissions(page); err != nil {
		return nil, err
	}
	if page.Epochs, err = r.minerEpochs(uid); err != nil {
		return nil, err
	}
	page.ScoreChart, page.WeightChart = scoreChart(page.Submissions), weightChart(page.Epochs)
	return page, nil
}

func hasAggregate(aggs []TrackScore) bool {
	for _, a := range aggs {
		if a.Score != "" {
			return true
		}
	}
	return false
}

// inactiveSince words the height a miner without any aggregate lost its
// last one ("" for one never scored: from is 0).
func inactiveSince(from int64) string {
	if from <= 0 {
		return ""
	}
	return fmt.Sprintf("inactive since height %d", from)
}

// inactiveFrom is the first height at which uid had no aggregate on any
// track: a track drops a miner once its latest scored work there is more
// than the track's activity_cutoff_blocks behind (docs/queries.md), so
// each scored track's last height + cutoff + 1, the latest of them. 0 when
// the uid was never scored.
func (r reader) inactiveFrom(p *params, uid uint32) (int64, error) {
	last := map[string]int64{}
	wv, err := appquery.Get[wire.WindowView](r.ctx, r.q, "window/"+strconv.FormatUint(uint64(uid), 10))
	if err != nil && !errors.Is(err, appquery.ErrNotFound) {
		return 0, err
	}
	if wv != nil && wv.Workflow != nil {
		last[genesis.TrackWorkflow] = wv.Workflow.LastHeight
	}
	if wv != nil && wv.Arena != nil {
		last[genesis.TrackArena] = wv.Arena.LastHeight
	}
	for _, chain := range p.Chain.GasChains {
		ag, err := appquery.Get[wire.GasAgentView](r.ctx, r.q, fmt.Sprintf("gas/%d/%d", uid, chain))
		if errors.Is(err, appquery.ErrNotFound) {
			continue
		}
		if err != nil {
			return 0, err
		}
		last[genesis.TrackGas] = max(last[genesis.TrackGas], ag.LastFreshHeight)
	}
	var from int64
	for _, t := range p.Tracks {
		if h := last[t.Name]; h > 0 {
			from = max(from, h+t.ActivityCutoffBlocks+1)
		}
	}
	return from, nil
}

// minerWindows fills the windows.
func (r reader) minerWindows(p *params, page *MinerPage) error {
	wv, err := appquery.Get[wire.WindowView](r.ctx, r.q, "window/"+strconv.FormatUint(uint64(page.UID), 10))
	if err != nil && !errors.Is(err, appquery.ErrNotFound) {
		return err
	}
	for _, tr := range p.windowed() {
		mw := MinerWindow{Track: tr, Scores: []string{}}
		if wv != nil {
			tw := wv.Workflow
			if tr == genesis.TrackArena {
				tw = wv.Arena
			}
			if tw != nil {
				mw.Scores = tw.Scores
				if mw.Window, err = r.windowOf(p, page.UID, tr); err != nil {
					return err
				}
			}
		}
		page.Windows = append(page.Windows, mw)
	}
	return nil
}

// minerGas fills the gas agents (one per EVM chain the agent exists on).
func (r reader) minerGas(p *params, page *MinerPage) error {
	runsGas := false
	for _, t := range p.trackNames() {
		runsGas = runsGas || t == genesis.TrackGas
	}
	if !runsGas {
		return nil
	}
	for _, chain := range p.Chain.GasChains {
		ag, err := appquery.Get[wire.GasAgentView](r.ctx, r.q, fmt.Sprintf("gas/%d/%d", page.UID, chain))
		if errors.Is(err, appquery.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		g := GasProgress{EvmChainID: chain, Windows: len(ag.Memory), Size: p.Gas.MemorySize}
		g.Progress = fmt.Sprintf("%d/%d", g.Windows, g.Size)
		if ag.HasScore {
			g.Score = ag.Score
		}
		page.Gas = append(page.Gas, g)
	}
	return nil
}

func (r reader) minerSubmissions(page *MinerPage) error {
	sv, err := appquery.Get[wire.SubmissionsView](r.ctx, r.q, fmt.Sprintf("submissions/miner/%d/%d/%d", page.UID, page.After, orDefault(r.opts.subRows, subRows)))
	if err != nil {
		return err
	}
	page.NextAfter = sv.NextAfter
	for _, s := range sv.Submissions {
		id := strconv.FormatUint(s.ID, 10)
		row := SubmissionRow{ID: s.ID, Track: s.Track, Height: s.Height, RevealHeight: s.RevealHeight, Status: s.Status,
			Label: statusLabel(s.Status), Score: s.Score, Query: "submission/" + id, Receipt: "/submission/" + id + ".json"}
		switch {
		case s.TaskID != nil:
			row.Target = fmt.Sprintf("task %d", *s.TaskID)
			if s.Track == genesis.TrackArena {
				row.TaskLink = fmt.Sprintf("/task/%d", *s.TaskID)
			}
		case s.EvmChainID != nil && s.EvmBlock != nil:
			row.Target = fmt.Sprintf("chain %d block %d", *s.EvmChainID, *s.EvmBlock)
		}
		page.Submissions = append(page.Submissions, row)
	}
	return nil
}

// recentEpochs are the latest epochs, newest first, at most epochsShown
// (fewer when retention deleted older ones; none before the first).
func (r reader) recentEpochs() ([]*wire.EpochResultView, error) {
	latest, err := appquery.Get[wire.EpochView](r.ctx, r.q, "epoch/latest")
	if errors.Is(err, appquery.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := []*wire.EpochResultView{latest.Epoch}
	for n := latest.Epoch.Number; n > 0 && len(out) < epochsShown; {
		n--
		ev, err := appquery.Get[wire.EpochView](r.ctx, r.q, "epoch/"+strconv.FormatUint(n, 10))
		if errors.Is(err, appquery.ErrNotFound) {
			break // retired, or before the first
		}
		if err != nil {
			return nil, err
		}
		out = append(out, ev.Epoch)
	}
	return out, nil
}

func (r reader) minerEpochs(uid uint32) ([]MinerEpoch, error) {
	eps, err := r.recentEpochs()
	if err != nil {
		return nil, err
	}
	out := []MinerEpoch{}
	for _, e := range eps {
		me := MinerEpoch{Number: e.Number, Height: e.Height, Weight: weightOf(e, uid), U16: u16Of(e, uid),
			Link: fmt.Sprintf("/epoch/%d", e.Number)}
		proof, err := r.epochProof(e.Number)
		if err == nil && proof != nil {
			me.Proof = me.Link + ".json"
		}
		out = append(out, me)
	}
	return out, nil
}

func weightOf(e *wire.EpochResultView, uid uint32) string {
	if w := epochWeight(e, uid); w != "" {
		return w
	}
	return "0"
}

func u16Of(e *wire.EpochResultView, uid uint32) uint32 {
	for _, w := range e.U16 {
		if w.UID == uid {
			return w.Weight
		}
	}
	return 0
}
