package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"os"
	"time"

	"github.com/scoringsubnet/validatord/oracle"
)

// input is the price source's stdin.
type input struct {
	EVMChainID uint64   `json:"evm_chain_id"`
	Head       uint64   `json:"head"`
	Blocks     []uint64 `json:"blocks"`
	EVMRPC     string   `json:"evm_rpc"`
}

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "price:", err)
		os.Exit(1)
	}
}

func run(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("price", flag.ContinueOnError)
	timeout := fs.Duration("timeout", 10*time.Second, "bound on the whole run")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var in input
	if err := json.NewDecoder(stdin).Decode(&in); err != nil {
		return fmt.Errorf("reading stdin: %w", err)
	}
	if in.EVMRPC == "" {
		return errors.New("stdin has no evm_rpc")
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	c := &rpcClient{url: in.EVMRPC, hc: &http.Client{}}
	var chainID hexBig
	if err := c.call(ctx, "eth_chainId", []any{}, &chainID); err != nil {
		return err
	}
	if chainID.Int == nil || !chainID.IsUint64() || chainID.Uint64() != in.EVMChainID {
		return fmt.Errorf("%s is EVM chain %v, stdin asks for %d", in.EVMRPC, chainID.Int, in.EVMChainID)
	}
	wei, err := latestMinPrice(ctx, c)
	if err != nil {
		return err
	}
	price := oracle.Gwei(wei).String()
	var out bytes.Buffer
	for range in.Blocks {
		out.WriteString(price)
		out.WriteByte('\n')
	}
	_, err = stdout.Write(out.Bytes())
	return err
}

// block and tx are the fields of eth_getBlockByNumber's answer the price
// needs (hex quantities; absent ones stay nil).
type block struct {
	BaseFeePerGas *hexBig `json:"baseFeePerGas"`
	Transactions  []tx    `json:"transactions"`
}

type tx struct {
	Type                 *hexBig `json:"type"`
	GasPrice             *hexBig `json:"gasPrice"`
	MaxFeePerGas         *hexBig `json:"maxFeePerGas"`
	MaxPriorityFeePerGas *hexBig `json:"maxPriorityFeePerGas"`
}

// latestMinPrice is the least non-zero effective gas price of the latest
// block, or eth_gasPrice when that block paid none (wei, positive).
func latestMinPrice(ctx context.Context, c *rpcClient) (*big.Int, error) {
	var b *block
	if err := c.call(ctx, "eth_getBlockByNumber", []any{"latest", true}, &b); err != nil {
		return nil, err
	}
	if b != nil {
		var prices []*big.Int
		for _, t := range b.Transactions {
			fees := oracle.TxFees{GasPrice: t.GasPrice.big(), MaxFeePerGas: t.MaxFeePerGas.big(),
				MaxPriorityFeePerGas: t.MaxPriorityFeePerGas.big()}
			if typ := t.Type.big(); typ != nil {
				fees.Type = typ.Uint64()
			}
			if p, ok := oracle.EffectivePrice(fees, b.BaseFeePerGas.big()); ok {
				prices = append(prices, p)
			}
		}
		if m := oracle.MinNonZero(prices); m != nil {
			return m, nil
		}
	}
	var gp hexBig
	if err := c.call(ctx, "eth_gasPrice", []any{}, &gp); err != nil {
		return nil, err
	}
	if gp.Int == nil || gp.Sign() <= 0 {
		return nil, errors.New("the latest block paid no non-zero gas price and eth_gasPrice is 0: nothing to predict")
	}
	return gp.Int, nil
}

// hexBig is a JSON-RPC hex quantity ("0x1a").
type hexBig struct{ *big.Int }

func (h *hexBig) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if len(s) < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return fmt.Errorf("quantity %q: want 0x-prefixed hex", s)
	}
	v, ok := new(big.Int).SetString(s[2:], 16)
	if !ok {
		return fmt.Errorf("quantity %q: not hex", s)
	}
	h.Int = v
	return nil
}

func (h *hexBig) big() *big.Int {
	if h == nil {
		return nil
	}
	return h.Int
}

// rpcClient makes JSON-RPC 2.0 calls over HTTP.
type rpcClient struct {
	url string
	hc  *http.Client
	id  int
}

// maxAnswer bounds an endpoint's answer (a full block is well below it).
const maxAnswer = 64 << 20

func (c *rpcClient) call(ctx context.Context, method string, params []any, result any) error {
	c.id++
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: HTTP status %d", method, resp.StatusCode)
	}
	var answer struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxAnswer)).Decode(&answer); err != nil {
		return fmt.Errorf("%s: reading answer: %w", method, err)
	}
	if answer.Error != nil {
		return fmt.Errorf("%s: endpoint error %d: %s", method, answer.Error.Code, answer.Error.Message)
	}
	if err := json.Unmarshal(answer.Result, result); err != nil {
		return fmt.Errorf("%s: result: %w", method, err)
	}
	return nil
}
