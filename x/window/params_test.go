package window

import (
	"errors"
	"testing"

	"github.com/shopspring/decimal"
)

func TestDefaultParamsValid(t *testing.T) {
	p := DefaultParams()
	if err := p.Validate(); err != nil {
		t.Fatalf("DefaultParams().Validate() = %v", err)
	}
	if p.WindowSize != 100 || p.WarmupTasks != 20 || p.ArenaWarmupTasks != 20 || p.BaselineK != 1000 || p.BaselineMin != 5 ||
		p.EpochBlocks != 10 || !p.Cap.Equal(decimal.RequireFromString("0.15")) || p.BurnUID != 0 ||
		p.GasHistoryMax != 16 {
		t.Fatalf("DefaultParams() = %+v, not the seeds' values", p)
	}
}

func TestParamsValidate(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*Params)
		field string // "" = valid
	}{
		{"window 1 is the smallest", func(p *Params) { p.WindowSize = 1; p.WarmupTasks = 1; p.ArenaWarmupTasks = 1 }, ""},
		{"window 0", func(p *Params) { p.WindowSize = 0 }, "window_size"},
		{"window max", func(p *Params) { p.WindowSize = MaxWindowSize }, ""},
		{"window above max", func(p *Params) { p.WindowSize = MaxWindowSize + 1 }, "window_size"},
		{"warm-up 0 disables it", func(p *Params) { p.WarmupTasks = 0 }, ""},
		{"warm-up negative", func(p *Params) { p.WarmupTasks = -1 }, "warmup_tasks"},
		{"warm-up equal to window", func(p *Params) { p.WarmupTasks = 100 }, ""},
		{"warm-up beyond window", func(p *Params) { p.WarmupTasks = 101 }, "warmup_tasks"},
		{"arena warm-up 0 disables it", func(p *Params) { p.ArenaWarmupTasks = 0 }, ""},
		{"arena warm-up negative", func(p *Params) { p.ArenaWarmupTasks = -1 }, "arena_warmup_tasks"},
		{"arena warm-up equal to window", func(p *Params) { p.ArenaWarmupTasks = 100 }, ""},
		{"arena warm-up beyond window", func(p *Params) { p.ArenaWarmupTasks = 101 }, "arena_warmup_tasks"},
		{"K 0", func(p *Params) { p.BaselineK = 0 }, "baseline_k"},
		{"K max", func(p *Params) { p.BaselineK = MaxBaselineK }, ""},
		{"K above max", func(p *Params) { p.BaselineK = MaxBaselineK + 1 }, "baseline_k"},
		{"baseline min 4", func(p *Params) { p.BaselineMin = 4 }, "baseline_min"},
		{"baseline min equal to K", func(p *Params) { p.BaselineMin = 7; p.BaselineK = 7 }, ""},
		{"baseline min above K", func(p *Params) { p.BaselineMin = 8; p.BaselineK = 7 }, "baseline_min"},
		{"epoch 1", func(p *Params) { p.EpochBlocks = 1 }, ""},
		{"epoch 0", func(p *Params) { p.EpochBlocks = 0 }, "epoch_blocks"},
		{"cap 1", func(p *Params) { p.Cap = decimal.NewFromInt(1) }, ""},
		{"cap 0", func(p *Params) { p.Cap = decimal.Zero }, "cap"},
		{"cap above 1", func(p *Params) { p.Cap = decimal.RequireFromString("1.000000000000000001") }, "cap"},
		{"cap 19 places", func(p *Params) { p.Cap = decimal.RequireFromString("0.1500000000000000001") }, "cap"},
		{"burn uid max", func(p *Params) { p.BurnUID = 65535 }, ""},
		{"gas history 1", func(p *Params) { p.GasHistoryMax = 1 }, ""},
		{"gas history 0", func(p *Params) { p.GasHistoryMax = 0 }, "gas_history_max"},
		{"gas history max", func(p *Params) { p.GasHistoryMax = MaxGasHistoryLimit }, ""},
		{"gas history above max", func(p *Params) { p.GasHistoryMax = MaxGasHistoryLimit + 1 }, "gas_history_max"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := DefaultParams()
			tt.edit(&p)
			err := p.Validate()
			if tt.field == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			var pe *ParamError
			if !errors.As(err, &pe) || pe.Field != tt.field || !errors.Is(err, ErrInvalidParams) {
				t.Fatalf("Validate() = %v, want *ParamError on %s", err, tt.field)
			}
		})
	}
}
