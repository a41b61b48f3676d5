package genesis

import (
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/membership"
	"github.com/scoringsubnet/validatord/x/scoring"
	"github.com/scoringsubnet/validatord/x/window"
)

// DefaultGenesis returns the default app state: all three tracks (workflow
// 0.5, arena 0.3, gas 0.2; activity cutoffs 500, 500 and 100 blocks;
// reveal windows of 10 blocks; a gas commit margin of 2 s), the default params of every package, and no
// validators (the caller adds them; Validate requires at least one).
func DefaultGenesis() AppState {
	return AppState{
		Chain:      DefaultChainParams(),
		Validators: []Validator{},
		Tracks: []Track{
			NewTrack(TrackWorkflow, decimal.RequireFromString("0.5")),
			NewTrack(TrackArena, decimal.RequireFromString("0.3")),
			NewTrack(TrackGas, decimal.RequireFromString("0.2")),
		},
		Workflow:   scoring.DefaultWorkflowParams(),
		Arena:      scoring.DefaultArenaParams(),
		Gas:        scoring.DefaultGasParams(),
		Window:     window.DefaultParams(),
		Membership: membership.DefaultParams(),
		Governance: DefaultGovernance(),
	}
}
