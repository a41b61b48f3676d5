package miner

import (
	"errors"
	"fmt"
	"time"

	"github.com/scoringsubnet/validatord/daemon/config"
)

// FileName is the configuration's file in a home (`miner init` writes it).
const FileName = "miner.toml"

// Config is the miner daemon's configuration: the sections of miner.toml,
// each option also a flag (<section>-<option>, config.Bind).
type Config struct {
	Chain struct {
		Node     string          `toml:"node" help:"the node's RPC address"`
		ChainID  string          `toml:"chain_id" help:"chain id (\"\": ask the node)"`
		Key      string          `toml:"key" help:"name of the miner's key in <home>/keys (validatord keys add NAME)"`
		Poll     config.Duration `toml:"poll" help:"how often the daemon looks at the chain (about a block interval is right)"`
		Register bool            `toml:"register" help:"register the key as a miner (its proof of work) when it owns no uid"`
	} `toml:"chain"`
	Serve struct {
		Listen  string `toml:"listen" help:"where the artifact server listens (host:port; \"\": no server, and workflow/arena\nartifacts cannot be fetched by validators, who then score them as unusable)"`
		Address string `toml:"address" help:"the address announced on chain (MsgServe) for validators to fetch artifacts from,\ne.g. http://203.0.113.7:8091 (\"\": http://<listen> when listen names a host)"`
	} `toml:"serve"`
	Workflow solverConfig `toml:"workflow"`
	Arena    solverConfig `toml:"arena"`
	Gas      struct {
		EvmRPC       string          `toml:"evm_rpc" help:"the EVM chain's JSON-RPC endpoint; \"\": the gas track is off"`
		EvmChainID   uint64          `toml:"evm_chain_id" help:"the EVM chain id (0: ask the endpoint)"`
		PriceCommand string          `toml:"price_command" help:"command printing one price per predicted block (stdin: {\"evm_chain_id\",\"head\",\"blocks\",\"evm_rpc\"});\nscripts/examples/price is an example"`
		PriceURL     string          `toml:"price_url" help:"instead of price_command: a URL whose body is one decimal price, used for every block"`
		Lead         uint64          `toml:"lead" help:"predict only blocks at least this far above the EVM head, so that the commit lands\ncommit_margin_seconds before the block (2 suits 2 s EVM blocks and 1 s chain blocks)"`
		Ahead        uint64          `toml:"ahead" help:"predict at most this many EVM blocks past the chain's last closed window (0: the chain's max_prediction_ahead)"`
		Timeout      config.Duration `toml:"timeout" help:"bound on the price command, the feed and each EVM call"`
	} `toml:"gas"`
	Metrics struct {
		Listen string `toml:"listen" help:"serve Prometheus series at http://<listen>/metrics (\"\": off; e.g. 127.0.0.1:26671)"`
	} `toml:"metrics"`
}

// solverConfig is a task track's section.
type solverConfig struct {
	Solver        string          `toml:"solver" help:"command that solves a task: its JSON on stdin, the artifact on stdout (\"\": the track is off);\nscripts/examples/solver is an example"`
	Timeout       config.Duration `toml:"timeout" help:"bound on one run of the solver"`
	MinBlocksLeft int64           `toml:"min_blocks_left" help:"start a task only while at least this many blocks are left before its submit deadline"`
	Attempts      int             `toml:"attempts" help:"runs of a failing solver per task before the task is given up"`
}

// Header is the comment at the top of miner.toml.
const Header = `validatord miner run: the configuration of one miner key's daemon.
Every option is also a flag of ` + "`validatord miner run`" + ` named <section>-<option> with '_' as '-'
(e.g. [gas] evm_rpc is --gas-evm-rpc); flags win over this file. docs/daemons.md says more.`

// DefaultConfig is the configuration `miner init` writes.
func DefaultConfig() Config {
	var c Config
	c.Chain.Node = "tcp://127.0.0.1:26657"
	c.Chain.Key = "miner"
	c.Chain.Poll = config.Duration(time.Second)
	c.Chain.Register = true
	c.Workflow = solverConfig{Timeout: config.Duration(time.Minute), MinBlocksLeft: 2, Attempts: 3}
	c.Arena = c.Workflow
	c.Gas.Lead = 2
	c.Gas.Timeout = config.Duration(5 * time.Second)
	return c
}

// ErrConfig is the class of a configuration the daemon cannot run.
var ErrConfig = errors.New("miner: configuration")

// Check names the first option the daemon cannot run with.
func (c *Config) Check() error {
	bad := func(f string, a ...any) error { return fmt.Errorf("%w: "+f, append([]any{ErrConfig}, a...)...) }
	switch {
	case c.Chain.Key == "":
		return bad("[chain] key: name the miner's key (validatord keys add NAME)")
	case c.Chain.Poll.D() <= 0:
		return bad("[chain] poll %s: must be positive", c.Chain.Poll)
	case c.Workflow.Solver == "" && c.Arena.Solver == "" && c.Gas.EvmRPC == "":
		return bad("no track: set [workflow] solver, [arena] solver or [gas] evm_rpc")
	case c.Gas.EvmRPC != "" && (c.Gas.PriceCommand == "") == (c.Gas.PriceURL == ""):
		return bad("[gas]: set exactly one of price_command and price_url")
	case c.Gas.Timeout.D() <= 0:
		return bad("[gas] timeout %s: must be positive", c.Gas.Timeout)
	}
	for _, s := range []struct {
		name string
		c    solverConfig
	}{{"workflow", c.Workflow}, {"arena", c.Arena}} {
		if s.c.Solver != "" && (s.c.Timeout.D() <= 0 || s.c.Attempts < 1 || s.c.MinBlocksLeft < 1) {
			return bad("[%s]: timeout must be positive, attempts and min_blocks_left at least 1", s.name)
		}
	}
	return nil
}
