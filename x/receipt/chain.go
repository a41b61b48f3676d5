package receipt

import "github.com/scoringsubnet/validatord/x/scoring"

// Chain is what Verify compares a receipt with: the params of each track's
// formula and the validators, each by the name its power is recorded under.
// The genesis package builds it from an app state (AppState.ReceiptChain),
// so that this package needs nothing of the schema above it.
type Chain struct {
	// Validators is the list Vote.Validator indexes, in the chain's order.
	Validators []Validator
	Workflow   scoring.WorkflowParams
	Arena      scoring.ArenaParams
	Gas        scoring.GasParams
}

// Validator is a validator as a receipt names it: power.<Name> = Power.
type Validator struct {
	Name  string
	Power int64
}

// DefaultChain is every formula's default params and no validators: what
// Verify reads a missing default from when it checks a receipt against
// itself (it compares nothing with it).
func DefaultChain() Chain {
	return Chain{
		Validators: []Validator{},
		Workflow:   scoring.DefaultWorkflowParams(),
		Arena:      scoring.DefaultArenaParams(),
		Gas:        scoring.DefaultGasParams(),
	}
}
