package window

import (
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

// Upper bounds that keep every per-miner and per-task state small enough to
// hash and store each block. They are limits of this implementation, not of
// the seeds, and are checked by Validate.
const (
	MaxWindowSize   = 10_000
	MaxBaselineK    = 100_000
	SeedBaselineMin = 5 // agentic-arena-metrics.md: fewer submissions → default baseline
	// MaxGasHistoryLimit bounds Params.GasHistoryMax, so one gas agent's
	// record stays a few hundred KiB at most.
	MaxGasHistoryLimit = 4096
	// DefaultGasHistoryMax is the default cap on a gas agent's history points:
	// the 60 s horizon of a chain closing one block every 4 s or slower
	// (Ethereum's 12 s: 6 points) is never cut; faster chains keep their
	// newest 16 points. It keeps a close of 256 agents within the genesis
	// close bound (docs/codes.md, "Block bound").
	DefaultGasHistoryMax = 16
)

// Params are the window, baseline and epoch parameters of the chain.
type Params struct {
	// WindowSize is N, the number of most recent scored tasks a miner's
	// window keeps (subnet-scoring-v1.md: 100).
	WindowSize int `json:"window_size"`
	// WarmupTasks is the number of tasks after which a newcomer's aggregate is
	// no longer discounted: aggregate × min(1, seen / WarmupTasks). 0 disables
	// the warm-up.
	WarmupTasks int `json:"warmup_tasks"`
	// ArenaWarmupTasks is the same warm-up for the arena track: a newcomer's
	// arena aggregate (mean of its recent scores / 100) × min(1, seen /
	// ArenaWarmupTasks). 0 disables it.
	ArenaWarmupTasks int `json:"arena_warmup_tasks"`
	// BaselineK is the number of most recent valid submissions an arena task's
	// baseline keeps.
	BaselineK int `json:"baseline_k"`
	// BaselineMin is the number of submissions below which the default baseline
	// is used; x/scoring.ComputeBaseline applies the seed's 5, so this cannot
	// be lower than SeedBaselineMin.
	BaselineMin int `json:"baseline_min"`
	// EpochBlocks is E: weights are computed at every height divisible by E.
	EpochBlocks int64 `json:"epoch_blocks"`
	// Cap is the maximum weight of one miner in an epoch (0.15).
	Cap decimal.Decimal `json:"cap"`
	// BurnUID receives the unallocated part of the u16 weight vector.
	BurnUID uint16 `json:"burn_uid"`
	// GasHistoryMax caps the history points a gas agent keeps (the newest
	// ones inside the horizon): without it, closes sharing one EVM timestamp
	// (sub-second chains) would never be pruned.
	GasHistoryMax int `json:"gas_history_max"`
}

// DefaultParams returns the seeds' values: a 100-task window with a 20-task
// warm-up on both the workflow and the arena track, baselines over the last 1000 submissions (at least 5), an epoch
// every 10 blocks, a 15% cap, uid 0 as the burn uid and at most 16 gas
// history points per agent.
func DefaultParams() Params {
	return Params{
		WindowSize:       100,
		WarmupTasks:      20,
		ArenaWarmupTasks: 20,
		BaselineK:        1000,
		BaselineMin:      SeedBaselineMin,
		EpochBlocks:      10,
		Cap:              decimal.RequireFromString("0.15"),
		BurnUID:          0,
		GasHistoryMax:    DefaultGasHistoryMax,
	}
}

// Validate checks each field, then the relations between fields. The first
// failure is returned as a *ParamError naming the field.
func (p Params) Validate() error {
	checks := []func() error{
		p.validateWindowSize, p.validateWarmup, p.validateBaselineK,
		p.validateBaselineMin, p.validateEpochBlocks, p.validateCap,
		p.validateGasHistoryMax, p.validateCross,
	}
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

func (p Params) validateWindowSize() error {
	if p.WindowSize < 1 || p.WindowSize > MaxWindowSize {
		return paramErr("window_size", p.WindowSize, "must be in [1, 10000]")
	}
	return nil
}

func (p Params) validateWarmup() error {
	if p.WarmupTasks < 0 {
		return paramErr("warmup_tasks", p.WarmupTasks, "must not be negative")
	}
	if p.ArenaWarmupTasks < 0 {
		return paramErr("arena_warmup_tasks", p.ArenaWarmupTasks, "must not be negative")
	}
	return nil
}

func (p Params) validateBaselineK() error {
	if p.BaselineK < 1 || p.BaselineK > MaxBaselineK {
		return paramErr("baseline_k", p.BaselineK, "must be in [1, 100000]")
	}
	return nil
}

func (p Params) validateBaselineMin() error {
	if p.BaselineMin < SeedBaselineMin {
		return paramErr("baseline_min", p.BaselineMin, "must be at least 5 (the seed's minimum, applied by scoring.ComputeBaseline)")
	}
	return nil
}

func (p Params) validateEpochBlocks() error {
	if p.EpochBlocks < 1 {
		return paramErr("epoch_blocks", p.EpochBlocks, "must be at least 1")
	}
	return nil
}

func (p Params) validateCap() error {
	if p.Cap.Sign() <= 0 || p.Cap.Cmp(scoring.One) > 0 {
		return paramErr("cap", p.Cap.String(), "must be in (0, 1]")
	}
	if !p.Cap.Equal(scoring.Round(p.Cap)) {
		return paramErr("cap", p.Cap.String(), "more than 18 decimal places")
	}
	return nil
}

func (p Params) validateGasHistoryMax() error {
	if p.GasHistoryMax < 1 || p.GasHistoryMax > MaxGasHistoryLimit {
		return paramErr("gas_history_max", p.GasHistoryMax, "must be in [1, 4096]")
	}
	return nil
}

// validateCross holds the checks between fields. BurnUID has no check of its
// own: every uint16 is a valid uid.
func (p Params) validateCross() error {
	if p.WarmupTasks > p.WindowSize {
		return paramErr("warmup_tasks", p.WarmupTasks, "must not exceed window_size (a full window would still be discounted)")
	}
	if p.ArenaWarmupTasks > p.WindowSize {
		return paramErr("arena_warmup_tasks", p.ArenaWarmupTasks, "must not exceed window_size (a full window would still be discounted)")
	}
	if p.BaselineMin > p.BaselineK {
		return paramErr("baseline_min", p.BaselineMin, "must not exceed baseline_k (the baseline would never leave the default)")
	}
	return nil
}
