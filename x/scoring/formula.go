package scoring

import "slices"

// FormulaV1 is the first version of every track's formulas: the seeds as
// they are (subnet-scoring-v1.md v1.0.0, agentic-arena-metrics.md,
// gas-agent-evaluation.md), with the decisions of docs/scoring.md.
const FormulaV1 = "v1.0.0"

// The tracks the formulas score, by the names genesis, transactions and
// receipts give them.
const (
	TrackWorkflow = "workflow"
	TrackArena    = "arena"
	TrackGas      = "gas"
)

// formulas lists each track's formula versions, oldest first. A new
// version is a new entry with its own code beside the old; an old entry's
// code is never edited (its golden tests pin it), so a chain that ran under
// it replays identically. Genesis and params upgrades may name any listed
// version.
var formulas = [...]struct {
	track    string
	versions []string
}{
	{TrackWorkflow, []string{FormulaV1}},
	{TrackArena, []string{FormulaV1}},
	{TrackGas, []string{FormulaV1}},
}

// FormulaVersions returns the formula versions of a track, oldest first
// (nil for an unknown track).
func FormulaVersions(track string) []string {
	for _, f := range formulas {
		if f.track == track {
			return slices.Clone(f.versions)
		}
	}
	return nil
}

// KnownFormula reports whether version is a formula version of track.
func KnownFormula(track, version string) bool {
	return slices.Contains(FormulaVersions(track), version)
}
