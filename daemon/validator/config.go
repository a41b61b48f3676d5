package validator

import (
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/daemon/config"
	"github.com/scoringsubnet/validatord/internal/keyfile"
)

// Config is the validator daemon's configuration: <home>/validator.toml,
// every option also a flag (<section>-<key>) of `validator init` and
// `validator run`.
type Config struct {
	Chain   ChainConfig   `toml:"chain"`
	Measure MeasureConfig `toml:"measure"`
	Report  ReportConfig  `toml:"report"`
	Tasks   TasksConfig   `toml:"tasks"`
	Gas     GasConfig     `toml:"gas"`
	Metrics MetricsConfig `toml:"metrics"`
}

// ChainConfig is how the daemon reaches the chain and who it signs as.
type ChainConfig struct {
	Node    string          `toml:"node" help:"CometBFT RPC address of the node the daemon reads and sends through"`
	ChainID string          `toml:"chain_id" help:"the chain id (\"\": ask the node; when given, the node must run it)"`
	Key     string          `toml:"key" help:"name of the validator's report key in <home>/keys: it signs reports, tasks and (with [gas] evm_rpc) truths"`
	Poll    config.Duration `toml:"poll" help:"how often the daemon looks for submissions to measure, sends reports and posts tasks"`
}

// MeasureConfig is the user's measurement command and the bounds of
// fetching a miner's artifact for it.
type MeasureConfig struct {
	Command          string          `toml:"command" help:"the measurement command line (program and arguments, shell-like quoting, no shell):\nit reads one JSON object on stdin (track, submission, task, artifact in base64) and prints\none JSON object: {\"workflow\": {...}} or {\"arena\": {...}}, optionally with \"duplicate_of\": N\n(docs/daemons.md); required by validator run"`
	Timeout          config.Duration `toml:"timeout" help:"bound on one run of the command; a run past it is killed and retried at the next poll"`
	MaxOutputBytes   int64           `toml:"max_output_bytes" help:"the most bytes the command may print on stdout (more: killed, retried at the next poll)"`
	Workers          int             `toml:"workers" help:"how many submissions are fetched and measured at once (each run of the command is one process)"`
	MaxArtifactBytes int64           `toml:"max_artifact_bytes" help:"the largest artifact fetched from a miner; a larger one gets the no-usable-artifact measurement"`
	FetchTimeout     config.Duration `toml:"fetch_timeout" help:"bound on one fetch of an artifact from a miner's address"`
	FetchUntilBlocks int64           `toml:"fetch_until_blocks_before_deadline" help:"fetching and measuring a submission are retried at each poll until this many blocks before its report deadline;\nthen an artifact never fetched gets the no-usable-artifact measurement and a command that kept failing is a miss"`
}

// ReportConfig shapes the report transactions.
type ReportConfig struct {
	BatchMax     int   `toml:"batch_max" help:"the most reports one transaction carries (a MsgReportBatch, at most 256)"`
	MarginBlocks int64 `toml:"margin_blocks" help:"no report is sent once fewer than this many blocks are left before the submission's report deadline\n(a transaction sent at height h lands at h+1 or later); at most fetch_until_blocks_before_deadline"`
}

// TasksConfig is the daemon's task posting: every PostEveryBlocks blocks
// one task of each track in Tracks, from the templates below.
type TasksConfig struct {
	PostEveryBlocks int64    `toml:"post_every_blocks" help:"post the configured tasks every this many blocks (0: post none)"`
	Tracks          []string `toml:"tracks" help:"the tracks to post a task of each time: workflow, arena"`

	WorkflowTotalSteps        int64  `toml:"workflow_total_steps" help:"workflow task: total_steps"`
	WorkflowMaxBudget         string `toml:"workflow_max_budget" help:"workflow task: max_budget (TAO, a decimal)"`
	WorkflowMaxLatencySeconds string `toml:"workflow_max_latency_seconds" help:"workflow task: max_latency_seconds (a decimal)"`
	WorkflowSubmissionBlocks  int64  `toml:"workflow_submission_blocks" help:"workflow task: blocks to commit (then the track's reveal window)"`
	WorkflowReportBlocks      int64  `toml:"workflow_report_blocks" help:"workflow task: blocks to report after the reveal window"`

	ArenaCategory         string `toml:"arena_category" help:"arena task: category (one of the genesis arena categories)"`
	ArenaDifficulty       string `toml:"arena_difficulty" help:"arena task: difficulty (one of the genesis arena difficulties)"`
	ArenaCriteriaTotal    int64  `toml:"arena_criteria_total" help:"arena task: criteria_total"`
	ArenaSubmissionBlocks int64  `toml:"arena_submission_blocks" help:"arena task: blocks to commit (then the track's reveal window)"`
	ArenaReportBlocks     int64  `toml:"arena_report_blocks" help:"arena task: blocks to report after the reveal window"`
}

// GasConfig runs the gas track's truth oracle in the daemon's process:
// the options of `validatord oracle gas`.
type GasConfig struct {
	EvmRPC        string          `toml:"evm_rpc" help:"EVM JSON-RPC endpoint whose gas truths the daemon reports (\"\": no oracle); as oracle gas --evm-rpc"`
	EvmChainID    uint64          `toml:"evm_chain_id" help:"the EVM chain id (0: ask the endpoint; when given, the endpoint must agree)"`
	Confirmations uint64          `toml:"confirmations" help:"blocks a window's last block must be below the EVM head before it is reported"`
	StartBlock    int64           `toml:"start_block" help:"where to begin when the chain has closed no window of this EVM chain yet (-1: the latest confirmed window)"`
	BatchWindows  int             `toml:"batch_windows" help:"the most windows one truth transaction reports when several are confirmed at once (1 to 256)"`
	Poll          config.Duration `toml:"poll" help:"how often to read the EVM head"`
	RPCTimeout    config.Duration `toml:"rpc_timeout" help:"bound on each call to the EVM endpoint and each query of the oracle to the node"`
	PerTx         bool            `toml:"per_tx" help:"price from the transactions' fee fields even when the endpoint has eth_getBlockReceipts"`
}

// MetricsConfig is the daemon's Prometheus endpoint.
type MetricsConfig struct {
	Listen string `toml:"listen" help:"serve the daemon's Prometheus series at http://HOST:PORT/metrics (\"\": off; e.g. 127.0.0.1:26662)"`
}

// ConfigFileName is the daemon's configuration file in a home.
const ConfigFileName = "validator.toml"

// ConfigFile is <home>/validator.toml.
func ConfigFile(home string) string { return filepath.Join(home, ConfigFileName) }

// RecordFile is <home>/validator/signrec.jsonl, the signing record.
func RecordFile(home string) string { return filepath.Join(home, "validator", "signrec.jsonl") }

// DefaultConfig is what `validator init` writes without flags.
func DefaultConfig() Config {
	var c Config
	c.Chain = ChainConfig{Node: "tcp://127.0.0.1:26657", Key: keyfile.ReportKeyName, Poll: config.Duration(time.Second)}
	c.Measure = MeasureConfig{Timeout: config.Duration(time.Minute), MaxOutputBytes: 64 << 10, Workers: 4,
		MaxArtifactBytes: 1 << 20, FetchTimeout: config.Duration(5 * time.Second), FetchUntilBlocks: 10}
	c.Report = ReportConfig{BatchMax: 64, MarginBlocks: 1}
	c.Tasks = TasksConfig{Tracks: []string{"workflow"},
		WorkflowTotalSteps: 4, WorkflowMaxBudget: "2", WorkflowMaxLatencySeconds: "120", WorkflowSubmissionBlocks: 300, WorkflowReportBlocks: 600,
		ArenaCategory: "backend_development", ArenaDifficulty: "intermediate", ArenaCriteriaTotal: 10, ArenaSubmissionBlocks: 300, ArenaReportBlocks: 600}
	c.Gas = GasConfig{Confirmations: 2, StartBlock: -1, BatchWindows: 64, Poll: config.Duration(time.Second), RPCTimeout: config.Duration(10 * time.Second)}
	return c
}

// Header is the comment at the top of the file `validator init` writes.
const Header = `validatord validator run: the validator daemon's configuration.
Every option is also a flag of validator init and validator run, --<section>-<key> with '_' as '-'
([measure] command is --measure-command); a flag given to run wins over this file.
docs/daemons.md says what each part does.`

// Write writes cfg as <home>/validator.toml with its comments; it refuses
// to replace the file unless force (config.ErrExists).
func Write(home string, cfg Config, force bool) error {
	return config.Write(ConfigFile(home), &cfg, Header, force)
}

// Load reads a configuration file over the defaults.
func Load(path string) (Config, error) {
	c := DefaultConfig()
	err := config.Load(path, &c)
	return c, err
}

// Validate checks the options Run needs; the first problem is a
// *ConfigError naming the option.
func (c Config) Validate() error {
	bad := func(opt, why string, args ...any) error {
		return &ConfigError{Option: opt, Reason: fmt.Sprintf(why, args...)}
	}
	switch {
	case c.Chain.Node == "":
		return bad("chain.node", "is empty")
	case c.Chain.Key == "":
		return bad("chain.key", "is empty: name the validator's report key in <home>/keys")
	case c.Chain.Poll <= 0:
		return bad("chain.poll", "must be positive")
	case c.Measure.Command == "":
		return bad("measure.command", "is empty: the daemon needs a measurement command (docs/daemons.md)")
	case c.Measure.Timeout <= 0:
		return bad("measure.timeout", "must be positive")
	case c.Measure.MaxOutputBytes <= 0:
		return bad("measure.max_output_bytes", "must be positive")
	case c.Measure.Workers < 1:
		return bad("measure.workers", "must be at least 1")
	case c.Measure.MaxArtifactBytes <= 0:
		return bad("measure.max_artifact_bytes", "must be positive")
	case c.Measure.FetchTimeout <= 0:
		return bad("measure.fetch_timeout", "must be positive")
	case c.Measure.FetchUntilBlocks < 0:
		return bad("measure.fetch_until_blocks_before_deadline", "must not be negative")
	case c.Report.BatchMax < 1 || c.Report.BatchMax > wire.MaxReportBatch:
		return bad("report.batch_max", "%d: must be in [1, %d]", c.Report.BatchMax, wire.MaxReportBatch)
	case c.Report.MarginBlocks < 0 || c.Report.MarginBlocks > c.Measure.FetchUntilBlocks:
		return bad("report.margin_blocks", "%d: must be in [0, measure.fetch_until_blocks_before_deadline = %d]", c.Report.MarginBlocks, c.Measure.FetchUntilBlocks)
	case c.Tasks.PostEveryBlocks < 0:
		return bad("tasks.post_every_blocks", "must not be negative")
	case c.Gas.BatchWindows < 1 || c.Gas.BatchWindows > wire.MaxBatch:
		return bad("gas.batch_windows", "%d: must be in [1, %d]", c.Gas.BatchWindows, wire.MaxBatch)
	case c.Gas.EvmRPC != "" && (c.Gas.Poll <= 0 || c.Gas.RPCTimeout <= 0):
		return bad("gas.poll", "gas.poll and gas.rpc_timeout must be positive")
	}
	for _, tr := range c.Tasks.Tracks {
		if !slices.Contains(postTracks, tr) {
			return bad("tasks.tracks", "%q: a posted task is workflow or arena", tr)
		}
	}
	return nil
}

// postTracks are the tracks whose tasks the daemon can post.
var postTracks = []string{"workflow", "arena"}
