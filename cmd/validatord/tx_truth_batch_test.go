package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/keyfile"
)

// `tx truth batch --batch -` reads JSON lines from stdin into one
// MsgTruthBatch (offline, --generate-only); `tx truth` with its flags is
// still the single truth; a bad line is named by its number, and a batch
// the chain would refuse whole is refused before anything is signed.
func TestTruthBatchFromStdin(t *testing.T) {
	home := t.TempDir()
	if _, err := keyfile.Add(home, "val", bytes.NewReader(bytes.Repeat([]byte{9}, 32))); err != nil {
		t.Fatal(err)
	}
	common := []string{"--from", "val", "--chain-id", "off-1", "--nonce", "0", "--generate-only", "--home", home, "--node", freeAddr(t)}
	off := append([]string{"tx", "truth", "batch", "--batch", "-"}, common...)
	lines := `# base, blocks 100 and 101
{"evm_chain_id": 8453, "evm_block": 100, "min_price": "20.5", "timestamp": 1700000000}

{"evm_chain_id": 8453, "evm_block": 101, "empty": true, "timestamp": 1700000002}
`
	code, out, errOut := runStdin(lines, off...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	msg := compact(t, mustUnsigned(t, out).Message)
	if !strings.Contains(msg, `"truth_batch":{"entries":[{"evm_chain_id":"8453","evm_block":"100","min_price":"20.5","timestamp":"1700000000"}`) ||
		!strings.Contains(msg, `{"evm_chain_id":"8453","evm_block":"101","timestamp":"1700000002","empty":true}]}`) {
		t.Fatalf("message %s", msg)
	}
	single := append([]string{"tx", "truth", "--evm-chain-id", "8453", "--evm-block", "100", "--min-price", "20.5", "--timestamp", "1700000000"}, common...)
	if code, out, errOut := runStdin("", single...); code != 0 || !strings.Contains(compact(t, mustUnsigned(t, out).Message), `"truth":{"evm_chain_id":"8453"`) {
		t.Fatalf("tx truth: exit %d stdout %q stderr %q", code, out, errOut)
	}
	for _, tc := range []struct{ name, in, want string }{
		{"unknown field", lines + `{"evm_chain_id": 1, "evm_block": 3, "min_price": "1", "timestamp": 5, "colour": "red"}` + "\n", "--batch -: line 5: "},
		{"price and empty", `{"evm_chain_id": 1, "evm_block": 3, "min_price": "1", "empty": true, "timestamp": 5}`, "line 1: evm_block 3 has both min_price and empty"},
		{"a block twice", lines + `{"evm_chain_id": 8453, "evm_block": 100, "min_price": "21", "timestamp": 1700000003}`, "duplicate_batch_entry: truth batch entries 0 and 2 both name gas 8453/100"},
		{"empty", "# nothing\n", "batch_size: truth batch has 0 entries"},
	} {
		code, out, errOut := runStdin(tc.in, off...)
		if code != 1 || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d stdout %q stderr %q; want exit 1 and %q", tc.name, code, out, errOut, tc.want)
		}
	}
}

func mustUnsigned(t *testing.T, out string) client.UnsignedTx {
	t.Helper()
	var u client.UnsignedTx
	if err := json.Unmarshal([]byte(out), &u); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	return u
}

// A validator sends the truths of EVM blocks 100 (priced) and 101 (empty)
// of chain 1, and of block 99, in one `tx truth batch` on a real node: the
// tx succeeds, its one validator's votes make 100 and 101 final (the chain
// closed up to 101), and the entry for 99, by then closed, is refused
// alone with its code in its truth_entry event.
func TestTruthBatchOnANode(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a CometBFT node")
	}
	home, node, _ := initStarted(t, "truths-1", "--timeout-commit", "100ms")
	ts := time.Now().Unix() - 10
	lines := fmt.Sprintf(`{"evm_chain_id": 1, "evm_block": 100, "min_price": "20.5", "timestamp": %d}
{"evm_chain_id": 1, "evm_block": 101, "empty": true, "timestamp": %d}
{"evm_chain_id": 1, "evm_block": 99, "min_price": "20", "timestamp": %d}
`, ts, ts+1, ts+1)
	code, out, errOut := runStdin(lines, "tx", "truth", "batch", "--from", "validator", "--batch", "-", "--home", home, "--node", node, "--wait")
	var res client.TxResult
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil || res.Code != 0 {
		t.Fatalf("truth batch: exit %d, %v, stdout %q, stderr %q", code, err, out, errOut)
	}
	entries := entryLines(res.Events, wire.EventTruthEntry, 5)
	want := []string{"index=0 evm_chain_id=1 evm_block=100 code=0 name=ok", "index=1 evm_chain_id=1 evm_block=101 code=0 name=ok",
		"index=2 evm_chain_id=1 evm_block=99 code=33 name=evm_block_closed"}
	if strings.Join(entries, "\n") != strings.Join(want, "\n") {
		t.Fatalf("truth_entry events:\n%s\nwant:\n%s", strings.Join(entries, "\n"), strings.Join(want, "\n"))
	}
	var gc wire.GasChainView
	queryJSON(t, node, &gc, "gaschain", "1")
	if gc.LastClosedBlock == nil || *gc.LastClosedBlock != 101 {
		t.Fatalf("gaschain 1: %+v, want closed up to 101", gc)
	}
}
