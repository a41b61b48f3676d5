package genesis

import (
	"errors"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/x/budget"
)

// TestCheckConsensusParams: every boundary of block.max_bytes and max_gas,
// CometBFT's defaults (21 MiB) and its "unlimited" (-1) included.
func TestCheckConsensusParams(t *testing.T) {
	cases := []struct {
		name          string
		maxBytes, gas int64
		field, value  string
	}{
		{"written by init", ConsensusBlockMaxBytes, ConsensusBlockMaxGas, "", ""},
		{"4 MiB", 4_194_304, -1, "", ""},
		{"1 byte", 1, -1, "", ""},
		{"4 MiB + 1", 4_194_305, -1, "consensus_params.block.max_bytes", "4194305"},
		{"CometBFT default 21 MiB", 22_020_096, -1, "consensus_params.block.max_bytes", "22020096"},
		{"unlimited", -1, -1, "consensus_params.block.max_bytes", "-1"},
		{"zero", 0, -1, "consensus_params.block.max_bytes", "0"},
		{"below -1", -2, -1, "consensus_params.block.max_bytes", "-2"},
		{"gas limit", 1 << 20, 10_000_000, "consensus_params.block.max_gas", "10000000"},
		{"gas zero", 1 << 20, 0, "consensus_params.block.max_gas", "0"},
		{"gas below -1", 1 << 20, -2, "consensus_params.block.max_gas", "-2"},
		{"bytes checked first", -1, 5, "consensus_params.block.max_bytes", "-1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckConsensusParams(c.maxBytes, c.gas)
			if c.field == "" {
				if err != nil {
					t.Fatalf("want accepted, got %v", err)
				}
				return
			}
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != c.field || fe.Value != c.value || !errors.Is(err, ErrInvalidGenesis) {
				t.Fatalf("want *FieldError %s = %s, got %v", c.field, c.value, err)
			}
			if c.field == "consensus_params.block.max_bytes" && !strings.Contains(err.Error(), "[1, 4194304]") {
				t.Fatalf("%v: want the limit named", err)
			}
		})
	}
}

// TestConsensusBlockMaxBytesArithmetic pins the argument of
// ConsensusBlockMaxBytes (docs/codes.md, "Block bound"): the work budget
// executes 3,750 transactions per block, 4 MiB holds 3,750 of 1.1 KiB, and
// no default transaction is larger than a block.
func TestConsensusBlockMaxBytesArithmetic(t *testing.T) {
	txs := budget.DefaultLimits().TxWork / budget.UnitsTx
	if txs != 3750 {
		t.Fatalf("TxWork / UnitsTx = %d, want 3750", txs)
	}
	if per := ConsensusBlockMaxBytes / txs; per != 1118 {
		t.Fatalf("4 MiB / 3750 = %d bytes per transaction, want 1118", per)
	}
	if ConsensusBlockMaxBytes/DefaultChainParams().MaxTxBytes != 256 || MaxTxBytesLimit > ConsensusBlockMaxBytes {
		t.Fatalf("max_tx_bytes %d (limit %d) against a %d-byte block", DefaultChainParams().MaxTxBytes, MaxTxBytesLimit, ConsensusBlockMaxBytes)
	}
}
