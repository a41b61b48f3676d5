package app

import (
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
)

// TestQueryOptionalKeysPresent: keys that do not apply are null, not absent:
// an account that is neither miner nor validator, a gas submission's task
// fields, a miner without aggregates, a window without arena scores.
func TestQueryOptionalKeysPresent(t *testing.T) {
	n := newNode(t, "", testGenesis(3))
	m := newSigner("miner-a")
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(append([][]byte{m.tx(t, msgRegister())}, anchorTxs(t, r, 1, 99, 1_700_000_001)...)...))
	mustOK(t, n.block(m.tx(t, msgGas(1, 100, "12"))))
	want := map[string][]string{
		"account/" + hexs(newSigner("nobody").pub()): {"uid", "validator"},
		"submission/0": {"task_id", "report_deadline", "artifact_hash", "receipt"},
		"miner/1":      {"workflow", "arena", "gas"},
		"window/1":     {"workflow", "arena"},
	}
	for path, keys := range want {
		got, code := n.query(path)
		if code != wire.QueryOK {
			t.Fatalf("%s: code %d %v", path, code, got)
		}
		for _, k := range keys {
			if v, ok := got[k]; !ok || v != nil {
				t.Errorf("%s: %q = %v (present %v), want null", path, k, v, ok)
			}
		}
	}
	st, _ := n.query("status")
	if st["chain_id"] != testChainID {
		t.Fatalf("status = %v", st)
	}
}
