package oracle_test

import (
	"testing"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/testnode"
)

// chainNode is a one-validator validatord node in this process
// (internal/testnode) whose gas track follows one EVM chain, with the
// validator's signer.
type chainNode struct {
	c      *client.Client
	signer *client.Signer
}

// startChain starts a node following EVM chain evmChainID with windows of
// k blocks.
func startChain(t testing.TB, evmChainID, k uint64) *chainNode {
	t.Helper()
	const chainID = "oracle-test"
	n := testnode.Start(t, testnode.Options{ChainID: chainID, Edit: func(g *genesis.AppState) {
		g.Chain.GasChains = []uint64{evmChainID}
		if k > 1 {
			g.Chain.GasWindows = []genesis.GasWindow{{EvmChainID: evmChainID, WindowBlocks: k}}
		}
	}})
	c, err := client.Dial(n.Addr)
	if err != nil {
		t.Fatal(err)
	}
	return &chainNode{c: c, signer: client.NewSigner(c, chainID, n.ReportKey)}
}
