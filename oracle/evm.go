package oracle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync/atomic"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
)

// EVM reads blocks of one EVM JSON-RPC endpoint. Blocks and receipts are
// decoded here, field by field, rather than by go-ethereum's types: a
// transaction type go-ethereum does not know (an L2's deposit, a future
// EIP) is then one skipped transaction, not an undecodable block.
type EVM struct {
	eth *ethclient.Client
	rpc *rpc.Client
	// noReceipts is set once the endpoint answered eth_getBlockReceipts
	// with "no such method" (or by ForcePerTx): prices come from the
	// transactions' fee fields from then on.
	noReceipts atomic.Bool
}

// DialEVM connects to an endpoint (http(s)://, ws(s):// or an IPC path).
func DialEVM(ctx context.Context, url string) (*EVM, error) {
	c, err := rpc.DialContext(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("evm %s: %w", url, err)
	}
	return NewEVM(c), nil
}

// NewEVM reads through an open RPC client.
func NewEVM(c *rpc.Client) *EVM { return &EVM{eth: ethclient.NewClient(c), rpc: c} }

// ForcePerTx makes prices come from the transactions' fee fields even when
// the endpoint has eth_getBlockReceipts.
func (e *EVM) ForcePerTx() { e.noReceipts.Store(true) }

// UsesReceipts reports whether prices still come from eth_getBlockReceipts.
func (e *EVM) UsesReceipts() bool { return !e.noReceipts.Load() }

// Close closes the connection.
func (e *EVM) Close() { e.rpc.Close() }

// ChainID is the endpoint's chain id (eth_chainId).
func (e *EVM) ChainID(ctx context.Context) (uint64, error) {
	id, err := e.eth.ChainID(ctx)
	if err != nil {
		return 0, err
	}
	if !id.IsUint64() {
		return 0, fmt.Errorf("%w: chain id %s does not fit 64 bits", ErrGarbage, id)
	}
	return id.Uint64(), nil
}

// Head is the number of the endpoint's latest block.
func (e *EVM) Head(ctx context.Context) (uint64, error) { return e.eth.BlockNumber(ctx) }

type rpcTx struct {
	Type                 *hexutil.Uint64 `json:"type"`
	GasPrice             *hexutil.Big    `json:"gasPrice"`
	MaxFeePerGas         *hexutil.Big    `json:"maxFeePerGas"`
	MaxPriorityFeePerGas *hexutil.Big    `json:"maxPriorityFeePerGas"`
}

type rpcBlock struct {
	Number       hexutil.Uint64    `json:"number"`
	Hash         common.Hash       `json:"hash"`
	ParentHash   common.Hash       `json:"parentHash"`
	Timestamp    hexutil.Uint64    `json:"timestamp"`
	BaseFee      *hexutil.Big      `json:"baseFeePerGas"`
	Transactions []json.RawMessage `json:"transactions"`
}

type rpcReceipt struct {
	Type              *hexutil.Uint64 `json:"type"`
	BlockHash         common.Hash     `json:"blockHash"`
	EffectiveGasPrice *hexutil.Big    `json:"effectiveGasPrice"`
}

// ErrNoBlock: the endpoint does not have the block (yet, or any more).
var ErrNoBlock = errors.New("block not found")

// Block reads block n with its minimum non-zero effective gas price: the
// receipts' effectiveGasPrice where the endpoint has eth_getBlockReceipts,
// else each transaction's price from its fee fields (EffectivePrice).
func (e *EVM) Block(ctx context.Context, n uint64) (Block, error) {
	var raw rpcBlock
	var msg json.RawMessage
	if err := e.rpc.CallContext(ctx, &msg, "eth_getBlockByNumber", hexutil.EncodeUint64(n), true); err != nil {
		return Block{}, fmt.Errorf("block %d: %w", n, err)
	}
	if len(msg) == 0 || string(msg) == "null" {
		return Block{}, fmt.Errorf("block %d: %w", n, ErrNoBlock)
	}
	if err := json.Unmarshal(msg, &raw); err != nil {
		return Block{}, fmt.Errorf("block %d: %w", n, err)
	}
	b := Block{Number: uint64(raw.Number), Hash: raw.Hash, ParentHash: raw.ParentHash, Time: uint64(raw.Timestamp)}
	if b.Number != n {
		return Block{}, fmt.Errorf("block %d: %w: the endpoint answered block %d", n, ErrGarbage, b.Number)
	}
	if !e.noReceipts.Load() {
		prices, skipped, err := e.receiptPrices(ctx, raw)
		switch {
		case err == nil:
			b.MinPrice, b.Skipped = MinNonZero(prices), skipped
			return b, nil
		case !isNoMethod(err):
			return Block{}, fmt.Errorf("block %d receipts: %w", n, err)
		}
		e.noReceipts.Store(true)
	}
	prices, skipped := txPrices(raw)
	b.MinPrice, b.Skipped = MinNonZero(prices), skipped
	return b, nil
}

// receiptPrices are the effective prices of the block's receipts of known
// types; receipts of another block (a reorg between the two calls) are an
// error.
func (e *EVM) receiptPrices(ctx context.Context, blk rpcBlock) ([]*big.Int, int, error) {
	var rs []rpcReceipt
	if err := e.rpc.CallContext(ctx, &rs, "eth_getBlockReceipts", blk.Hash.Hex()); err != nil {
		return nil, 0, err
	}
	if len(rs) != len(blk.Transactions) {
		return nil, 0, fmt.Errorf("%w: %d receipts for %d transactions", ErrGarbage, len(rs), len(blk.Transactions))
	}
	prices, skipped := make([]*big.Int, 0, len(rs)), 0
	for _, r := range rs {
		if r.BlockHash != blk.Hash {
			return nil, 0, fmt.Errorf("a receipt of block %s, not %s (a reorg while reading)", r.BlockHash, blk.Hash)
		}
		if !KnownType(typeOf(r.Type)) || r.EffectiveGasPrice == nil {
			skipped++
			continue
		}
		prices = append(prices, r.EffectiveGasPrice.ToInt())
	}
	return prices, skipped, nil
}

// txPrices are the effective prices of the block's transactions of known
// types, from their fee fields.
func txPrices(blk rpcBlock) ([]*big.Int, int) {
	var baseFee *big.Int
	if blk.BaseFee != nil {
		baseFee = blk.BaseFee.ToInt()
	}
	prices, skipped := make([]*big.Int, 0, len(blk.Transactions)), 0
	for _, m := range blk.Transactions {
		var tx rpcTx
		if err := json.Unmarshal(m, &tx); err != nil {
			skipped++
			continue
		}
		p, ok := EffectivePrice(TxFees{Type: typeOf(tx.Type), GasPrice: bigOf(tx.GasPrice),
			MaxFeePerGas: bigOf(tx.MaxFeePerGas), MaxPriorityFeePerGas: bigOf(tx.MaxPriorityFeePerGas)}, baseFee)
		if !ok {
			skipped++
			continue
		}
		prices = append(prices, p)
	}
	return prices, skipped
}

// typeOf is a transaction's type; endpoints from before EIP-2718 omit it
// for legacy transactions.
func typeOf(t *hexutil.Uint64) uint64 {
	if t == nil {
		return TypeLegacy
	}
	return uint64(*t)
}

func bigOf(h *hexutil.Big) *big.Int {
	if h == nil {
		return nil
	}
	return h.ToInt()
}

// isNoMethod: the endpoint does not serve the method (JSON-RPC -32601, or
// the words providers use for it).
func isNoMethod(err error) bool {
	var re rpc.Error
	if errors.As(err, &re) && re.ErrorCode() == -32601 {
		return true
	}
	s := strings.ToLower(err.Error())
	return strings.Contains(s, "method not found") || strings.Contains(s, "does not exist") || strings.Contains(s, "not supported")
}
