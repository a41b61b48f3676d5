package mirror

import (
	"errors"
	"testing"
)

func TestParamsValidate(t *testing.T) {
	if err := DefaultParams().Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	with := func(f func(*Params)) Params { p := DefaultParams(); f(&p); return p }
	tests := []struct {
		name  string
		p     Params
		field string // "" when valid
	}{
		{"max_entries 0", with(func(p *Params) { p.MaxEntries = 0 }), "max_entries"},
		{"max_entries 1", with(func(p *Params) { p.MaxEntries = 1 }), ""},
		{"max_entries 65536", with(func(p *Params) { p.MaxEntries = 65536 }), ""},
		{"max_entries 65537", with(func(p *Params) { p.MaxEntries = 65537 }), "max_entries"},
		{"attestation_blocks 0", with(func(p *Params) { p.AttestationBlocks = 0 }), "attestation_blocks"},
		{"attestation_blocks 1", with(func(p *Params) { p.AttestationBlocks = 1 }), ""},
		{"attestation_blocks above limit", with(func(p *Params) { p.AttestationBlocks = MaxBlocksLimit + 1 }), "attestation_blocks"},
		{"max_blocks_behind 0", with(func(p *Params) { p.MaxBlocksBehind = 0 }), "max_blocks_behind"},
		{"max_blocks_behind above limit", with(func(p *Params) { p.MaxBlocksBehind = MaxBlocksLimit + 1 }), "max_blocks_behind"},
		{"max_blocks_behind exactly 2 cadences", with(func(p *Params) { p.MaxBlocksBehind = 720 }), ""},
		{"max_blocks_behind below 2 cadences", with(func(p *Params) { p.MaxBlocksBehind = 719 }), "max_blocks_behind"},
		{"both at the limit", Params{MaxEntries: 1, AttestationBlocks: MaxBlocksLimit / 2, MaxBlocksBehind: MaxBlocksLimit}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.p.Validate()
			if tt.field == "" {
				if err != nil {
					t.Fatalf("err = %v, want nil", err)
				}
				return
			}
			var ie *InputError
			if !errors.As(err, &ie) || ie.Field != tt.field || !errors.Is(err, ErrInvalidInput) {
				t.Fatalf("err = %v, want an InputError on %s", err, tt.field)
			}
		})
	}
}
