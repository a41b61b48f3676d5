package replay

import (
	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/cometbft/cometbft/types"
)

// InitChainRequest is the InitChain request CometBFT's handshake sends for gen when the
// application is at height 0 (consensus/replay.go in CometBFT).
func InitChainRequest(gen *types.GenesisDoc) *abci.RequestInitChain {
	vals := make([]*types.Validator, len(gen.Validators))
	for i, v := range gen.Validators {
		vals[i] = types.NewValidator(v.PubKey, v.Power)
	}
	params := gen.ConsensusParams.ToProto()
	return &abci.RequestInitChain{
		Time:            gen.GenesisTime,
		ChainId:         gen.ChainID,
		InitialHeight:   initialHeight(gen),
		ConsensusParams: &params,
		Validators:      types.TM2PB.ValidatorUpdates(types.NewValidatorSet(vals)),
		AppStateBytes:   gen.AppState,
	}
}

// initialHeight is the genesis initial height, 1 when unset.
func initialHeight(gen *types.GenesisDoc) int64 {
	if gen.InitialHeight == 0 {
		return 1
	}
	return gen.InitialHeight
}
