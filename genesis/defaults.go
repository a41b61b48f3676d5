package genesis

import (
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
	"github.com/scoringsubnet/validatord/x/window"
)

// DefaultGenesis returns the default app state: all three tracks (workflow
// 0.5, arena 0.3, gas 0.2; activity cutoffs 500, 500 and 100 blocks), the default params of every package, and no
// validators (the caller adds them; Validate requires at least one).
func DefaultGenesis() AppState {
	return AppState{
		Chain:      DefaultChainParams(),
		Validators: []Validator{},
		Tracks: []Track{
			{Name: TrackWorkflow, Share: decimal.RequireFromString("0.5"), ActivityCutoffBlocks: DefaultTaskActivityCutoff},
			{Name: TrackArena, Share: decimal.RequireFromString("0.3"), ActivityCutoffBlocks: DefaultTaskActivityCutoff},
			{Name: TrackGas, Share: decimal.RequireFromString("0.2"), ActivityCutoffBlocks: DefaultGasActivityCutoff},
		},
		Workflow: scoring.DefaultWorkflowParams(),
		Arena:    scoring.DefaultArenaParams(),
		Gas:      scoring.DefaultGasParams(),
		Window:   window.DefaultParams(),
	}
}
