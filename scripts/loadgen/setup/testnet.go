package setup

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

// Testnet is what the load needs of a testnet directory.
type Testnet struct {
	ChainID    string
	State      genesis.AppState
	RPCs       []string
	ReportKeys []ed25519.PrivateKey // one per validator, in node order
}

// LoadTestnet reads node0..nodeN of dir: genesis (chain id, tracks), RPC addresses and the
// validators' report keys. nodes, when set, replaces the RPC addresses.
func LoadTestnet(dir, nodes string) (*Testnet, error) {
	homes := testnethome.Homes(dir)
	if len(homes) == 0 {
		return nil, fmt.Errorf("--testnet %s: no node homes (run `validatord testnet --output %s`)", dir, dir)
	}
	chainID, st, err := LoadGenesis(homes[0])
	if err != nil {
		return nil, err
	}
	t := &Testnet{ChainID: chainID, State: st}
	if t.RPCs, err = RPCs(dir, nodes); err != nil {
		return nil, err
	}
	for _, home := range homes {
		key, err := keyfile.Load(home, keyfile.ReportKeyName)
		if err != nil {
			return nil, err
		}
		t.ReportKeys = append(t.ReportKeys, key)
	}
	return t, nil
}

// RPCs are the RPC addresses of dir's node homes, or nodes (comma-separated) when set.
func RPCs(dir, nodes string) ([]string, error) {
	if nodes != "" {
		return strings.Split(nodes, ","), nil
	}
	var rpcs []string
	for _, home := range testnethome.Homes(dir) {
		addr, err := testnethome.RPCAddr(home)
		if err != nil {
			return nil, err
		}
		rpcs = append(rpcs, addr)
	}
	return rpcs, nil
}

// LoadGenesis reads a node home's genesis: the chain id and the app state.
func LoadGenesis(home string) (string, genesis.AppState, error) {
	path := filepath.Join(home, "config", "genesis.json")
	doc, err := types.GenesisDocFromFile(path)
	if err != nil {
		return "", genesis.AppState{}, err
	}
	st, err := genesis.Decode(doc.AppState)
	if err != nil {
		return "", genesis.AppState{}, fmt.Errorf("%s: app_state: %w", path, err)
	}
	return doc.ChainID, st, nil
}

// ArenaRuns reports whether the chain runs the arena track with a category and a difficulty
// to post tasks of.
func ArenaRuns(st genesis.AppState) bool {
	return st.HasTrack(genesis.TrackArena) && len(st.Arena.Categories) > 0 && len(st.Arena.Difficulties) > 0
}
