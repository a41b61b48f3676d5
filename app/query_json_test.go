package app

import (
	"testing"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
)

// TestQueryOptionalKeysPresent: keys that do not apply are null, not absent:
// an account that is neither miner nor validator, a gas submission's task
// fields, a committed workflow's artifact (not revealed yet), the keeper of
// a submission that is no duplicate, a miner without aggregates, a window
// without arena scores, the outcome of a pending truth round.
func TestQueryOptionalKeysPresent(t *testing.T) {
	n := newNode(t, "", testGenesis(3))
	m := newMiner("miner-a", 1)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(append([][]byte{m.tx(t, msgRegister()), r[0].tx(t, msgWorkflowTask(4, 3, 3))},
		anchorTxs(t, r, 1, 99, 1_700_000_001)...)...))
	mustOK(t, n.block(m.commit(t, gasPayload(1, 100, "12")), m.commit(t, wfPayload(0)),
		r[0].tx(t, msgTruth(1, 100, "10", 1_700_000_010))))
	want := map[string][]string{
		"account/" + kernel.Hexs(newSigner("nobody").pub()): {"uid", "validator"},
		"submission/0": {"task_id", "report_deadline", "artifact_hash", "receipt", "duplicate_of_uid", "duplicate_of_height"},
		"submission/1": {"gas", "artifact_hash", "receipt", "duplicate_of_uid", "duplicate_of_height"},
		"miner/1":      {"workflow", "arena", "gas"},
		"window/1":     {"workflow", "arena"},
		"truth/1/100":  {"closed_height", "min_price", "timestamp", "reveal_from", "reveal_until"},
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
