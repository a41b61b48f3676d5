package genesis

import (
	"fmt"

	"github.com/scoringsubnet/validatord/x/budget"
)

// Bytes one EVM block close may write, and the per-record bounds it is
// computed from (docs/codes.md, "Block bound"). Bytes are counted as the app
// counts a block's writes: key + value + 100 per written entry. The per-record
// bounds are worst cases (largest ids, 10^15 prices, 10^33 overpayments);
// app/gas/record_bound_test.go checks the record bounds against the encoded
// records of the largest close, and app/gas/bound_test.go the whole formula
// against that close for several genesis shapes.
const (
	// SweptPredictionBytes bounds one open prediction's submission record,
	// rewritten unscored, late or unrevealed by the close that sweeps it
	// (with its commitment and reveal height: 349 measured), and its id in
	// the retention entry the close schedules (8).
	SweptPredictionBytes = 360
	// ScoredPredictionBytes bounds a counting prediction's submission record
	// with its full gas receipt, without the receipt's memory and history
	// fields (counted in GasSlotBytes and GasPointBytes).
	ScoredPredictionBytes = 1500
	// OpenBlockBytes bounds one open EVM block's prediction-set deletion and
	// its entry in the chain's open block list.
	OpenBlockBytes = 160
	// GasAgentBaseBytes bounds a gas agent record without its memory and
	// history (ids, last prediction, score, last receipt).
	GasAgentBaseBytes = 1500
	// GasSlotBytes and GasPointBytes bound one memory slot and one history
	// point: in the agent record and as fields of the two receipts a close
	// writes per agent (the agent's last receipt, the scored prediction's).
	GasSlotBytes  = 256
	GasPointBytes = 320
	// GasCloseFixedBytes covers the chain record and the rest of a close.
	GasCloseFixedBytes = 16 << 10
	// MaxPredictionAheadLimit bounds chain.max_prediction_ahead on its own.
	MaxPredictionAheadLimit = 1_000_000
)

// MaxGasCloseBytes is what one EVM block close may write under the chain's
// block limits (budget.Limits.GasCloseBytes: half of the 8 MiB transaction
// budget, and the 4 MiB between the settlement and truth limits): a closing
// truth fits every block whose other transactions wrote less than that, and
// a close at a round's deadline always fits after the settlements.
var MaxGasCloseBytes = int64(budget.DefaultLimits().GasCloseBytes())

// GasCloseBytes is the most one EVM block close can write under s: every
// open prediction swept (at most max_prediction_ahead blocks × max_uids
// agents, since predictions are accepted only within max_prediction_ahead
// of the last closed block), plus, per uid, a scored prediction and its
// agent record with a full memory and a full history.
func (s AppState) GasCloseBytes() int64 {
	ahead, uids := int64(s.Chain.MaxPredictionAhead), int64(s.Chain.MaxUIDs)
	perAgent := int64(ScoredPredictionBytes+GasAgentBaseBytes) + int64(s.Gas.MemorySize)*GasSlotBytes +
		int64(s.Window.GasHistoryMax)*GasPointBytes
	return ahead*(OpenBlockBytes+uids*SweptPredictionBytes) + uids*perAgent + GasCloseFixedBytes
}

// validateGasBound checks, when the gas track runs, that one EVM block
// close fits MaxGasCloseBytes. Each factor is bounded first, so the product
// cannot overflow.
func (s AppState) validateGasBound() error {
	if !s.HasTrack(TrackGas) {
		return nil
	}
	if s.Gas.MemorySize > 1_000_000 {
		return fieldErr("gas.memory_size", s.Gas.MemorySize, "must be at most 1000000 while the gas track runs")
	}
	if n := s.GasCloseBytes(); n > MaxGasCloseBytes {
		return fieldErr("chain.max_prediction_ahead", s.Chain.MaxPredictionAhead, fmt.Sprintf(
			"one EVM block close could write %d bytes (max_prediction_ahead %d × (%d + max_uids %d × %d) + max_uids × (%d + %d + memory_size %d × %d + gas_history_max %d × %d) + %d), more than %d: lower max_prediction_ahead, max_uids, gas.memory_size or window.gas_history_max",
			n, s.Chain.MaxPredictionAhead, OpenBlockBytes, s.Chain.MaxUIDs, SweptPredictionBytes, ScoredPredictionBytes,
			GasAgentBaseBytes, s.Gas.MemorySize, GasSlotBytes, s.Window.GasHistoryMax, GasPointBytes, GasCloseFixedBytes, MaxGasCloseBytes))
	}
	return nil
}

// EpochWork is the units of work an epoch costs under s: one aggregate per
// miner per track (budget.UnitsEpochMiner each) and the miner's entry in
// the prune queue (budget.UnitsLookup each). An epoch is never split or
// deferred, so Validate requires it to fit the end of block's work budget.
func (s AppState) EpochWork() int64 {
	return int64(s.Chain.MaxUIDs) * (int64(len(s.Tracks))*budget.UnitsEpochMiner + budget.UnitsLookup)
}

func (s AppState) validateEpochBound() error {
	if w, limit := s.EpochWork(), budget.DefaultLimits().EndWork; w > limit {
		return fieldErr("chain.max_uids", s.Chain.MaxUIDs, fmt.Sprintf(
			"an epoch over max_uids × (%d tracks × %d units + %d for the prune queue) = %d units, more than the end of block's %d (docs/codes.md, \"Block bound\")",
			len(s.Tracks), budget.UnitsEpochMiner, budget.UnitsLookup, w, limit))
	}
	return nil
}
