package main

import (
	"crypto/ed25519"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cometbft/cometbft/types"
	"github.com/spf13/viper"

	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/keyfile"
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
	var homes []string
	for i := 0; ; i++ {
		home := filepath.Join(dir, fmt.Sprintf("node%d", i))
		if st, err := os.Stat(home); err != nil || !st.IsDir() {
			break
		}
		homes = append(homes, home)
	}
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
		addr, err := rpcAddr(home)
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

// rpcAddr is the [rpc] laddr of a home's config.toml.
func rpcAddr(home string) (string, error) {
	v := viper.New()
	v.SetConfigFile(filepath.Join(home, "config", "config.toml"))
	if err := v.ReadInConfig(); err != nil {
		return "", err
	}
	addr := v.GetString("rpc.laddr")
	if addr == "" {
		return "", fmt.Errorf("%s: rpc.laddr is empty", home)
	}
	return addr, nil
}
