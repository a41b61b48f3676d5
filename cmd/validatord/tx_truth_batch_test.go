package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

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
