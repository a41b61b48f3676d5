package membership

import "fmt"

// Params are the registration parameters of the chain, from genesis (its
// membership section, with the JSON names below).
type Params struct {
	// InitialDifficulty is the difficulty of the first registrations, until
	// the first adjustment.
	InitialDifficulty uint64 `json:"initial_difficulty"`
	// MinDifficulty and MaxDifficulty bound every adjustment.
	MinDifficulty uint64 `json:"min_difficulty"`
	MaxDifficulty uint64 `json:"max_difficulty"`
	// AdjustmentInterval: the difficulty is adjusted at the end of every
	// block whose height is a multiple of it (AdjustAt).
	AdjustmentInterval int64 `json:"adjustment_interval"`
	// TargetRegistrations is the number of registrations per interval at
	// which the difficulty stays where it is.
	TargetRegistrations uint32 `json:"target_registrations"`
	// MaxRegistrationsPerBlock caps the registrations one block accepts,
	// whatever their work.
	MaxRegistrationsPerBlock uint32 `json:"max_registrations_per_block"`
	// MaxAdjustFactor bounds one adjustment: at most × and ÷ this factor.
	MaxAdjustFactor uint64 `json:"max_adjust_factor"`
	// ImmunityBlocks: a uid cannot be replaced during the ImmunityBlocks
	// blocks from the one that registered it (that one included).
	ImmunityBlocks int64 `json:"immunity_blocks"`
	// MinNonImmune: a registration replaces a uid only if more than
	// MinNonImmune uids are not immune, so that at least MinNonImmune
	// non-immune uids remain after it.
	MinNonImmune uint32 `json:"min_non_immune"`
	// MaxPowAgeBlocks: a registration's work binds the hash of one of the
	// MaxPowAgeBlocks blocks before the block that includes it.
	MaxPowAgeBlocks int64 `json:"max_pow_age_blocks"`
}

// Bounds of the parameters.
const (
	// MaxBlocksLimit bounds every duration in blocks (genesis'
	// MaxBlocksLimit).
	MaxBlocksLimit = 1_000_000
	// MaxAdjustFactorLimit bounds MaxAdjustFactor: a larger step makes the
	// difficulty swing more than demand does.
	MaxAdjustFactorLimit = 16
	// MaxPowAgeLimit bounds MaxPowAgeBlocks, and so the number of recent
	// block hashes the app keeps to check work.
	MaxPowAgeLimit = 256
)

// Defaults (docs/membership.md, "Defaults"). Where the question is the one
// Bittensor answered, its original subtensor defaults are kept: an
// adjustment every 100 blocks toward 2 registrations, 1 registration per
// block, 4096 blocks of immunity. Seconds are at the measured 150 ns per
// try of Solve on one core (BenchmarkSolve, 6.7 M hashes/s).
//
//   - DefaultMinDifficulty = 2^28 hashes: about 40 s on one core, the price
//     of a uid when nobody queues; 256 uids at that price are about 3
//     core-hours.
//   - DefaultMaxDifficulty = 2^36 (8 doublings): about 2.9 core-hours, 43
//     minutes on 4 cores, the most an honest newcomer is asked to pay while
//     registrations flood.
//   - DefaultMaxAdjustFactor = 2: the rule's own step down is already a
//     halving; 2 caps a flood's step up at a doubling, so the ceiling is 8
//     full intervals (800 blocks) above the floor.
//   - DefaultImmunityBlocks = 4096: twice the ScoringLag of the default
//     genesis (1000 + 10 + 1000 + 10 = 2020 blocks) and above the 3010 of
//     the longest reveal window, so a newcomer's first work is scored before
//     it can be replaced.
//   - DefaultMinNonImmune = 128, half of the default 256 uids: a flood of
//     registrations can displace at most the lower-weight half of the
//     established miners (with subtensor's 10, all but 10), and after a
//     squat it delays an honest newcomer by only 129 blocks more.
//   - DefaultMaxPowAgeBlocks = 20: a seal is found within a block of the
//     hash it binds (a client moves to each new hash and loses nothing), so
//     the window only has to cover the way into a block.
const (
	DefaultMinDifficulty            = 1 << 28
	DefaultMaxDifficulty            = 1 << 36
	DefaultAdjustmentInterval       = 100
	DefaultTargetRegistrations      = 2
	DefaultMaxRegistrationsPerBlock = 1
	DefaultMaxAdjustFactor          = 2
	DefaultImmunityBlocks           = 4096
	DefaultMinNonImmune             = 128
	DefaultMaxPowAgeBlocks          = 20
)

// DefaultParams returns the defaults above; the first registrations pay the
// floor.
func DefaultParams() Params {
	return Params{
		InitialDifficulty:        DefaultMinDifficulty,
		MinDifficulty:            DefaultMinDifficulty,
		MaxDifficulty:            DefaultMaxDifficulty,
		AdjustmentInterval:       DefaultAdjustmentInterval,
		TargetRegistrations:      DefaultTargetRegistrations,
		MaxRegistrationsPerBlock: DefaultMaxRegistrationsPerBlock,
		MaxAdjustFactor:          DefaultMaxAdjustFactor,
		ImmunityBlocks:           DefaultImmunityBlocks,
		MinNonImmune:             DefaultMinNonImmune,
		MaxPowAgeBlocks:          DefaultMaxPowAgeBlocks,
	}
}

// ScoringLag is the longest a newcomer's work on a task open at its
// registration takes to reach an epoch weight: the task's submission window,
// then its reveal window, then its report window, then the epoch boundary
// that turns its score into a weight. Genesis passes its own
// max_submission_blocks, longest reveal_blocks, max_report_blocks and
// epoch_blocks (each at most MaxBlocksLimit).
func ScoringLag(submissionBlocks, revealBlocks, reportBlocks, epochBlocks int64) int64 {
	return submissionBlocks + revealBlocks + reportBlocks + epochBlocks
}

// Validate checks each field, then the relations between fields and with
// the chain: maxUIDs is genesis chain.max_uids, scoringLag its ScoringLag.
// ImmunityBlocks must exceed scoringLag (which includes every reveal
// window), so that a uid is scored before it can be replaced and never
// changes hands while its commits wait for their reveal. The first failure
// is returned as an *InputError naming the field.
func (p Params) Validate(maxUIDs uint32, scoringLag int64) error {
	if maxUIDs < 1 {
		return &InputError{Field: "max_uids", Value: maxUIDs, Rule: "must be at least 1"}
	}
	if scoringLag < 0 || scoringLag >= MaxBlocksLimit {
		return &InputError{Field: "scoring_lag", Value: scoringLag, Rule: fmt.Sprintf("must be in [0, %d)", MaxBlocksLimit)}
	}
	for _, check := range []func() error{
		p.validateDifficulty,
		p.validateInterval,
		func() error { return p.validateRate(maxUIDs) },
		func() error { return p.validateImmunity(maxUIDs, scoringLag) },
		p.validatePowAge,
	} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

func (p Params) validateDifficulty() error {
	if p.MinDifficulty < 1 {
		return &InputError{Field: "min_difficulty", Value: p.MinDifficulty, Rule: "must be at least 1"}
	}
	if p.MaxDifficulty < p.MinDifficulty {
		return &InputError{Field: "max_difficulty", Value: p.MaxDifficulty, Rule: fmt.Sprintf("must be at least min_difficulty (%d)", p.MinDifficulty)}
	}
	if p.InitialDifficulty < p.MinDifficulty || p.InitialDifficulty > p.MaxDifficulty {
		return &InputError{Field: "initial_difficulty", Value: p.InitialDifficulty,
			Rule: fmt.Sprintf("must be in [min_difficulty, max_difficulty] = [%d, %d]", p.MinDifficulty, p.MaxDifficulty)}
	}
	if p.MaxAdjustFactor < 2 || p.MaxAdjustFactor > MaxAdjustFactorLimit {
		return &InputError{Field: "max_adjust_factor", Value: p.MaxAdjustFactor, Rule: fmt.Sprintf("must be in [2, %d]", MaxAdjustFactorLimit)}
	}
	return nil
}

func (p Params) validateInterval() error {
	if p.AdjustmentInterval < 1 || p.AdjustmentInterval > MaxBlocksLimit {
		return &InputError{Field: "adjustment_interval", Value: p.AdjustmentInterval, Rule: fmt.Sprintf("must be in [1, %d]", MaxBlocksLimit)}
	}
	return nil
}

// validateRate: a full interval (MaxRegistrationsPerBlock in each of its
// blocks) must exceed the target, or a flood could never raise the
// difficulty.
func (p Params) validateRate(maxUIDs uint32) error {
	if p.MaxRegistrationsPerBlock < 1 || p.MaxRegistrationsPerBlock > maxUIDs {
		return &InputError{Field: "max_registrations_per_block", Value: p.MaxRegistrationsPerBlock,
			Rule: fmt.Sprintf("must be in [1, max_uids = %d]", maxUIDs)}
	}
	full := uint64(p.MaxRegistrationsPerBlock) * uint64(p.AdjustmentInterval)
	if p.TargetRegistrations < 1 || uint64(p.TargetRegistrations) >= full {
		return &InputError{Field: "target_registrations", Value: p.TargetRegistrations,
			Rule: fmt.Sprintf("must be in [1, max_registrations_per_block × adjustment_interval = %d): a full interval must raise the difficulty", full)}
	}
	return nil
}

func (p Params) validateImmunity(maxUIDs uint32, scoringLag int64) error {
	if p.ImmunityBlocks <= scoringLag || p.ImmunityBlocks > MaxBlocksLimit {
		return &InputError{Field: "immunity_blocks", Value: p.ImmunityBlocks,
			Rule: fmt.Sprintf("must be in (scoring lag = %d, %d]: a newcomer is scored, and its commits revealed, before it can be replaced", scoringLag, MaxBlocksLimit)}
	}
	if p.MinNonImmune >= maxUIDs {
		return &InputError{Field: "min_non_immune", Value: p.MinNonImmune,
			Rule: fmt.Sprintf("must be below max_uids (%d), or no uid could ever be replaced", maxUIDs)}
	}
	return nil
}

func (p Params) validatePowAge() error {
	if p.MaxPowAgeBlocks < 1 || p.MaxPowAgeBlocks > MaxPowAgeLimit {
		return &InputError{Field: "max_pow_age_blocks", Value: p.MaxPowAgeBlocks, Rule: fmt.Sprintf("must be in [1, %d]", MaxPowAgeLimit)}
	}
	return nil
}
