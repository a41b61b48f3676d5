package app

import (
	"github.com/shopspring/decimal"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
	"github.com/scoringsubnet/validatord/x/window"
)

// closeGasWindow closes one window of a stored gas agent with the chain's
// history cap (window.GasHistoryMax of the genesis), so an agent's record
// stays bounded even when many closes share one EVM timestamp.
func (a *App) closeGasWindow(pa *subnetv1.GasAgent, gp scoring.GasParams, blockTime int64, pred *decimal.Decimal, minPrice decimal.Decimal) (window.GasAgent, *scoring.GasResult, error) {
	return gasAgentFromProto(pa).CloseCapped(gp, a.chain.gen.Window.GasHistoryMax, blockTime, pred, minPrice)
}
