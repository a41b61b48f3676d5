//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// liarFactor is how much the lying endpoint inflates every gas price.
const liarFactor = 10

// pricedFields are the JSON-RPC fields an oracle can take a gas price from: a block's base
// fee, a transaction's fee fields, a receipt's effective price.
var pricedFields = map[string]bool{"gasPrice": true, "maxFeePerGas": true, "maxPriorityFeePerGas": true,
	"baseFeePerGas": true, "effectiveGasPrice": true}

// liar is an EVM JSON-RPC endpoint that lies: it forwards each call to an honest endpoint and
// multiplies every gas price of the answer by liarFactor, so that an oracle reading it
// computes ten times each block's true minimum (for an EIP-1559 transaction min(fee cap,
// base fee + tip) scales with its three fields). Once stalled, it takes each request and
// never answers it (the caller's timeout ends it).
type liar struct {
	srv      *httptest.Server
	upstream string
	stalled  atomic.Bool
	// release ends the stalled requests when the test ends.
	release chan struct{}
	// stalledCalls counts the requests taken while stalled.
	stalledCalls atomic.Int64
}

// newLiar serves a lying endpoint in front of upstream on a loopback port.
func newLiar(t *testing.T, upstream string) *liar {
	l := &liar{upstream: upstream, release: make(chan struct{})}
	l.srv = httptest.NewServer(l)
	t.Cleanup(l.srv.Close)
	t.Cleanup(func() { close(l.release) }) // before Close, which waits for the stalled requests
	return l
}

// url is the endpoint an oracle is given.
func (l *liar) url() string { return l.srv.URL }

// stall makes every later request hang.
func (l *liar) stall() { l.stalled.Store(true) }

func (l *liar) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if l.stalled.Load() {
		l.stalledCalls.Add(1)
		select {
		case <-l.release:
		case <-r.Context().Done():
		}
		return
	}
	resp, err := http.Post(l.upstream, "application/json", bytes.NewReader(body))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	if lied, err := inflate(out); err == nil {
		out = lied
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(out)
}

// inflate multiplies every priced field of a JSON-RPC answer (or batch of answers) by
// liarFactor; the other fields, and numbers, are kept as they were.
func inflate(bz []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(bz))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return json.Marshal(inflateValue(v))
}

func inflateValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && pricedFields[k] {
				if n, ok := new(big.Int).SetString(strings.TrimPrefix(s, "0x"), 16); ok {
					x[k] = "0x" + n.Mul(n, big.NewInt(liarFactor)).Text(16)
					continue
				}
			}
			x[k] = inflateValue(e)
		}
	case []any:
		for i := range x {
			x[i] = inflateValue(x[i])
		}
	}
	return v
}
