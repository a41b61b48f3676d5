package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	cfg "github.com/cometbft/cometbft/config"
	"github.com/cometbft/cometbft/p2p"
	"github.com/cometbft/cometbft/privval"
	"github.com/cometbft/cometbft/types"
	cmttime "github.com/cometbft/cometbft/types/time"

	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/keyfile"
	"github.com/scoringsubnet/validatord/x/membership"
)

func init() {
	root.add(&command{name: "init", summary: "create a node home: config, keys and a single-validator genesis", run: runInit})
}

const initUsage = "init [--home DIR] [--chain-id ID] [--moniker NAME] [--power N] [--rpc-laddr ADDR] [--p2p-laddr ADDR] [--timeout-commit D] [--registration-difficulty N] [--registrations-per-block N] [--force]"

// Defaults of a new home.
const (
	defaultChainID  = "scoring-subnet-1"
	defaultPower    = 10
	defaultRPCLaddr = "tcp://127.0.0.1:26657"
	defaultP2PLaddr = "tcp://127.0.0.1:26656"
	// defaultPromLaddr is where CometBFT's metrics endpoint listens once
	// config.toml turns it on: loopback like RPC and p2p (CometBFT's own
	// default, ":26660", is every interface).
	defaultPromLaddr = "127.0.0.1:26660"
)

// homeOptions are the settings of one home to create.
type homeOptions struct {
	Home          string
	Moniker       string
	RPCLaddr      string
	P2PLaddr      string
	TimeoutCommit time.Duration
	Force         bool
	// Tune, when set, adjusts the config further before it is written.
	Tune func(*cfg.Config)
}

// homeSetup is what creating one home produced: the inputs of the genesis.
type homeSetup struct {
	Home      string
	Config    *cfg.Config
	Validator types.GenesisValidator
	NodeID    p2p.ID
	ReportKey keyfile.Info
}

func runInit(_ context.Context, env Env, args []string) error {
	fs := newFlags("init")
	home := homeFlag(fs)
	chainID := fs.String("chain-id", defaultChainID, "chain id")
	moniker := fs.String("moniker", "validator0", "node name, also the validator's name in genesis")
	power := fs.Int64("power", defaultPower, "voting power of the validator")
	rpcLaddr := fs.String("rpc-laddr", defaultRPCLaddr, "RPC listen address (loopback by default)")
	p2pLaddr := fs.String("p2p-laddr", defaultP2PLaddr, "p2p listen address (loopback by default)")
	timeoutCommit := fs.Duration("timeout-commit", cfg.DefaultConsensusConfig().TimeoutCommit, "consensus timeout_commit (block interval)")
	force := fs.Bool("force", false, "replace config/, data/ and keys/ of an existing home")
	reg := defineRegistrationFlags(fs, membership.DefaultMinDifficulty, membership.DefaultMaxRegistrationsPerBlock)
	ret := defineRetentionFlag(fs)
	pos, ok, err := parseFlags(env, fs, initUsage, args)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 0, initUsage); err != nil {
		return err
	}
	if err := checkInitFlags(*chainID, *power, *rpcLaddr, *p2pLaddr); err != nil {
		return err
	}
	tune := genesisTune(reg.apply, ret.apply)
	if err := checkGenesisFlags(tune); err != nil {
		return err
	}
	opts := homeOptions{Home: *home, Moniker: *moniker, RPCLaddr: *rpcLaddr, P2PLaddr: *p2pLaddr, TimeoutCommit: *timeoutCommit, Force: *force}
	setup, err := createHome(opts, genesis.DefaultGenesis().Chain.MaxTxBytes)
	if err != nil {
		return err
	}
	setup.Validator.Power = *power
	genDoc, err := buildGenesis(*chainID, cmttime.Now(), []homeSetup{setup}, tune)
	if err != nil {
		return err
	}
	if err := genDoc.SaveAs(setup.Config.GenesisFile()); err != nil {
		return err
	}
	return printJSON(env.Stdout, initSummary(setup, genDoc.ChainID))
}

// checkInitFlags checks the flags before anything is written, so that a bad
// flag leaves no half-made home behind.
func checkInitFlags(chainID string, power int64, rpcLaddr, p2pLaddr string) error {
	if chainID == "" || len(chainID) > types.MaxChainIDLen {
		return fmt.Errorf("--chain-id: %q, want 1..%d characters (chain_id)", chainID, types.MaxChainIDLen)
	}
	if power <= 0 {
		return fmt.Errorf("--power: %d, want a positive voting power", power)
	}
	if err := checkLaddr("--rpc-laddr", rpcLaddr); err != nil {
		return err
	}
	if err := checkLaddr("--p2p-laddr", p2pLaddr); err != nil {
		return err
	}
	if rpcLaddr == p2pLaddr {
		return fmt.Errorf("--p2p-laddr: %q is also --rpc-laddr, want two different addresses", p2pLaddr)
	}
	return nil
}

// checkLaddr accepts tcp://host:port listen addresses; flag names the flag in errors.
func checkLaddr(flag, addr string) error {
	hostPort, ok := strings.CutPrefix(addr, "tcp://")
	if !ok {
		return fmt.Errorf("%s: %q, want tcp://host:port", flag, addr)
	}
	_, port, err := net.SplitHostPort(hostPort)
	if err != nil {
		return fmt.Errorf("%s: %q: %v", flag, addr, err)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("%s: %q: bad port %q", flag, addr, port)
	}
	return nil
}

// initSummary is what init prints.
func initSummary(s homeSetup, chainID string) map[string]string {
	return map[string]string{
		"home":       s.Home,
		"chain_id":   chainID,
		"moniker":    s.Config.Moniker,
		"node_id":    string(s.NodeID),
		"address":    s.Validator.Address.String(),
		"report_key": s.ReportKey.PubKey,
		"rpc":        s.Config.RPC.ListenAddress,
		"p2p":        s.Config.P2P.ListenAddress,
	}
}

// createHome writes config.toml, the priv validator, the node key and the
// report key of one home. The genesis is written by the caller.
func createHome(o homeOptions, maxTxBytes int64) (homeSetup, error) {
	if err := claimHome(o.Home, o.Force); err != nil {
		return homeSetup{}, err
	}
	conf := cfg.DefaultConfig()
	conf.SetRoot(o.Home)
	conf.Moniker = o.Moniker
	conf.RPC.ListenAddress = o.RPCLaddr
	conf.P2P.ListenAddress = o.P2PLaddr
	conf.Instrumentation.PrometheusListenAddr = defaultPromLaddr
	conf.Consensus.TimeoutCommit = o.TimeoutCommit
	conf.Mempool.MaxTxBytes = int(maxTxBytes)
	// The mempool the app is made for (docs/performance.md, "Mempool
	// settings"): flood with recheck (the app's check state is rebuilt from
	// it after every block), 5,000 pending transactions (about 1.3 blocks
	// at the work budget's 3,750: a recheck costs each pending tx a CheckTx
	// without its signature), at most that many of the largest size in
	// bytes, and a refused transaction not kept in the cache (a nonce_future
	// one becomes valid once the gap before it fills).
	conf.Mempool.Type, conf.Mempool.Recheck, conf.Mempool.Size = cfg.MempoolTypeFlood, true, 5000
	conf.Mempool.MaxTxsBytes = int64(conf.Mempool.Size) * maxTxBytes
	conf.Mempool.KeepInvalidTxsInCache = false
	if o.Tune != nil {
		o.Tune(conf)
	}
	if err := conf.ValidateBasic(); err != nil {
		return homeSetup{}, fmt.Errorf("config: %w", err)
	}
	if err := saveConfig(o.Home, conf); err != nil {
		return homeSetup{}, err
	}
	pv := privval.GenFilePV(conf.PrivValidatorKeyFile(), conf.PrivValidatorStateFile())
	pv.Save()
	nodeKey, err := p2p.LoadOrGenNodeKey(conf.NodeKeyFile())
	if err != nil {
		return homeSetup{}, err
	}
	report, err := keyfile.Add(o.Home, reportKeyName, rand.Reader)
	if err != nil {
		return homeSetup{}, err
	}
	pub := pv.Key.PubKey
	val := types.GenesisValidator{Address: pub.Address(), PubKey: pub, Power: defaultPower, Name: o.Moniker}
	return homeSetup{Home: o.Home, Config: conf, Validator: val, NodeID: nodeKey.ID(), ReportKey: report}, nil
}

// claimHome refuses a home that already holds files, unless force is set:
// then it removes what a home created by init holds (config/, data/, keys/).
func claimHome(home string, force bool) error {
	entries, err := os.ReadDir(home)
	if errors.Is(err, os.ErrNotExist) {
		return os.MkdirAll(home, 0o700)
	}
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	if !force {
		names := make([]string, 0, len(entries))
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return fmt.Errorf("home %s is not empty (%s); use --force to replace its config, data and keys", home, strings.Join(names, ", "))
	}
	for _, d := range []string{"config", "data", keysDirName} {
		if err := os.RemoveAll(filepath.Join(home, d)); err != nil {
			return err
		}
	}
	return nil
}

// buildGenesis makes the genesis document of the given homes: CometBFT's
// validators, consensus params within the app's block bound and an app_state of genesis.DefaultGenesis() with the same
// validators and their report keys, validated by both.
func buildGenesis(chainID string, genesisTime time.Time, setups []homeSetup, tune func(*genesis.AppState) error) (*types.GenesisDoc, error) {
	st := genesis.DefaultGenesis()
	if tune != nil {
		if err := tune(&st); err != nil {
			return nil, err
		}
	}
	vals := make([]types.GenesisValidator, 0, len(setups))
	for _, s := range setups {
		vals = append(vals, s.Validator)
		st.Validators = append(st.Validators, genesisValidatorOf(s.Validator, s.ReportKey.PubKey))
	}
	if err := st.Validate(); err != nil {
		return nil, err
	}
	appState, err := st.Encode()
	if err != nil {
		return nil, err
	}
	params, err := genesis.ConsensusParams()
	if err != nil {
		return nil, err
	}
	genDoc := &types.GenesisDoc{
		ChainID:         chainID,
		GenesisTime:     genesisTime,
		ConsensusParams: params,
		Validators:      vals,
		AppState:        appState,
	}
	if err := genDoc.ValidateAndComplete(); err != nil {
		return nil, fmt.Errorf("genesis: %w", err)
	}
	return genDoc, nil
}

// genesisValidatorOf is the app's view of a CometBFT genesis validator.
func genesisValidatorOf(v types.GenesisValidator, reportKey string) genesis.Validator {
	return genesis.Validator{
		Name:      v.Name,
		Address:   v.PubKey.Address().String(),
		PubKey:    base64.StdEncoding.EncodeToString(v.PubKey.Bytes()),
		Power:     v.Power,
		ReportKey: reportKey,
	}
}
