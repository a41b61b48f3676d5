package client_test

import (
	"crypto/ed25519"
	"testing"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/testnode"
)

const testChainID = "client-test"

// testRevealBlocks is every track's reveal window on the test node.
const testRevealBlocks = 10

// testNode is a single-validator CometBFT node running the real app in this
// process, its RPC on a free loopback port (internal/testnode).
type testNode struct {
	addr      string
	reportKey ed25519.PrivateKey
	gen       genesis.AppState
}

// key derives a fixed ed25519 key from a label.
func key(label string) ed25519.PrivateKey { return testnode.Key(label) }

// startNode starts the node (epochs of 5 blocks, registration at 16
// hashes, reveal windows of testRevealBlocks) and stops it when the test
// ends.
func startNode(t *testing.T) *testNode {
	t.Helper()
	n := testnode.Start(t, testnode.Options{ChainID: testChainID, Edit: func(g *genesis.AppState) {
		g.Window.EpochBlocks = 5
		// Registration costs 16 hashes here (RegisterWork finds them at once).
		g.Membership.InitialDifficulty, g.Membership.MinDifficulty = 16, 16
		for i := range g.Tracks {
			g.Tracks[i].RevealBlocks = testRevealBlocks
		}
	}})
	return &testNode{addr: n.Addr, reportKey: n.ReportKey, gen: n.Gen}
}

func dial(t *testing.T, addr string) *client.Client {
	t.Helper()
	c, err := client.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
