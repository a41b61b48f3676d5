package main

import (
	"crypto/ed25519"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cometbft/cometbft/types"

	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/keyfile"
	"github.com/scoringsubnet/validatord/internal/testnethome"
)

// testnet is what the generator needs of a testnet directory.
type testnet struct {
	chainID    string
	state      genesis.AppState
	rpcs       []string
	reportKeys []ed25519.PrivateKey // one per validator, in node order
}

// loadTestnet reads node0..nodeN of dir: genesis (chain id, tracks), RPC addresses and the
// validators' report keys. nodes, when set, replaces the RPC addresses.
func loadTestnet(dir, nodes string) (*testnet, error) {
	homes := testnethome.Homes(dir)
	if len(homes) == 0 {
		return nil, fmt.Errorf("--testnet %s: no node homes (run `validatord testnet --output %s`)", dir, dir)
	}
	gen, err := types.GenesisDocFromFile(filepath.Join(homes[0], "config", "genesis.json"))
	if err != nil {
		return nil, err
	}
	st, err := genesis.Decode(gen.AppState)
	if err != nil {
		return nil, fmt.Errorf("genesis app_state: %w", err)
	}
	t := &testnet{chainID: gen.ChainID, state: st}
	for _, home := range homes {
		addr, err := testnethome.RPCAddr(home)
		if err != nil {
			return nil, err
		}
		key, err := keyfile.Load(home, keyfile.ReportKeyName)
		if err != nil {
			return nil, err
		}
		t.rpcs = append(t.rpcs, addr)
		t.reportKeys = append(t.reportKeys, key)
	}
	if nodes != "" {
		t.rpcs = strings.Split(nodes, ",")
	}
	return t, nil
}
