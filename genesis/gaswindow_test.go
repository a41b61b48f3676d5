package genesis

import (
	"errors"
	"strings"
	"testing"
)

// TestGasWindows: the default has no gas_windows and encodes without the
// field (so existing genesis files and goldens are unchanged); each entry
// names a gas chain, ascending, with k in [1, max_prediction_ahead]; and a
// running chain's k cannot change.
func TestGasWindows(t *testing.T) {
	g := DefaultGenesis()
	bz, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(bz), "gas_windows") {
		t.Fatal("the default genesis writes gas_windows")
	}
	if g.Chain.WindowBlocks(1) != 1 || g.Chain.WindowBlocks(8453) != 1 {
		t.Fatal("a chain without an entry must have windows of one block")
	}
	ok := g.Chain
	ok.GasWindows = []GasWindow{{EvmChainID: 1, WindowBlocks: 1}, {EvmChainID: 8453, WindowBlocks: 8}}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid windows: %v", err)
	}
	if ok.WindowBlocks(8453) != 8 || ok.WindowBlocks(1) != 1 || ok.WindowBlocks(5) != 1 {
		t.Fatal("WindowBlocks does not read the entries")
	}
	bad := []struct {
		name    string
		windows []GasWindow
		field   string
	}{
		{"not a gas chain", []GasWindow{{EvmChainID: 10, WindowBlocks: 2}}, "chain.gas_windows[0].evm_chain_id"},
		{"zero", []GasWindow{{EvmChainID: 1, WindowBlocks: 0}}, "chain.gas_windows[0].window_blocks"},
		{"past max_prediction_ahead", []GasWindow{{EvmChainID: 1, WindowBlocks: 9}}, "chain.gas_windows[0].window_blocks"},
		{"unsorted", []GasWindow{{EvmChainID: 8453, WindowBlocks: 2}, {EvmChainID: 1, WindowBlocks: 2}}, "chain.gas_windows[1].evm_chain_id"},
		{"duplicate", []GasWindow{{EvmChainID: 1, WindowBlocks: 2}, {EvmChainID: 1, WindowBlocks: 3}}, "chain.gas_windows[1].evm_chain_id"},
	}
	for _, c := range bad {
		p := g.Chain
		p.GasWindows = c.windows
		var fe *FieldError
		if err := p.Validate(); !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%s: %v, want a FieldError on %s", c.name, err, c.field)
		}
	}
	next := g
	next.Chain.GasWindows = []GasWindow{{EvmChainID: 8453, WindowBlocks: 2}}
	if err := CheckTransition(g, next); err == nil || !strings.Contains(err.Error(), "gas_windows") {
		t.Fatalf("changing a running chain's window size: %v, want refused", err)
	}
	next.Chain.GasChains = []uint64{1, 10, 8453}
	next.Chain.GasWindows = []GasWindow{{EvmChainID: 10, WindowBlocks: 4}}
	if err := CheckTransition(g, next); err != nil {
		t.Fatalf("a chain added with its windows: %v", err)
	}
}
