package genesis

import (
	"errors"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/commit"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// Track names: x/scoring's, whose formulas score them.
const (
	TrackWorkflow = scoring.TrackWorkflow
	TrackArena    = scoring.TrackArena
	TrackGas      = scoring.TrackGas
)

// TrackNames lists every known track in canonical order.
var TrackNames = []string{TrackWorkflow, TrackArena, TrackGas}

// Track is one track the chain runs, its share of the epoch weights and
// who takes part in it.
type Track struct {
	Name  string          `json:"name"`
	Share decimal.Decimal `json:"share"`
	// ActivityCutoffBlocks: a miner whose latest scored work on the track (a
	// scored task in its workflow or arena window; for gas, a close that
	// judged a fresh prediction) is more than this many blocks older than
	// the epoch takes no part in the track's share (window.Active).
	ActivityCutoffBlocks int64 `json:"activity_cutoff_blocks"`
	// RevealBlocks: the reveal window of the track's commits, in blocks
	// (docs/commit-reveal.md §4).
	RevealBlocks int64 `json:"reveal_blocks"`
	// CommitMarginSeconds (gas only): a prediction counts only if its
	// commit's block time is at least this many seconds before the EVM
	// block's timestamp.
	CommitMarginSeconds int64 `json:"commit_margin_seconds,omitempty"`
	// Formula names the version of the track's scoring formulas in force
	// (scoring.FormulaVersions): a params upgrade may activate a newer one;
	// no version's code is ever edited, so a block replays under the
	// formulas of its height.
	Formula string `json:"formula"`
}

// Commit is the track's commit-reveal parameters.
func (t Track) Commit() commit.Params {
	return commit.Params{RevealBlocks: t.RevealBlocks, CommitMarginSeconds: t.CommitMarginSeconds}
}

// Default activity cutoffs, in blocks; both are multiples of the default
// epoch (window.DefaultParams().EpochBlocks = 10). Tasks come as validators
// post them, and a task's score lands only at its settlement, up to
// max_submission_blocks + max_report_blocks after posting: 50 epochs lets a
// miner miss a few rounds of tasks without dropping out, yet ends the
// weight of a miner that stopped within an hour at 6 s blocks. A gas agent
// can predict every EVM block (12 s on Ethereum, 2 s on Base), so 10 epochs
// of silence means it stopped.
const (
	DefaultTaskActivityCutoff = 500
	DefaultGasActivityCutoff  = 100
)

// DefaultActivityCutoff is the default activity_cutoff_blocks of a track.
func DefaultActivityCutoff(name string) int64 {
	if name == TrackGas {
		return DefaultGasActivityCutoff
	}
	return DefaultTaskActivityCutoff
}

// NewTrack is a track entry with the given share and the track's defaults:
// its activity cutoff, commit.DefaultRevealBlocks and, for gas,
// commit.DefaultCommitMargin.
func NewTrack(name string, share decimal.Decimal) Track {
	p := commit.DefaultParams(name == TrackGas)
	return Track{Name: name, Share: share, ActivityCutoffBlocks: DefaultActivityCutoff(name),
		RevealBlocks: p.RevealBlocks, CommitMarginSeconds: p.CommitMarginSeconds, Formula: scoring.FormulaV1}
}

// Track returns the entry of the named track, if the chain runs it.
func (s AppState) Track(name string) (Track, bool) {
	for _, t := range s.Tracks {
		if t.Name == name {
			return t, true
		}
	}
	return Track{}, false
}

// validateCommit: every track's commit-reveal parameters (commit.Params).
func (s AppState) validateCommit() error {
	for i, t := range s.Tracks {
		if err := t.Commit().Validate(t.Name == TrackGas); err != nil {
			var ie *commit.InputError
			if errors.As(err, &ie) {
				return fieldErr(fmt.Sprintf("tracks[%d].%s", i, ie.Field), ie.Value, ie.Rule)
			}
			return err
		}
	}
	return nil
}

// validateActivity: every activity_cutoff_blocks in [EpochBlocks,
// MaxBlocksLimit]. A cutoff shorter than the epoch would drop work done
// inside the epoch being weighed.
func (s AppState) validateActivity() error {
	for i, t := range s.Tracks {
		lo := s.Window.EpochBlocks
		if t.ActivityCutoffBlocks < lo || t.ActivityCutoffBlocks > MaxBlocksLimit {
			return fieldErr(fmt.Sprintf("tracks[%d].activity_cutoff_blocks", i), t.ActivityCutoffBlocks,
				fmt.Sprintf("must be in [window.epoch_blocks = %d, %d]: a shorter cutoff would drop work done inside the epoch", lo, MaxBlocksLimit))
		}
	}
	return nil
}

func knownTrack(name string) bool {
	for _, n := range TrackNames {
		if n == name {
			return true
		}
	}
	return false
}

// validateTracks: at least one, known, unique, shares in (0, 1] with at most
// 18 places, summing to exactly 1.
func validateTracks(tracks []Track) error {
	if len(tracks) == 0 {
		return fieldErr("tracks", "[]", "at least one track is required")
	}
	sum := decimal.Zero
	for i, t := range tracks {
		field := fmt.Sprintf("tracks[%d]", i)
		if !knownTrack(t.Name) {
			return fieldErr(field+".name", t.Name, "unknown track (workflow, arena, gas)")
		}
		for j := 0; j < i; j++ {
			if tracks[j].Name == t.Name {
				return fieldErr(field+".name", t.Name, "duplicate track")
			}
		}
		if !scoring.KnownFormula(t.Name, t.Formula) {
			return fieldErr(field+".formula", fmt.Sprintf("%q", t.Formula), fmt.Sprintf("not a formula version of the %s track (known: %v)", t.Name, scoring.FormulaVersions(t.Name)))
		}
		if t.Share.Sign() <= 0 || t.Share.Cmp(scoring.One) > 0 {
			return fieldErr(field+".share", t.Share.String(), "must be in (0, 1]")
		}
		if !t.Share.Equal(scoring.Round(t.Share)) {
			return fieldErr(field+".share", t.Share.String(), "more than 18 decimal places")
		}
		sum = sum.Add(t.Share)
	}
	if !sum.Equal(scoring.One) {
		return fieldErr("tracks", sum.String(), "shares must sum to exactly 1")
	}
	return nil
}
