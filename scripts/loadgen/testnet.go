package main

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cometbft/cometbft/types"
	"github.com/spf13/viper"

	"github.com/scoringsubnet/validatord/genesis"
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
		key, err := loadReportKey(home)
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

// loadReportKey reads <home>/keys/validator.json (hex seed ‖ public key).
func loadReportKey(home string) (ed25519.PrivateKey, error) {
	path := filepath.Join(home, "keys", "validator.json")
	bz, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var kf struct {
		PrivKey string `json:"priv_key"`
	}
	if err := json.Unmarshal(bz, &kf); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	priv, err := hex.DecodeString(strings.TrimSpace(kf.PrivKey))
	if err != nil || len(priv) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("%s: priv_key: want %d bytes of hex", path, ed25519.PrivateKeySize)
	}
	return ed25519.NewKeyFromSeed(priv[:ed25519.SeedSize]), nil
}
