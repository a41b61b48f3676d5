package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/scripts/examples/internal/extest"
)

// fakeEVM answers the three methods the price source calls; hang makes it
// never answer.
func fakeEVM(t *testing.T, chainID, block, gasPrice string, hang bool) *httptest.Server {
	t.Helper()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hang {
			// Reading the body lets the server notice the client leaving.
			_, _ = io.Copy(io.Discard, r.Body)
			select {
			case <-r.Context().Done():
			case <-release:
			}
			return
		}
		var req struct {
			ID     int             `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			t.Errorf("request: %v", err)
			return
		}
		result := map[string]string{"eth_chainId": chainID, "eth_getBlockByNumber": block, "eth_gasPrice": gasPrice}[req.Method]
		if req.Method == "eth_getBlockByNumber" && string(req.Params) != `["latest",true]` {
			t.Errorf("eth_getBlockByNumber params %s", req.Params)
		}
		if result == "" {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"error":{"code":-32601,"message":"no %s"}}`, req.ID, req.Method)
			return
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"result":%s}`, req.ID, result)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // runs first: frees a hung handler
	return srv
}

// A London block of base fee 0.4 gwei: a zero-priced system transaction,
// an EIP-1559 one paying 0.4 + 0.1 gwei, and a legacy one at 2 gwei.
const busyBlock = `{"number":"0x10","baseFeePerGas":"0x17d78400","transactions":[
	{"type":"0x0","gasPrice":"0x0"},
	{"type":"0x2","maxFeePerGas":"0xb2d05e00","maxPriorityFeePerGas":"0x5f5e100","gasPrice":"0x1dcd6500"},
	{"type":"0x0","gasPrice":"0x77359400"}]}`

const emptyBlock = `{"number":"0x11","baseFeePerGas":"0x7","transactions":[]}`

func stdin(rpc string, blocks ...uint64) string {
	b, _ := json.Marshal(map[string]any{"evm_chain_id": 8453, "head": 100, "blocks": blocks, "evm_rpc": rpc})
	return string(b)
}

func price(t *testing.T, in string, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := run(args, strings.NewReader(in), &out)
	return out.String(), err
}

func TestPersistence(t *testing.T) {
	srv := fakeEVM(t, `"0x2105"`, busyBlock, `"0x1"`, false)
	out, err := price(t, stdin(srv.URL, 101, 102, 103))
	if err != nil {
		t.Fatal(err)
	}
	if out != "0.5\n0.5\n0.5\n" {
		t.Fatalf("out %q", out)
	}
	// Every line is a price the chain accepts in GasPredict.price.
	for _, line := range strings.Fields(out) {
		if _, terr := wire.PositiveAmount("price", line); terr != nil {
			t.Fatal(terr)
		}
	}
}

func TestFallbackToGasPrice(t *testing.T) {
	srv := fakeEVM(t, `"0x2105"`, emptyBlock, `"0x3b9aca07"`, false) // 1.000000007 gwei
	out, err := price(t, stdin(srv.URL, 5))
	if err != nil || out != "1.000000007\n" {
		t.Fatalf("out %q, err %v", out, err)
	}
	zero := fakeEVM(t, `"0x2105"`, emptyBlock, `"0x0"`, false)
	if _, err := price(t, stdin(zero.URL, 5)); err == nil {
		t.Fatal("no price to predict, but no error")
	}
}

func TestRefuses(t *testing.T) {
	wrong := fakeEVM(t, `"0x1"`, busyBlock, `"0x1"`, false)
	if _, err := price(t, stdin(wrong.URL, 5)); err == nil || !strings.Contains(err.Error(), "EVM chain 1") {
		t.Fatalf("wrong chain: %v", err)
	}
	broken := fakeEVM(t, `"0x2105"`, "", "", false)
	if _, err := price(t, stdin(broken.URL, 5)); err == nil || !strings.Contains(err.Error(), "eth_getBlockByNumber") {
		t.Fatalf("endpoint error: %v", err)
	}
	hung := fakeEVM(t, "", "", "", true)
	start := time.Now()
	if _, err := price(t, stdin(hung.URL, 5), "-timeout", "200ms"); err == nil {
		t.Fatal("hung endpoint, no error")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v with -timeout 200ms", d)
	}
	if _, err := price(t, `{"evm_chain_id":8453,"blocks":[1]}`); err == nil {
		t.Fatal("no evm_rpc, no error")
	}
}

func TestBinary(t *testing.T) {
	srv := fakeEVM(t, `"0x2105"`, busyBlock, `"0x1"`, false)
	out, err := extest.Run(t, extest.Build(t, "."), []byte(stdin(srv.URL, 7, 8)), "-timeout", "5s")
	if err != nil || string(out) != "0.5\n0.5\n" {
		t.Fatalf("out %q, err %v", out, err)
	}
}
