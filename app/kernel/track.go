package kernel

import "github.com/shopspring/decimal"

// Track is what the shell needs of a track unit outside its messages: its
// genesis name and a miner's aggregate score for the epoch weights.
type Track interface {
	// Name is the track's name in genesis (genesis.TrackWorkflow, ...).
	Name() string
	// Aggregate is uid's score on the track in [0, 1]; ok is false when the
	// miner has none (it then takes no part in the track's share).
	Aggregate(env Env, uid uint32) (score decimal.Decimal, ok bool)
}
