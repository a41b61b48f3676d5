package genesis

import (
	"errors"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/quorum"
)

// Bounds of the chain parameters.
const (
	// MinTxBytes and MaxTxBytesLimit bound ChainParams.MaxTxBytes.
	MinTxBytes      = 256
	MaxTxBytesLimit = 64 * 1024
	// MaxUIDLimit is the size of the uid space (uint16).
	MaxUIDLimit = 65536
	// MaxBlocksLimit bounds every deadline given in blocks.
	MaxBlocksLimit = 1_000_000
	// MaxGasChains bounds the number of EVM chains the gas track follows.
	MaxGasChains = 64
	// MaxOpenTasksLimit bounds chain.max_open_tasks.
	MaxOpenTasksLimit = 1_000_000
	// MaxTruthDriftLimit bounds chain.max_truth_drift_seconds (one day).
	MaxTruthDriftLimit = 86_400
	// MaxRetainStateBlocksLimit bounds chain.retain_state_blocks (about 31
	// years at 1 s blocks: any larger value keeps everything, as 0 does).
	MaxRetainStateBlocksLimit = 1_000_000_000
	// NodeRetainStateBlocks is the chain.retain_state_blocks that `validatord
	// init` and `testnet` write: a week of 1 s blocks. DefaultGenesis keeps
	// 0 (everything), so that existing genesis files keep their bytes.
	NodeRetainStateBlocks = 7 * 24 * 3600
)

// ChainParams are the chain's own parameters.
type ChainParams struct {
	// MaxTxBytes is the largest accepted transaction (the signed envelope).
	MaxTxBytes int64 `json:"max_tx_bytes"`
	// MaxUIDs is the number of miner uids that can be handed out.
	MaxUIDs int `json:"max_uids"`
	// MaxSubmissionBlocks and MaxReportBlocks bound a task's windows.
	MaxSubmissionBlocks int64 `json:"max_submission_blocks"`
	MaxReportBlocks     int64 `json:"max_report_blocks"`
	// TruthReportBlocks is how long validators may report the truth of an EVM
	// block once the first truth for it arrived.
	TruthReportBlocks int64 `json:"truth_report_blocks"`
	// GasChains are the EVM chain ids of the gas track, ascending.
	GasChains []uint64 `json:"gas_chains"`
	// MaxPredictionAhead bounds how far past the last closed EVM block a
	// prediction may target; a chain with no closed block yet takes no
	// predictions. With the gas track on, max_prediction_ahead × max_uids
	// is bounded so that one close fits MaxGasCloseBytes (gasbound.go).
	MaxPredictionAhead uint64 `json:"max_prediction_ahead"`
	// MaxOpenTasks bounds, per validator, the tasks it posted whose
	// settlement is not done: what one validator can make the chain hold.
	MaxOpenTasks uint64 `json:"max_open_tasks"`
	// MaxTruthDriftSeconds bounds a truth's EVM timestamp from above: at
	// most the block time plus this, so that no vote can push an EVM
	// chain's clock into the future.
	MaxTruthDriftSeconds int64 `json:"max_truth_drift_seconds"`
	// DeadlineQuorum is the fraction of the total voting power that a
	// report's or a truth round's reported power must strictly exceed at its
	// deadline to settle (else it expires, or the round is dropped); early,
	// strictly more than 2/3 settles it. In [1/3, 2/3), at most 18 places
	// (quorum.NewRule; docs/scoring.md §6.5).
	DeadlineQuorum decimal.Decimal `json:"deadline_quorum"`
	// Registration is how miners get uids: RegistrationPoW (the default,
	// also when empty: docs/membership.md) or RegistrationMirror (the
	// parent chain's uids, docs/mirror.md; genesis' mirror section).
	Registration string `json:"registration,omitempty"`
	// RetainStateBlocks: settled tasks (with their submissions, receipts
	// and index entries), ended truth rounds (with the gas predictions their
	// close judged) and epochs are deleted this many blocks after they were
	// settled, closed or written, by the end of block's retention step
	// (docs/retention.md). 0, the default, keeps everything. When positive
	// it must exceed RetentionHorizon (retention.go). The value in force
	// when the step runs decides, so a params proposal may change it at
	// any height.
	RetainStateBlocks int64 `json:"retain_state_blocks,omitempty"`
	// GasWindows are the EVM chains whose windows are longer than one
	// block, ascending by chain id (gaswindow.go); absent, every chain's
	// window is one block.
	GasWindows []GasWindow `json:"gas_windows,omitempty"`
	// GasPaused are the EVM chains governance paused (resume_block 0) or
	// paused and resumed, ascending by chain id (gaspause.go); absent, no
	// chain was ever paused.
	GasPaused []GasPause `json:"gas_paused,omitempty"`
}

// DefaultChainParams: 16 KiB transactions, 256 uids, tasks open for up to
// 1000 blocks, truths reported within 20 blocks, Ethereum (1) and Base (8453),
// predictions up to 8 EVM blocks past the last closed one, 10,000 unsettled
// tasks per validator, EVM timestamps at most 5 minutes past the block time,
// and strictly more than half of the power to settle at a deadline.
func DefaultChainParams() ChainParams {
	return ChainParams{
		MaxTxBytes:           16 * 1024,
		MaxUIDs:              256,
		MaxSubmissionBlocks:  1000,
		MaxReportBlocks:      1000,
		TruthReportBlocks:    20,
		GasChains:            []uint64{1, 8453},
		MaxPredictionAhead:   8,
		MaxOpenTasks:         10_000,
		MaxTruthDriftSeconds: 300,
		DeadlineQuorum:       quorum.DefaultRule().DeadlineQuorum(),
	}
}

// Validate checks every field.
func (c ChainParams) Validate() error {
	if c.MaxTxBytes < MinTxBytes || c.MaxTxBytes > MaxTxBytesLimit {
		return fieldErr("chain.max_tx_bytes", c.MaxTxBytes, fmt.Sprintf("must be in [%d, %d]", MinTxBytes, MaxTxBytesLimit))
	}
	if c.MaxUIDs < 1 || c.MaxUIDs > MaxUIDLimit-1 {
		return fieldErr("chain.max_uids", c.MaxUIDs, fmt.Sprintf("must be in [1, %d] (one uid is the burn uid)", MaxUIDLimit-1))
	}
	blocks := []struct {
		name string
		v    int64
	}{
		{"chain.max_submission_blocks", c.MaxSubmissionBlocks},
		{"chain.max_report_blocks", c.MaxReportBlocks},
		{"chain.truth_report_blocks", c.TruthReportBlocks},
	}
	for _, b := range blocks {
		if b.v < 1 || b.v > MaxBlocksLimit {
			return fieldErr(b.name, b.v, fmt.Sprintf("must be in [1, %d]", MaxBlocksLimit))
		}
	}
	if c.MaxPredictionAhead < 1 || c.MaxPredictionAhead > MaxPredictionAheadLimit {
		return fieldErr("chain.max_prediction_ahead", c.MaxPredictionAhead, fmt.Sprintf("must be in [1, %d]", MaxPredictionAheadLimit))
	}
	if c.MaxOpenTasks < 1 || c.MaxOpenTasks > MaxOpenTasksLimit {
		return fieldErr("chain.max_open_tasks", c.MaxOpenTasks, fmt.Sprintf("must be in [1, %d]", MaxOpenTasksLimit))
	}
	if c.MaxTruthDriftSeconds < 0 || c.MaxTruthDriftSeconds > MaxTruthDriftLimit {
		return fieldErr("chain.max_truth_drift_seconds", c.MaxTruthDriftSeconds, fmt.Sprintf("must be in [0, %d]", MaxTruthDriftLimit))
	}
	if c.RetainStateBlocks < 0 || c.RetainStateBlocks > MaxRetainStateBlocksLimit {
		return fieldErr("chain.retain_state_blocks", c.RetainStateBlocks, fmt.Sprintf("must be in [0, %d] (0 keeps everything)", MaxRetainStateBlocksLimit))
	}
	if err := validateDeadlineQuorum(c.DeadlineQuorum); err != nil {
		return err
	}
	if err := validateGasChains(c.GasChains); err != nil {
		return err
	}
	if err := c.validateGasWindows(); err != nil {
		return err
	}
	return c.validateGasPaused()
}

// validateDeadlineQuorum applies quorum.NewRule, the one check of the range.
func validateDeadlineQuorum(q decimal.Decimal) error {
	_, err := quorum.NewRule(q)
	if err == nil {
		return nil
	}
	reason := err.Error()
	var ie *quorum.InputError
	if errors.As(err, &ie) {
		reason = ie.Reason
	}
	return fieldErr("chain.deadline_quorum", q.String(), reason)
}

func validateGasChains(ids []uint64) error {
	if len(ids) > MaxGasChains {
		return fieldErr("chain.gas_chains", len(ids), fmt.Sprintf("at most %d chains", MaxGasChains))
	}
	for i, id := range ids {
		field := fmt.Sprintf("chain.gas_chains[%d]", i)
		if id == 0 {
			return fieldErr(field, id, "chain id must be positive")
		}
		if i > 0 && ids[i-1] >= id {
			return fieldErr(field, id, "chain ids must be strictly ascending (no duplicates)")
		}
	}
	return nil
}
