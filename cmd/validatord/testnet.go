package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	cfg "github.com/cometbft/cometbft/config"
	cmttime "github.com/cometbft/cometbft/types/time"

	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/node/appconfig"
)

func init() {
	root.add(&command{name: "testnet", summary: "create the homes of a local N-validator network on loopback ports", run: runTestnet})
}

const testnetUsage = "testnet --output DIR [--v 4] [--starting-port 26656] [--chain-id ID] [--timeout-commit 500ms] [--registration-difficulty 256] [--registrations-per-block 256] [--force]"

// Each node uses portStride ports from startingPort+i*portStride: p2p at +0,
// RPC at +1, (when enabled) Prometheus at +4 and the leaderboard page at +5,
// so node0 has CometBFT's default ports.
const portStride = 10

// testnetPorts are the loopback ports of node i.
type testnetPorts struct{ P2P, RPC, Prometheus, Leaderboard int }

func portsOf(start, i int) testnetPorts {
	base := start + i*portStride
	return testnetPorts{P2P: base, RPC: base + 1, Prometheus: base + 4, Leaderboard: base + 5}
}

// testnetNode is what testnet prints about one node.
type testnetNode struct {
	Home      string `json:"home"`
	Moniker   string `json:"moniker"`
	NodeID    string `json:"node_id"`
	RPC       string `json:"rpc"`
	P2P       string `json:"p2p"`
	ReportKey string `json:"report_key"`
}

func runTestnet(_ context.Context, env Env, args []string) error {
	fs := newFlags("testnet")
	n := fs.Int("v", 4, "number of validators")
	output := fs.String("output", "", "directory for the homes node0..node<v-1> (required)")
	start := fs.Int("starting-port", 26656, "first port; node i uses ports from starting-port+10*i")
	chainID := fs.String("chain-id", "scoring-localnet", "chain id")
	timeoutCommit := fs.Duration("timeout-commit", 500*time.Millisecond, "consensus timeout_commit (block interval)")
	force := fs.Bool("force", false, "replace config/, data/ and keys/ of existing node homes")
	reg := defineRegistrationFlags(fs, testnetDifficulty, testnetPerBlock)
	ret := defineRetentionFlag(fs)
	pos, ok, err := parseFlags(env, fs, testnetUsage, args)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 0, testnetUsage); err != nil {
		return err
	}
	if *output == "" {
		return fmt.Errorf("--output: required; usage: validatord %s", testnetUsage)
	}
	if *n < 1 || *n > 64 {
		return fmt.Errorf("--v: %d, want 1..64", *n)
	}
	if last := portsOf(*start, *n-1); *start < 1024 || last.Prometheus > 65535 {
		return fmt.Errorf("--starting-port: %d, want ports %d..%d within 1024..65535", *start, *start, last.Prometheus)
	}
	tune := genesisTune(reg.apply, ret.apply)
	if err := checkGenesisFlags(tune); err != nil {
		return err
	}
	nodes, err := createTestnet(*output, *n, *start, *chainID, *timeoutCommit, *force, tune)
	if err != nil {
		return err
	}
	return printJSON(env.Stdout, nodes)
}

// createTestnet writes n homes with distinct loopback ports, persistent peers
// wired between all of them and one shared genesis.
func createTestnet(output string, n, start int, chainID string, timeoutCommit time.Duration, force bool, tune func(*genesis.AppState) error) ([]testnetNode, error) {
	maxTx := genesis.DefaultGenesis().Chain.MaxTxBytes
	setups := make([]homeSetup, 0, n)
	for i := 0; i < n; i++ {
		ports := portsOf(start, i)
		o := homeOptions{
			Home:          filepath.Join(output, fmt.Sprintf("node%d", i)),
			Moniker:       fmt.Sprintf("node%d", i),
			RPCLaddr:      fmt.Sprintf("tcp://127.0.0.1:%d", ports.RPC),
			P2PLaddr:      fmt.Sprintf("tcp://127.0.0.1:%d", ports.P2P),
			TimeoutCommit: timeoutCommit,
			Force:         force,
			Tune:          localnetTune(ports),
		}
		s, err := createHome(o, maxTx)
		if err != nil {
			return nil, fmt.Errorf("node%d: %w", i, err)
		}
		setups = append(setups, s)
	}
	wirePeers(setups, start)
	genDoc, err := buildGenesis(chainID, cmttime.Now(), setups, tune)
	if err != nil {
		return nil, err
	}
	nodes := make([]testnetNode, 0, n)
	for i, s := range setups {
		if err := saveConfig(s.Home, s.Config); err != nil {
			return nil, err
		}
		if err := setLeaderboardAddr(s.Home, fmt.Sprintf("127.0.0.1:%d", portsOf(start, i).Leaderboard)); err != nil {
			return nil, err
		}
		if err := genDoc.SaveAs(s.Config.GenesisFile()); err != nil {
			return nil, err
		}
		nodes = append(nodes, testnetNode{Home: s.Home, Moniker: s.Config.Moniker, NodeID: string(s.NodeID), RPC: s.Config.RPC.ListenAddress, P2P: s.Config.P2P.ListenAddress, ReportKey: s.ReportKey.PubKey})
	}
	return nodes, nil
}

// localnetTune adapts a config to a network whose peers share 127.0.0.1.
func localnetTune(ports testnetPorts) func(*cfg.Config) {
	return func(c *cfg.Config) {
		c.P2P.AllowDuplicateIP = true
		c.P2P.AddrBookStrict = false
		c.Instrumentation.PrometheusListenAddr = fmt.Sprintf("127.0.0.1:%d", ports.Prometheus)
	}
}

// wirePeers sets every node's persistent_peers to all the other nodes.
func wirePeers(setups []homeSetup, start int) {
	for i, s := range setups {
		peers := make([]string, 0, len(setups)-1)
		for j, o := range setups {
			if j != i {
				peers = append(peers, fmt.Sprintf("%s@127.0.0.1:%d", o.NodeID, portsOf(start, j).P2P))
			}
		}
		s.Config.P2P.PersistentPeers = strings.Join(peers, ",")
	}
}

// setLeaderboardAddr gives a home's app.toml its own leaderboard port, so
// the nodes of one machine do not all ask for the default one.
func setLeaderboardAddr(home, addr string) error {
	nc, err := appconfig.Load(home)
	if err != nil {
		return err
	}
	nc.LeaderboardAddr = addr
	return appconfig.Write(home, nc)
}
