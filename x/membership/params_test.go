package membership

import (
	"errors"
	"testing"
)

// defaultLag is ScoringLag of the default genesis: max_submission_blocks
// 1000, reveal_blocks 10, max_report_blocks 1000, epoch_blocks 10.
var defaultLag = ScoringLag(1000, 10, 1000, 10)

func TestDefaultParamsValidate(t *testing.T) {
	if defaultLag != 2020 {
		t.Fatalf("default scoring lag = %d, want 2020", defaultLag)
	}
	if err := DefaultParams().Validate(256, defaultLag); err != nil {
		t.Fatalf("defaults rejected: %v", err)
	}
	// Even with the longest reveal window a genesis may set (1000 blocks).
	if err := DefaultParams().Validate(256, ScoringLag(1000, 1000, 1000, 10)); err != nil {
		t.Fatalf("defaults rejected with 1000 reveal blocks: %v", err)
	}
}

func TestParamsValidate(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*Params)
		maxUIDs uint32
		lag     int64
		field   string // "" when valid
	}{
		{"defaults", func(*Params) {}, 256, defaultLag, ""},
		{"no uids", func(*Params) {}, 0, defaultLag, "max_uids"},
		{"negative lag", func(*Params) {}, 256, -1, "scoring_lag"},
		{"lag at the block limit", func(*Params) {}, 256, MaxBlocksLimit, "scoring_lag"},
		{"min difficulty 0", func(p *Params) { p.MinDifficulty = 0 }, 256, defaultLag, "min_difficulty"},
		{"min difficulty 1", func(p *Params) { p.MinDifficulty, p.InitialDifficulty = 1, 1 }, 256, defaultLag, ""},
		{"max below min", func(p *Params) { p.MaxDifficulty = p.MinDifficulty - 1 }, 256, defaultLag, "max_difficulty"},
		{"max equals min", func(p *Params) { p.MaxDifficulty = p.MinDifficulty }, 256, defaultLag, ""},
		{"initial below min", func(p *Params) { p.InitialDifficulty = p.MinDifficulty - 1 }, 256, defaultLag, "initial_difficulty"},
		{"initial above max", func(p *Params) { p.InitialDifficulty = p.MaxDifficulty + 1 }, 256, defaultLag, "initial_difficulty"},
		{"initial at max", func(p *Params) { p.InitialDifficulty = p.MaxDifficulty }, 256, defaultLag, ""},
		{"factor 1", func(p *Params) { p.MaxAdjustFactor = 1 }, 256, defaultLag, "max_adjust_factor"},
		{"factor 16", func(p *Params) { p.MaxAdjustFactor = 16 }, 256, defaultLag, ""},
		{"factor 17", func(p *Params) { p.MaxAdjustFactor = 17 }, 256, defaultLag, "max_adjust_factor"},
		{"interval 0", func(p *Params) { p.AdjustmentInterval = 0 }, 256, defaultLag, "adjustment_interval"},
		{"interval past limit", func(p *Params) { p.AdjustmentInterval = MaxBlocksLimit + 1 }, 256, defaultLag, "adjustment_interval"},
		{"per block 0", func(p *Params) { p.MaxRegistrationsPerBlock = 0 }, 256, defaultLag, "max_registrations_per_block"},
		{"per block = uids", func(p *Params) { p.MaxRegistrationsPerBlock = 256 }, 256, defaultLag, ""},
		{"per block > uids", func(p *Params) { p.MaxRegistrationsPerBlock = 257 }, 256, defaultLag, "max_registrations_per_block"},
		{"target 0", func(p *Params) { p.TargetRegistrations = 0 }, 256, defaultLag, "target_registrations"},
		{"target = full interval", func(p *Params) { p.TargetRegistrations = 100 }, 256, defaultLag, "target_registrations"},
		{"target just below full", func(p *Params) { p.TargetRegistrations = 99 }, 256, defaultLag, ""},
		{"immunity = lag", func(p *Params) { p.ImmunityBlocks = defaultLag }, 256, defaultLag, "immunity_blocks"},
		{"immunity = lag + 1", func(p *Params) { p.ImmunityBlocks = defaultLag + 1 }, 256, defaultLag, ""},
		{"immunity past limit", func(p *Params) { p.ImmunityBlocks = MaxBlocksLimit + 1 }, 256, defaultLag, "immunity_blocks"},
		{"min non-immune = uids", func(p *Params) { p.MinNonImmune = 8 }, 8, defaultLag, "min_non_immune"},
		{"min non-immune = uids - 1", func(p *Params) { p.MinNonImmune = 7; p.MaxRegistrationsPerBlock = 1 }, 8, defaultLag, ""},
		{"min non-immune 0", func(p *Params) { p.MinNonImmune = 0 }, 256, defaultLag, ""},
		{"pow age 0", func(p *Params) { p.MaxPowAgeBlocks = 0 }, 256, defaultLag, "max_pow_age_blocks"},
		{"pow age at limit", func(p *Params) { p.MaxPowAgeBlocks = MaxPowAgeLimit }, 256, defaultLag, ""},
		{"pow age past limit", func(p *Params) { p.MaxPowAgeBlocks = MaxPowAgeLimit + 1 }, 256, defaultLag, "max_pow_age_blocks"},
	}
	for _, tc := range tests {
		p := DefaultParams()
		tc.edit(&p)
		err := p.Validate(tc.maxUIDs, tc.lag)
		if tc.field == "" {
			if err != nil {
				t.Errorf("%s: rejected: %v", tc.name, err)
			}
			continue
		}
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != tc.field || !errors.Is(err, ErrInvalidInput) {
			t.Errorf("%s: got %v, want an *InputError on %s", tc.name, err, tc.field)
		}
	}
}
