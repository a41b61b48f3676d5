package genesis

import (
	"errors"
	"strings"
	"testing"
)

// TestGasPaused: the default has no gas_paused and encodes without the
// field; each entry names a gas chain, ascending, with a resume block on a
// window boundary; and the transitions: pause, resume, pause again, never
// drop an entry, never move a resume block, never list a chain as resumed
// without a pause.
func TestGasPaused(t *testing.T) {
	g := DefaultGenesis()
	bz, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(bz), "gas_paused") {
		t.Fatal("the default genesis writes gas_paused")
	}
	ok := g.Chain
	ok.GasWindows = []GasWindow{{EvmChainID: 8453, WindowBlocks: 4}}
	ok.GasPaused = []GasPause{{EvmChainID: 1}, {EvmChainID: 8453, ResumeBlock: 400}}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid pauses: %v", err)
	}
	if !ok.IsGasPaused(1) || ok.IsGasPaused(8453) || ok.IsGasPaused(5) {
		t.Fatal("IsGasPaused does not read the entries")
	}
	bad := []struct {
		name   string
		paused []GasPause
		field  string
	}{
		{"not a gas chain", []GasPause{{EvmChainID: 10}}, "chain.gas_paused[0].evm_chain_id"},
		{"unsorted", []GasPause{{EvmChainID: 8453}, {EvmChainID: 1}}, "chain.gas_paused[1].evm_chain_id"},
		{"duplicate", []GasPause{{EvmChainID: 1}, {EvmChainID: 1, ResumeBlock: 5}}, "chain.gas_paused[1].evm_chain_id"},
		{"resume inside a window", []GasPause{{EvmChainID: 8453, ResumeBlock: 401}}, "chain.gas_paused[0].resume_block"},
	}
	for _, c := range bad {
		p := ok
		p.GasPaused = c.paused
		var fe *FieldError
		if err := p.Validate(); !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%s: %v, want a FieldError on %s", c.name, err, c.field)
		}
	}
	with := func(ps ...GasPause) AppState {
		s := g
		s.Chain.GasPaused = ps
		return s
	}
	steps := []struct {
		name      string
		old, next AppState
		refused   string // "" when allowed
	}{
		{"pause", with(), with(GasPause{EvmChainID: 1}), ""},
		{"resume", with(GasPause{EvmChainID: 1}), with(GasPause{EvmChainID: 1, ResumeBlock: 900}), ""},
		{"pause again", with(GasPause{EvmChainID: 1, ResumeBlock: 900}), with(GasPause{EvmChainID: 1}), ""},
		{"stay paused", with(GasPause{EvmChainID: 1}), with(GasPause{EvmChainID: 1}), ""},
		{"drop a paused entry", with(GasPause{EvmChainID: 1}), with(), "drops EVM chain 1"},
		{"drop a resumed entry", with(GasPause{EvmChainID: 1, ResumeBlock: 900}), with(), "drops EVM chain 1"},
		{"move a resume block", with(GasPause{EvmChainID: 1, ResumeBlock: 900}), with(GasPause{EvmChainID: 1, ResumeBlock: 1000}), "already resumed at block 900"},
		{"resumed without a pause", with(), with(GasPause{EvmChainID: 1, ResumeBlock: 900}), "is not paused"},
	}
	for _, s := range steps {
		err := CheckTransition(s.old, s.next)
		switch {
		case s.refused == "" && err != nil:
			t.Errorf("%s: %v, want allowed", s.name, err)
		case s.refused != "" && (err == nil || !strings.Contains(err.Error(), s.refused)):
			t.Errorf("%s: %v, want refused with %q", s.name, err, s.refused)
		}
		var fe *FieldError
		if s.refused != "" && (!errors.As(err, &fe) || fe.Field != "params.chain.gas_paused") {
			t.Errorf("%s: %v, want a FieldError on params.chain.gas_paused", s.name, err)
		}
	}
}
