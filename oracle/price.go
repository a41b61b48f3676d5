package oracle

import (
	"math/big"

	"github.com/shopspring/decimal"
)

// The transaction types whose price the oracle knows (EIP-2718 type bytes).
const (
	TypeLegacy     = 0x00
	TypeAccessList = 0x01 // EIP-2930
	TypeDynamicFee = 0x02 // EIP-1559
	TypeBlob       = 0x03 // EIP-4844
	TypeSetCode    = 0x04 // EIP-7702
)

// TxFees are the price fields of one transaction as an endpoint gives them
// (nil when absent).
type TxFees struct {
	Type                 uint64
	GasPrice             *big.Int
	MaxFeePerGas         *big.Int
	MaxPriorityFeePerGas *big.Int
}

// EffectivePrice is the price per gas the transaction paid in a block of
// base fee baseFee (nil before London): gasPrice for legacy and EIP-2930
// transactions, min(maxFeePerGas, baseFee + maxPriorityFeePerGas) for the
// EIP-1559 family. ok is false for a type it does not know and for missing
// fields: such a transaction is skipped, never a failure.
func EffectivePrice(tx TxFees, baseFee *big.Int) (price *big.Int, ok bool) {
	switch tx.Type {
	case TypeLegacy, TypeAccessList:
		return tx.GasPrice, tx.GasPrice != nil
	case TypeDynamicFee, TypeBlob, TypeSetCode:
		if tx.MaxFeePerGas == nil || tx.MaxPriorityFeePerGas == nil || baseFee == nil {
			return nil, false
		}
		p := new(big.Int).Add(baseFee, tx.MaxPriorityFeePerGas)
		if p.Cmp(tx.MaxFeePerGas) > 0 {
			p.Set(tx.MaxFeePerGas)
		}
		return p, true
	}
	return nil, false
}

// KnownType reports whether the oracle prices transactions of type t.
func KnownType(t uint64) bool { return t <= TypeSetCode }

// MinNonZero is the least positive price of prices (nil when none is
// positive: zero-priced system transactions do not count).
func MinNonZero(prices []*big.Int) *big.Int {
	var m *big.Int
	for _, p := range prices {
		if p == nil || p.Sign() <= 0 {
			continue
		}
		if m == nil || p.Cmp(m) < 0 {
			m = p
		}
	}
	return m
}

// weiPerGwei: the chain's min_price is in gwei (docs/scoring.md §4), and a
// wei amount is exact in gwei with 9 places.
var weiPerGwei = decimal.New(1, 9)

// Gwei writes a wei price in gwei, exact (at most 9 places).
func Gwei(wei *big.Int) decimal.Decimal {
	return decimal.NewFromBigInt(wei, 0).DivRound(weiPerGwei, 9)
}
