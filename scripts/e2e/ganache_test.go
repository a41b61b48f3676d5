//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"
)

// ganacheChainID is the EVM chain id ganache serves (its default, given explicitly); the
// testnet's genesis follows it (chain.gas_chains).
const ganacheChainID = 1337

// ganacheBin is the ganache that `make ganache` installs into build/npm ($GANACHE_BIN
// overrides). Absent, the test skips saying how to install it, or fails when
// E2E_REQUIRE_GANACHE=1 (CI installs it, so a missing one must not pass unnoticed).
func ganacheBin(t *testing.T) string {
	t.Helper()
	p := envOr("GANACHE_BIN", filepath.Join("..", "..", "build", "npm", "node_modules", ".bin", "ganache"))
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(abs); err != nil {
		msg := fmt.Sprintf("no ganache at %s: `make ganache` installs the pinned one with npm (Debian: apt-get install nodejs npm), or set GANACHE_BIN", abs)
		if os.Getenv("E2E_REQUIRE_GANACHE") == "1" {
			t.Fatal(msg + " (E2E_REQUIRE_GANACHE=1)")
		}
		t.Skip(msg)
	}
	return abs
}

// devnet is a running ganache: a real EVM dev node with a deterministic wallet, whose
// automatic mining the test turns off so that it alone decides what goes into each block.
type devnet struct {
	url      string
	rpc      *rpc.Client
	accounts []common.Address
}

// startGanache runs ganache on 127.0.0.1:port (log: <testnet dir>/ganache.log), waits until
// it answers with its chain id and stops its miner: from then on a block exists only when the
// test mines one (evm_mine), with the transactions sent since the last.
func startGanache(t *testing.T, nw *network, path string, port int) *devnet {
	t.Helper()
	nw.ps.start(t, "ganache", filepath.Join(nw.dir, "ganache.log"), nil, path,
		"--wallet.deterministic", "--chain.chainId", fmt.Sprint(ganacheChainID),
		"--server.host", "127.0.0.1", "--server.port", fmt.Sprint(port), "--logging.quiet")
	d := &devnet{url: fmt.Sprintf("http://127.0.0.1:%d", port)}
	c, err := rpc.Dial(d.url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	d.rpc = c
	deadline := time.Now().Add(60 * time.Second)
	for {
		var id hexutil.Uint64
		err := d.call(&id, "eth_chainId")
		if err == nil && id == ganacheChainID {
			break
		}
		if err == nil {
			t.Fatalf("ganache serves chain %d, not %d", id, ganacheChainID)
		}
		if time.Now().After(deadline) {
			t.Fatalf("ganache does not answer after 60 s: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err := d.call(nil, "miner_stop"); err != nil {
		t.Fatal(err)
	}
	if err := d.call(&d.accounts, "eth_accounts"); err != nil || len(d.accounts) < 4 {
		t.Fatalf("eth_accounts: %d accounts, %v", len(d.accounts), err)
	}
	return d
}

// call is one JSON-RPC call, bounded.
func (d *devnet) call(out any, method string, args ...any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return d.rpc.CallContext(ctx, out, method, args...)
}

// ethBlock is what the test reads of a block: its transactions' hashes and base fee.
type ethBlock struct {
	Number       hexutil.Uint64 `json:"number"`
	BaseFee      *hexutil.Big   `json:"baseFeePerGas"`
	Transactions []common.Hash  `json:"transactions"`
}

// latest is the head block.
func (d *devnet) latest() (ethBlock, error) {
	var b ethBlock
	err := d.call(&b, "eth_getBlockByNumber", "latest", false)
	return b, err
}

// ethTx is one eth_sendTransaction from an unlocked account: a transfer of 1 wei, priced
// with gasPrice (legacy, or EIP-2930 with an access list) or with EIP-1559's fee cap and tip.
type ethTx map[string]any

func legacyTx(from, to common.Address, price *big.Int) ethTx {
	return ethTx{"from": from, "to": to, "value": "0x1", "gas": "0x5208", "gasPrice": (*hexutil.Big)(price)}
}

func accessListTx(from, to common.Address, price *big.Int) ethTx {
	tx := legacyTx(from, to, price)
	tx["type"], tx["accessList"] = "0x1", []any{}
	return tx
}

func dynamicFeeTx(from, to common.Address, feeCap, tip *big.Int) ethTx {
	return ethTx{"from": from, "to": to, "value": "0x1", "gas": "0x5208", "type": "0x2",
		"maxFeePerGas": (*hexutil.Big)(feeCap), "maxPriorityFeePerGas": (*hexutil.Big)(tip)}
}

// mine sends txs and mines one block, which must hold exactly them; it returns the block's
// number and when the test saw it mined.
func (d *devnet) mine(txs []ethTx) (uint64, time.Time, error) {
	sent := map[common.Hash]bool{}
	for _, tx := range txs {
		var h common.Hash
		if err := d.call(&h, "eth_sendTransaction", tx); err != nil {
			return 0, time.Time{}, fmt.Errorf("eth_sendTransaction %v: %w", tx, err)
		}
		sent[h] = true
	}
	if err := d.call(nil, "evm_mine"); err != nil {
		return 0, time.Time{}, err
	}
	at := time.Now()
	b, err := d.latest()
	if err != nil {
		return 0, time.Time{}, err
	}
	if len(b.Transactions) != len(sent) {
		return 0, time.Time{}, fmt.Errorf("block %d holds %d transactions, %d were sent", b.Number, len(b.Transactions), len(sent))
	}
	for _, h := range b.Transactions {
		if !sent[h] {
			return 0, time.Time{}, fmt.Errorf("block %d holds %s, which the test did not send", b.Number, h)
		}
	}
	return uint64(b.Number), at, nil
}

// minPrice is block n's minimum non-zero effective gas price in wei, read from ganache's
// receipts (eth_getTransactionReceipt's effectiveGasPrice) — not from the block's fee fields,
// which the oracle reads — or nil for a block without a priced transaction.
func (d *devnet) minPrice(n uint64) (*big.Int, error) {
	var b ethBlock
	if err := d.call(&b, "eth_getBlockByNumber", hexutil.EncodeUint64(n), false); err != nil {
		return nil, err
	}
	var least *big.Int
	for _, h := range b.Transactions {
		var r struct {
			BlockNumber       hexutil.Uint64 `json:"blockNumber"`
			EffectiveGasPrice *hexutil.Big   `json:"effectiveGasPrice"`
		}
		if err := d.call(&r, "eth_getTransactionReceipt", h); err != nil {
			return nil, err
		}
		if uint64(r.BlockNumber) != n || r.EffectiveGasPrice == nil {
			return nil, fmt.Errorf("receipt of %s: block %d, effectiveGasPrice %v", h, r.BlockNumber, r.EffectiveGasPrice)
		}
		p := r.EffectiveGasPrice.ToInt()
		if p.Sign() > 0 && (least == nil || p.Cmp(least) < 0) {
			least = p
		}
	}
	return least, nil
}
