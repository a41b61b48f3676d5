package bench

import (
	"crypto/ed25519"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/testnode"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

// TestSubnetOnNode drives the subnet load against a one-validator node in this process
// (internal/testnode, a block every ~50 ms) over a short window: miners register, tasks are
// posted, committed to, revealed and reported in batches, and submissions are scored in the
// counted blocks, with none of the load's messages refused as early or late. Counts only.
func TestSubnetOnNode(t *testing.T) {
	n := testnode.Start(t, testnode.Options{ChainID: "bench-subnet-test", Edit: func(g *genesis.AppState) {
		// Registration costs 16 hashes here (RegisterWork finds them at once).
		g.Membership.InitialDifficulty, g.Membership.MinDifficulty = 16, 16
	}})
	o, err := parse([]string{"--testnet", "unused", "--subnet", "4", "--task-every", "2", "--duration", "1s",
		"--drain", "2s", "--workers", "2", "--pids", strconv.Itoa(os.Getpid())})
	if err != nil {
		t.Fatal(err)
	}
	net := &setup.Testnet{ChainID: n.ChainID, State: n.Gen, RPCs: []string{n.Addr}, ReportKeys: []ed25519.PrivateKey{n.ReportKey}}
	s, err := runSubnetOn(testnode.Ctx(t), o, net.RPCs, net)
	if err != nil {
		t.Fatal(err)
	}
	if s.Scored == 0 || s.TxsPerScored == 0 || s.Mode != "subnet" || s.Level != "subnet:4" {
		t.Errorf("nothing scored in the window: %+v", s)
	}
	for _, k := range subnetKinds {
		if s.CommittedByKind[k] == 0 {
			t.Errorf("no %s committed in the window: %v", k, s.CommittedByKind)
		}
	}
	for k := range s.RefusedByKind {
		if !strings.HasSuffix(k, " 8") { // a nonce refusal follows another; any other is the plan's fault here
			t.Errorf("refused: %v", s.RefusedByKind)
		}
	}
	if len(s.NodeCPUPerScoredS) != 1 || s.OfferedTPS == 0 || s.OfferedBytesPerS == 0 {
		t.Errorf("CPU per scored %v, offered %g tx/s %g bytes/s", s.NodeCPUPerScoredS, s.OfferedTPS, s.OfferedBytesPerS)
	}
}
