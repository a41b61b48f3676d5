package commit

// Params are one track's commit-reveal parameters, from genesis
// (tracks[i].reveal_blocks, and for gas tracks[i].commit_margin_seconds).
type Params struct {
	// RevealBlocks is the length of the reveal window, in blocks.
	RevealBlocks int64
	// CommitMarginSeconds (gas only; 0 elsewhere): how long before the EVM
	// block's timestamp a prediction's commit must have been included.
	CommitMarginSeconds int64
}

// Bounds of the parameters.
const (
	// MaxRevealBlocks: a commit never revealed lives at most this many blocks
	// past its commit window, and so does the task's settlement.
	MaxRevealBlocks = 1000
	// MinCommitMargin keeps the chain's rule before commit-reveal (a
	// prediction counts only if included strictly before the EVM timestamp)
	// as the floor; MaxCommitMargin is chain.max_truth_drift_seconds' default.
	MinCommitMargin = 1
	MaxCommitMargin = 300
)

// Defaults. DefaultRevealBlocks: 10 blocks, one default epoch, is time for a
// miner's client to see its commit final and send the reveal with room for a
// few full blocks. DefaultCommitMargin: a transaction sent at real time s can
// sit in a block whose time (BFT time, truncated to seconds) is up to one
// block interval plus one second earlier than s (docs/commit-reveal.md §5);
// with CometBFT's default timeout_commit of 1 s that is 2 s.
const (
	DefaultRevealBlocks = 10
	DefaultCommitMargin = 2
)

// DefaultParams are the defaults of a track: gas gets a margin, the task
// tracks none.
func DefaultParams(gas bool) Params {
	p := Params{RevealBlocks: DefaultRevealBlocks}
	if gas {
		p.CommitMarginSeconds = DefaultCommitMargin
	}
	return p
}

// Validate checks each field; gas says whether the track is the gas track
// (which needs a margin; the task tracks must leave it 0).
func (p Params) Validate(gas bool) error {
	if p.RevealBlocks < 1 || p.RevealBlocks > MaxRevealBlocks {
		return &InputError{Field: "reveal_blocks", Value: p.RevealBlocks, Rule: "must be in [1, 1000]"}
	}
	if !gas {
		if p.CommitMarginSeconds != 0 {
			return &InputError{Field: "commit_margin_seconds", Value: p.CommitMarginSeconds, Rule: "only the gas track has one"}
		}
		return nil
	}
	if p.CommitMarginSeconds < MinCommitMargin || p.CommitMarginSeconds > MaxCommitMargin {
		return &InputError{Field: "commit_margin_seconds", Value: p.CommitMarginSeconds, Rule: "must be in [1, 300]"}
	}
	return nil
}
