package oracle

import (
	"math/big"
	"testing"
)

func gwei(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e9)) }

func TestEffectivePrice(t *testing.T) {
	base := gwei(10)
	cases := []struct {
		name string
		tx   TxFees
		base *big.Int
		want *big.Int // nil: skipped
	}{
		{"legacy", TxFees{Type: TypeLegacy, GasPrice: gwei(12)}, base, gwei(12)},
		{"2930", TxFees{Type: TypeAccessList, GasPrice: gwei(11)}, base, gwei(11)},
		{"1559 tip under the cap", TxFees{Type: TypeDynamicFee, MaxFeePerGas: gwei(20), MaxPriorityFeePerGas: gwei(2)}, base, gwei(12)},
		{"1559 capped", TxFees{Type: TypeDynamicFee, MaxFeePerGas: gwei(11), MaxPriorityFeePerGas: gwei(5)}, base, gwei(11)},
		{"1559 cap equal", TxFees{Type: TypeDynamicFee, MaxFeePerGas: gwei(13), MaxPriorityFeePerGas: gwei(3)}, base, gwei(13)},
		{"blob", TxFees{Type: TypeBlob, MaxFeePerGas: gwei(30), MaxPriorityFeePerGas: gwei(1)}, base, gwei(11)},
		{"set code", TxFees{Type: TypeSetCode, MaxFeePerGas: gwei(30), MaxPriorityFeePerGas: big.NewInt(0)}, base, gwei(10)},
		{"1559 without base fee", TxFees{Type: TypeDynamicFee, MaxFeePerGas: gwei(30), MaxPriorityFeePerGas: gwei(1)}, nil, nil},
		{"1559 missing cap", TxFees{Type: TypeDynamicFee, MaxPriorityFeePerGas: gwei(1)}, base, nil},
		{"legacy missing price", TxFees{Type: TypeLegacy}, base, nil},
		{"OP deposit 0x7e", TxFees{Type: 0x7e, GasPrice: big.NewInt(0)}, base, nil},
		{"unknown 0x05", TxFees{Type: 0x05, GasPrice: gwei(1)}, base, nil},
	}
	for _, c := range cases {
		got, ok := EffectivePrice(c.tx, c.base)
		if c.want == nil {
			if ok {
				t.Errorf("%s: priced %s, want skipped", c.name, got)
			}
			continue
		}
		if !ok || got.Cmp(c.want) != 0 {
			t.Errorf("%s: %v %v, want %s", c.name, got, ok, c.want)
		}
	}
}

func TestMinNonZeroAndGwei(t *testing.T) {
	if m := MinNonZero([]*big.Int{big.NewInt(0), nil, gwei(3), big.NewInt(1_500_000_001), gwei(2)}); m.Cmp(big.NewInt(1_500_000_001)) != 0 {
		t.Fatalf("min %s", m)
	}
	if m := MinNonZero([]*big.Int{big.NewInt(0), nil}); m != nil {
		t.Fatalf("only zero prices: %s, want nil", m)
	}
	for wei, want := range map[int64]string{1: "0.000000001", 1_500_000_001: "1.500000001", 20e9: "20"} {
		if got := Gwei(big.NewInt(wei)).String(); got != want {
			t.Errorf("Gwei(%d) = %s, want %s", wei, got, want)
		}
	}
}

func TestWindowTruth(t *testing.T) {
	w := WindowOf(7, 3) // blocks 6, 7, 8
	if w.First != 6 || w.Last() != 8 {
		t.Fatalf("window %v", w)
	}
	blocks := []Block{
		{Number: 6, Hash: [32]byte{6}, Time: 100, MinPrice: gwei(5)},
		{Number: 7, Hash: [32]byte{7}, ParentHash: [32]byte{6}, Time: 112},
		{Number: 8, Hash: [32]byte{8}, ParentHash: [32]byte{7}, Time: 124, MinPrice: gwei(4)},
	}
	tr, err := WindowTruth(w, blocks)
	if err != nil || tr.MinPrice.Cmp(gwei(4)) != 0 || tr.Timestamp != 124 {
		t.Fatalf("truth %+v, %v; want 4 gwei at the last block's time 124", tr, err)
	}
	blocks[2].ParentHash = [32]byte{9}
	if _, err := WindowTruth(w, blocks); err == nil {
		t.Fatal("a window whose blocks do not link was folded")
	}
	if _, err := WindowTruth(w, blocks[:2]); err == nil {
		t.Fatal("a window short of a block was folded")
	}
	empty, err := WindowTruth(Window{First: 9, K: 1}, []Block{{Number: 9, Time: 130}})
	if err != nil || empty.MinPrice != nil {
		t.Fatalf("a block without priced transactions: %+v %v, want no price", empty, err)
	}
}
