package genesis

import (
	"strings"
	"testing"
)

// TestValidateParams: the settings alone are checked as Validate checks
// them; only the validators are left out.
func TestValidateParams(t *testing.T) {
	st := DefaultGenesis()
	st.Validators = nil
	if err := st.ValidateParams(); err != nil {
		t.Fatalf("default params without validators: %v", err)
	}
	if err := st.Validate(); err == nil {
		t.Fatal("Validate accepted a genesis without validators")
	}
	st.Chain.RetainStateBlocks = NodeRetainStateBlocks
	if err := st.ValidateParams(); err != nil {
		t.Fatalf("retain_state_blocks %d: %v", NodeRetainStateBlocks, err)
	}
	st.Chain.RetainStateBlocks = st.RetentionHorizon()
	if err := st.ValidateParams(); err == nil || !strings.Contains(err.Error(), "chain.retain_state_blocks") {
		t.Fatalf("retain_state_blocks at the horizon: %v", err)
	}
	st.Chain.RetainStateBlocks = 0
	st.Chain.MaxTxBytes = 0
	if err := st.ValidateParams(); err == nil || !strings.Contains(err.Error(), "chain.max_tx_bytes") {
		t.Fatalf("max_tx_bytes 0: %v", err)
	}
}
